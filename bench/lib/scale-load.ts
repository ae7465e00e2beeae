// Queries of bench:recognition-scale, 5 s clips with white noise sent one at a time as 16-bit PCM to
// POST /api/recognition/pcm, timed end to end by the client and split by the server's Server-Timing header, of three
// kinds: plain (catalogue tracks at random offsets), warped (catalogue tracks sped up x1.10 or slowed x0.90, tempo and
// pitch together, by resampling) and unknown (the held-out tracks, not in the database: the right answer is no
// match). And the same client against a bare Fastify hello-world as the baseline.

import { createRandom, type Random, shuffled } from "./random.js";
import { CLIP_RATE, type Corpus, heldOutIndexes } from "./scale-corpus.js";

export type ClipKind = "plain" | "warped" | "unknown";
export const CLIP_KINDS: readonly ClipKind[] = ["plain", "warped", "unknown"];
/** The speed edits of the warped clips (tempo and pitch together), used in turn. */
export const WARP_SPEEDS = [1.1, 0.9] as const;
/** A clip quieter than this (RMS, dBFS) is drawn again: near-silence says nothing about refusing music. */
const MIN_CLIP_DBFS = -45;

export type Clip = {
  kind: ClipKind;
  track: number;
  /** Where the clip starts in the track (s, the track's own time). */
  startSeconds: number;
  /** Playback speed: 1 for plain and unknown clips, > 1 sped up. */
  speed: number;
  body: Buffer;
};

/**
 * One clip of `seconds` from a track of `pool` (chosen by usable length), at a random offset, played at `speed` by
 * linear interpolation (the output's sample i is the source at start + i * speed), with white noise at `snrDb`.
 */
function cutClip(
  corpus: Corpus,
  pool: number[],
  kind: ClipKind,
  seconds: number,
  speed: number,
  snrDb: number,
  rand: Random,
): Clip {
  const len = Math.round(seconds * CLIP_RATE);
  const span = Math.ceil(len * speed) + 1;
  const weights = pool.map((i) => Math.max(0, (corpus.tracks[i]?.pcm.length ?? 0) - span));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) throw new Error(`no ${kind} track is ${seconds} s long`);
  const out = new Float64Array(len);
  let track = 0;
  let start = 0;
  let power = 0;
  for (let tries = 0; tries < 50; tries++) {
    let pick = rand.next() * total;
    let k = 0;
    while (k < weights.length - 1 && pick >= (weights[k] as number)) pick -= weights[k++] as number;
    track = pool[k] as number;
    const pcm = corpus.tracks[track]?.pcm as Int16Array;
    start = rand.int(Math.max(1, pcm.length - span));
    power = 0;
    for (let i = 0; i < len; i++) {
      const x = start + i * speed;
      const j = Math.floor(x);
      const a = (pcm[j] as number) / 32768;
      const b = ((pcm[j + 1] ?? pcm[j]) as number) / 32768;
      const v = a + (b - a) * (x - j);
      out[i] = v;
      power += v * v;
    }
    if (10 * Math.log10(power / len) >= MIN_CLIP_DBFS) break;
  }
  const sigma = Math.sqrt(power / len) * 10 ** (-snrDb / 20);
  const body = Buffer.alloc(2 * len);
  for (let i = 0; i < len; i++) {
    const v = (out[i] as number) + sigma * rand.gaussian();
    body.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), 2 * i);
  }
  return { kind, track, startSeconds: start / CLIP_RATE, speed, body };
}

/**
 * The run's clips: `warmup` first (the kinds in turn), then `counts` of each kind in a seeded random order, so
 * neither the page cache nor the server's warm paths favour one kind. `seconds` long, white noise at `snrDb`.
 */
export function makeClips(
  corpus: Corpus,
  counts: Record<ClipKind, number>,
  warmup: number,
  seconds: number,
  snrDb: number,
  seed: number,
): Clip[] {
  const rand = createRandom(seed);
  const held = heldOutIndexes(corpus);
  const all = corpus.tracks.map((_, i) => i);
  const pools: Record<ClipKind, number[]> = {
    plain: all.filter((i) => !held.has(i)),
    warped: all.filter((i) => !held.has(i)),
    unknown: all.filter((i) => held.has(i)),
  };
  let warps = 0;
  const one = (kind: ClipKind) =>
    cutClip(
      corpus,
      pools[kind],
      kind,
      seconds,
      kind === "warped" ? (WARP_SPEEDS[warps++ % WARP_SPEEDS.length] as number) : 1,
      snrDb,
      rand,
    );
  const warm = Array.from({ length: warmup }, (_, i) => one(CLIP_KINDS[i % CLIP_KINDS.length] as ClipKind));
  const measured = CLIP_KINDS.flatMap((kind) => Array.from({ length: counts[kind] }, () => one(kind)));
  return [...warm, ...shuffled(measured, rand)];
}

/** One recognition request as the client saw it. */
export type Sample = {
  totalMs: number;
  fingerprintMs: number;
  lookupMs: number;
  matchMs: number;
  /** The second pass for warped audio, when the server reports one (0 when it did not run). */
  warpMs: number;
  /** Rows the second pass read (0 when it did not run). */
  warpRows: number;
  rows: number;
  hashes: number;
  kind: ClipKind;
  /** Plain: the right song within the tolerance; warped: the right song within the tolerance scaled by the warp;
   * unknown: no match. */
  correct: boolean;
  matched: boolean;
  /** The clip's track (corpus index) and the song the server answered (null: no match). */
  track: number;
  matchedSongId: string | null;
  /** The answer named the clip's song (whatever the offset). */
  rightSong: boolean;
};

/** Parse `fingerprint;dur=X, lookup;dur=Y;desc="N rows", match;dur=Z` (and `warp;dur=W` when present). */
export function parseServerTiming(header: string | null): {
  fingerprint: number;
  lookup: number;
  match: number;
  warp: number;
  rows: number;
  warpRows: number;
} {
  const out = {
    fingerprint: Number.NaN,
    lookup: Number.NaN,
    match: Number.NaN,
    warp: 0,
    rows: Number.NaN,
    warpRows: 0,
  };
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    for (const p of params) {
      const [k, v] = p.split("=");
      if (k === "dur" && (name === "fingerprint" || name === "lookup" || name === "match" || name === "warp"))
        out[name] = Number(v);
      if (k === "desc" && name === "lookup") out.rows = Number.parseInt((v ?? "").replace(/"/g, ""), 10);
      if (k === "desc" && name === "warp") out.warpRows = Number.parseInt((v ?? "").replace(/"/g, ""), 10);
    }
  }
  return out;
}

/** Warped clips' offset tolerance, as a multiple of the plain one: the warp's estimate moves the offset a little. */
export const WARPED_TOLERANCE = 2;

type RecognitionBody = { hashes: number; match: { song: { id: string }; offsetSeconds: number } | null };

/** Send the clips one at a time; `warmup` clips first, not counted. */
export async function recognizeAll(opts: {
  base: string;
  cookie: string;
  clips: Clip[];
  warmup: number;
  trackSongIds: (string | null)[];
  /** Offset tolerance for plain clips; warped clips get it times `WARPED_TOLERANCE`. */
  toleranceSeconds: number;
  log: (line: string) => void;
}): Promise<Sample[]> {
  const { base, cookie, clips, trackSongIds } = opts;
  const samples: Sample[] = [];
  for (const [i, clip] of clips.entries()) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/recognition/pcm?sampleRate=${CLIP_RATE}`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/octet-stream" },
      body: clip.body,
    });
    const body = (await res.json()) as RecognitionBody;
    const totalMs = performance.now() - t0;
    if (res.status !== 200) throw new Error(`recognition answered ${res.status}: ${JSON.stringify(body)}`);
    if (i < opts.warmup) continue;
    const t = parseServerTiming(res.headers.get("server-timing"));
    const m = body.match;
    const tolerance = opts.toleranceSeconds * (clip.kind === "warped" ? WARPED_TOLERANCE : 1);
    const correct =
      clip.kind === "unknown"
        ? m === null
        : m !== null &&
          m.song.id === trackSongIds[clip.track] &&
          Math.abs(m.offsetSeconds - clip.startSeconds) <= tolerance;
    samples.push({
      totalMs,
      fingerprintMs: t.fingerprint,
      lookupMs: t.lookup,
      matchMs: t.match,
      warpMs: t.warp,
      warpRows: t.warpRows,
      rows: t.rows,
      hashes: body.hashes,
      kind: clip.kind,
      correct,
      matched: m !== null,
      track: clip.track,
      matchedSongId: m?.song.id ?? null,
      rightSong: m !== null && m.song.id === trackSongIds[clip.track],
    });
    const done = i + 1 - opts.warmup;
    if (done % 50 === 0) opts.log(`    ${done}/${clips.length - opts.warmup} queries`);
  }
  return samples;
}

/** GET / on the hello-world, `n` times one at a time after `warmup`. */
export async function helloAll(base: string, n: number, warmup: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n + warmup; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/`);
    await res.json();
    if (i >= warmup) out.push(performance.now() - t0);
  }
  return out;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

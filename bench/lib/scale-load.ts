// Queries of bench:recognition-scale: 5 s clips cut at random offsets from the catalogue's tracks with white noise,
// sent one at a time as 16-bit PCM to POST /api/recognition/pcm, timed end to end by the client and split by the
// server's Server-Timing header; and the same client against a bare Fastify hello-world as the baseline.

import { createRandom } from "./random.js";
import { CLIP_RATE, type Corpus } from "./scale-corpus.js";

export type Clip = { track: number; startSeconds: number; body: Buffer };

/** `n` clips of `seconds` from random tracks (by length) at random sample offsets, white noise at `snrDb`. */
export function makeClips(corpus: Corpus, n: number, seconds: number, snrDb: number, seed: number): Clip[] {
  const rand = createRandom(seed);
  const len = Math.round(seconds * CLIP_RATE);
  const weights = corpus.tracks.map((t) => Math.max(0, t.pcm.length - len));
  const total = weights.reduce((a, b) => a + b, 0);
  const clips: Clip[] = [];
  for (let q = 0; q < n; q++) {
    let pick = rand.next() * total;
    let track = 0;
    while (track < weights.length - 1 && pick >= (weights[track] as number)) pick -= weights[track++] as number;
    const pcm = corpus.tracks[track]?.pcm as Int16Array;
    const start = rand.int(Math.max(1, pcm.length - len));
    let power = 0;
    for (let i = 0; i < len; i++) power += ((pcm[start + i] as number) / 32768) ** 2;
    const sigma = Math.sqrt(power / len) * 10 ** (-snrDb / 20);
    const body = Buffer.alloc(2 * len);
    for (let i = 0; i < len; i++) {
      const v = (pcm[start + i] as number) / 32768 + sigma * rand.gaussian();
      body.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), 2 * i);
    }
    clips.push({ track, startSeconds: start / CLIP_RATE, body });
  }
  return clips;
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
  correct: boolean;
  matched: boolean;
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

type RecognitionBody = { hashes: number; match: { song: { id: string }; offsetSeconds: number } | null };

/** Send the clips one at a time; `warmup` clips first, not counted. */
export async function recognizeAll(opts: {
  base: string;
  cookie: string;
  clips: Clip[];
  warmup: number;
  trackSongIds: string[];
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
    const correct =
      m !== null &&
      m.song.id === trackSongIds[clip.track] &&
      Math.abs(m.offsetSeconds - clip.startSeconds) <= opts.toleranceSeconds;
    samples.push({
      totalMs,
      fingerprintMs: t.fingerprint,
      lookupMs: t.lookup,
      matchMs: t.match,
      warpMs: t.warp,
      warpRows: t.warpRows,
      rows: t.rows,
      hashes: body.hashes,
      correct,
      matched: body.match !== null,
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

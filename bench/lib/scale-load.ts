// Queries of bench:recognition-scale: 5 s clips with white noise sent one at a time as 16-bit PCM to
// POST /api/recognition/pcm, timed end to end by the client and split by the server's Server-Timing header, of the
// kinds issue 39 names: plain, sped up x1.15 and slowed x0.85 (tempo and pitch together, ffmpeg asetrate), pitch
// -2 and +2 semitones (rubberband), slowed x0.85 + reverb (then a room of RT60 0.5 s) and unknown music (the
// held-out tracks, not in the database: the right answer is no match). Transforms are bench:invariant's
// (bench/lib/transforms.ts). And the same client against a bare Fastify hello-world as the baseline.

import { resample } from "@unheard/fingerprint";
import { createRandom, type Random, shuffled } from "./random.js";
import { CLIP_RATE, type Corpus, catalogueOf, heldOutIndexes } from "./scale-corpus.js";
import { applyTransform, sourceSecondsFor, TRANSFORMS, type Transform } from "./transforms.js";

/** A kind of clip: how it is made from a corpus track. */
export type ClipKind = {
  id: string;
  label: string;
  /** ffmpeg transform (null: the clip as it is). */
  transform: Transform | null;
  /** Clips of the held-out tracks, whose right answer is no match. */
  unknown: boolean;
};

const transform = (name: string): Transform => {
  const t = TRANSFORMS.find((x) => x.name === name);
  if (!t) throw new Error(`no transform named ${name}`);
  return t;
};

/** Every kind, in the report's order. */
export const CLIP_KINDS: readonly ClipKind[] = [
  { id: "plain", label: "plain", transform: null, unknown: false },
  { id: "sped-up", label: "sped up x1.15", transform: transform("speed x1.15"), unknown: false },
  { id: "slowed", label: "slowed x0.85", transform: transform("speed x0.85"), unknown: false },
  { id: "pitch-down", label: "pitch -2 st", transform: transform("pitch -2 st"), unknown: false },
  { id: "pitch-up", label: "pitch +2 st", transform: transform("pitch +2 st"), unknown: false },
  {
    id: "slowed-reverb",
    label: "slowed x0.85 + reverb RT60 0.5 s",
    transform: transform("slowed x0.85 + reverb RT60 0.5 s"),
    unknown: false,
  },
  { id: "unknown", label: "unknown music", transform: null, unknown: true },
];

/** The kinds named in `ids` (comma-separated ids; empty: all). */
export function kindsOf(ids: string): ClipKind[] {
  if (!ids.trim()) return [...CLIP_KINDS];
  return ids.split(",").map((id) => {
    const k = CLIP_KINDS.find((x) => x.id === id.trim());
    if (!k) throw new Error(`unknown clip kind ${id}; kinds: ${CLIP_KINDS.map((x) => x.id).join(", ")}`);
    return k;
  });
}

/** A clip quieter than this (RMS of its source, dBFS) is drawn again: near-silence says nothing. */
const MIN_CLIP_DBFS = -45;

export type Clip = {
  kind: ClipKind;
  track: number;
  /** Where the clip starts in the track (s, the song's own time): the right answer's offset. */
  startSeconds: number;
  /** 16-bit mono PCM at `rate`. */
  body: Buffer;
  rate: number;
};

type Position = { track: number; start: number; seed: number };

/** `n` positions in tracks of `pool` long enough for the slowest kind's source, redrawn when near-silent. */
function drawPositions(corpus: Corpus, pool: number[], n: number, seconds: number, rand: Random): Position[] {
  const need = Math.ceil(sourceSecondsFor(seconds) * CLIP_RATE) + 1;
  const weights = pool.map((i) => Math.max(0, (corpus.tracks[i]?.pcm.length ?? 0) - need));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) throw new Error(`no track is ${seconds} s long`);
  const len = Math.round(seconds * CLIP_RATE);
  const out: Position[] = [];
  for (let q = 0; q < n; q++) {
    let track = 0;
    let start = 0;
    for (let tries = 0; tries < 50; tries++) {
      // By usable length: every second of the pool is as likely.
      let pick = rand.next() * total;
      let k = 0;
      while (k < weights.length - 1 && pick >= (weights[k] as number)) pick -= weights[k++] as number;
      track = pool[k] as number;
      const pcm = corpus.tracks[track]?.pcm as Int16Array;
      start = rand.int(Math.max(1, pcm.length - need));
      let power = 0;
      for (let i = start; i < start + len; i++) power += ((pcm[i] as number) / 32768) ** 2;
      if (10 * Math.log10(power / len + 1e-20) >= MIN_CLIP_DBFS) break;
    }
    out.push({ track, start, seed: rand.int(2 ** 31) });
  }
  return out;
}

/**
 * The clip of `kind` at `p`: the source cut, transformed, cut to `seconds`, white noise at `snrDb`, as PCM at
 * `rate` (resampled from CLIP_RATE when another).
 */
function makeClip(corpus: Corpus, kind: ClipKind, p: Position, seconds: number, snrDb: number, rate: number): Clip {
  const pcm = corpus.tracks[p.track]?.pcm as Int16Array;
  const n = Math.round((kind.transform ? sourceSecondsFor(seconds) : seconds) * CLIP_RATE);
  const source = Float32Array.from(pcm.subarray(p.start, p.start + n), (v) => v / 32768);
  const out = kind.transform ? applyTransform(source, CLIP_RATE, kind.transform) : source;
  const len = Math.round(seconds * CLIP_RATE);
  if (out.length < len) throw new Error(`${kind.label}: ffmpeg gave ${out.length} samples, ${len} needed`);
  let power = 0;
  for (let i = 0; i < len; i++) power += (out[i] as number) ** 2;
  const sigma = Math.sqrt(power / len) * 10 ** (-snrDb / 20);
  const random = createRandom(p.seed + 104729);
  const noisy = new Float32Array(len);
  for (let i = 0; i < len; i++) noisy[i] = (out[i] as number) + sigma * random.gaussian();
  const sent = resample(noisy, CLIP_RATE, rate);
  const body = Buffer.alloc(2 * sent.length);
  for (let i = 0; i < sent.length; i++)
    body.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round((sent[i] as number) * 32767))), 2 * i);
  return { kind, track: p.track, startSeconds: p.start / CLIP_RATE, body, rate };
}

/**
 * The run's clips: `warmup` first (the kinds in turn, not counted), then `perKind` of each known kind at the same
 * catalogue positions (so kinds differ only by their transform) and `unknown` of the held-out tracks, in a seeded
 * random order so neither the page cache nor the server's warm paths favour a kind.
 */
export function makeClips(
  corpus: Corpus,
  kinds: readonly ClipKind[],
  counts: { perKind: number; unknown: number; warmup: number },
  seconds: number,
  snrDb: number,
  seed: number,
  rate: number = CLIP_RATE,
): Clip[] {
  const rand = createRandom(seed);
  const catalogue = catalogueOf(corpus).indexes;
  const held = [...heldOutIndexes(corpus)];
  const known = drawPositions(corpus, catalogue, counts.perKind, seconds, rand);
  const unknown = drawPositions(corpus, held, counts.unknown, seconds, rand);
  const warm = drawPositions(corpus, catalogue, counts.warmup, seconds, rand).map((p, i) =>
    makeClip(corpus, kinds[i % kinds.length] as ClipKind, p, seconds, snrDb, rate),
  );
  // Each clip's noise from its own seed: a kind's clips differ from another's only by the transform.
  const measured = kinds.flatMap((k) =>
    (k.unknown ? unknown : known).map((p) => makeClip(corpus, k, p, seconds, snrDb, rate)),
  );
  return [...warm, ...shuffled(measured, rand)];
}

/** What became of a clip: the right song near the right offset, another song, the right one elsewhere, nothing. */
export type Outcome = "found" | "wrong-song" | "wrong-offset" | "none";

/** One recognition request as the client saw it. */
export type Sample = {
  kind: string;
  unknown: boolean;
  totalMs: number;
  fingerprintMs: number;
  lookupMs: number;
  matchMs: number;
  /** The invariant pass (0 when it did not run: the plain pass found the song). */
  invariantMs: number;
  /** The warped search (0 when it did not run). */
  warpMs: number;
  rows: number;
  invariantRows: number;
  warpRows: number;
  hashes: number;
  /** Unknown music: "none" is right, anything else a false positive. */
  outcome: Outcome;
  /** Which pass named the song (null: no match). */
  evidence: string | null;
  certainty: string | null;
  /** |reported tempo / true tempo - 1| of a found clip (the answer's transform; 1 when none is reported). */
  tempoError: number | null;
  /** Reported offset less the clip's start (s), when the right song was named. */
  offsetError: number | null;
  track: number;
  matchedSongId: string | null;
};

/** Server-Timing parts: each pass's duration, and the rows of those that say. */
export type ServerTiming = {
  fingerprint: number;
  lookup: number;
  match: number;
  invariant: number;
  warp: number;
  rows: number;
  invariantRows: number;
  warpRows: number;
};

/** Parse `fingerprint;dur=X, lookup;dur=Y;desc="N rows", match;dur=Z, invariant;dur=..;desc=.., warp;dur=..;desc=..`. */
export function parseServerTiming(header: string | null): ServerTiming {
  const out: ServerTiming = {
    fingerprint: Number.NaN,
    lookup: Number.NaN,
    match: Number.NaN,
    invariant: 0,
    warp: 0,
    rows: Number.NaN,
    invariantRows: 0,
    warpRows: 0,
  };
  const rowsOf = { lookup: "rows", invariant: "invariantRows", warp: "warpRows" } as const;
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    for (const p of params) {
      const [k, v] = p.split("=");
      if (
        k === "dur" &&
        (name === "fingerprint" || name === "lookup" || name === "match" || name === "invariant" || name === "warp")
      )
        out[name] = Number(v);
      if (k === "desc" && (name === "lookup" || name === "invariant" || name === "warp"))
        out[rowsOf[name]] = Number.parseInt((v ?? "").replace(/"/g, ""), 10);
    }
  }
  return out;
}

type RecognitionBody = {
  hashes: number;
  match: {
    song: { id: string };
    offsetSeconds: number;
    evidence: string;
    certainty: string;
    transform: { tempo: number } | null;
  } | null;
};

/** Send the clips one at a time; `warmup` clips first, not counted. */
export async function recognizeAll(opts: {
  base: string;
  cookie: string;
  clips: Clip[];
  warmup: number;
  trackSongIds: (string | null)[];
  /** A match is found when its offset (in the song's time) is within this of the clip's start. */
  toleranceSeconds: number;
  log: (line: string) => void;
}): Promise<Sample[]> {
  const { base, cookie, clips, trackSongIds } = opts;
  const samples: Sample[] = [];
  for (const [i, clip] of clips.entries()) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/recognition/pcm?sampleRate=${clip.rate}`, {
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
    const rightSong = m !== null && m.song.id === trackSongIds[clip.track];
    const outcome: Outcome =
      m === null
        ? "none"
        : !rightSong
          ? "wrong-song"
          : Math.abs(m.offsetSeconds - clip.startSeconds) <= opts.toleranceSeconds
            ? "found"
            : "wrong-offset";
    const truth = clip.kind.transform?.truth.tempo ?? 1;
    samples.push({
      kind: clip.kind.id,
      unknown: clip.kind.unknown,
      totalMs,
      fingerprintMs: t.fingerprint,
      lookupMs: t.lookup,
      matchMs: t.match,
      invariantMs: t.invariant,
      warpMs: t.warp,
      rows: t.rows,
      invariantRows: t.invariantRows,
      warpRows: t.warpRows,
      hashes: body.hashes,
      outcome,
      evidence: m?.evidence ?? null,
      certainty: m?.certainty ?? null,
      tempoError: outcome === "found" && m ? Math.abs((m.transform?.tempo ?? 1) / truth - 1) : null,
      offsetError: rightSong && m ? m.offsetSeconds - clip.startSeconds : null,
      track: clip.track,
      matchedSongId: m?.song.id ?? null,
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

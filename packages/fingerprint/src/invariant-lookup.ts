/**
 * How a store of invariant entries is laid out and read (decision 033, measured in bench/results/invariant.md).
 * Each entry is stored under a COMPOSITE key: the invariant key followed by a coarse, non-invariant suffix (the
 * band of the triplet's first pitch and the band of its time span), so a clip reads under each of its keys only the
 * suffix ranges its triplets can match within the matcher's search (strategy "ranges"): the rows the matcher would
 * drop anyway are never read. Keys are read as units, ordered by their whole key's row count (a count table of one
 * row per key), a key the clip forms as a song would (`invariantQuery`'s `primary`) counting its rows
 * `primaryWeight` times fewer, within a row budget (strategy "ranges+primary").
 */
import {
  INVARIANT_SPARSE_PRESET,
  type InvariantConfig,
  type QueryWidening,
  SPARSE_WIDENING,
  type Triplets,
} from "./invariant.js";
import { INVARIANT_MATCH, type InvariantMatchConfig } from "./invariant-match.js";

/** Bands of the suffix: first pitch in `pitchStep` semitones from `pitchLo`; span in steps of `spanStep` in ln. */
export type SuffixBands = {
  pitchLo: number;
  pitchStep: number;
  pitchBands: number;
  spanLo: number;
  spanStep: number;
  spanBands: number;
};

/** Everything the server's invariant index is made and read with; `name` changes whenever any of it does. */
export type InvariantIndexConfig = {
  name: string;
  analysis: InvariantConfig;
  widening: QueryWidening;
  match: InvariantMatchConfig;
  bands: SuffixBands;
  /** Rows a clip reads at most (decision 029's plain-pass budget). */
  rowBudget: number;
  /** A primary key's rows count this many times fewer when ordering keys. */
  primaryWeight: number;
  /** Songs are indexed up to this many seconds (the whole mono is analysed at once). */
  maxSeconds: number;
};

/**
 * 3-semitone pitch bands over MIDI 44-110 (peaks lie between 120 Hz and 3.4 kHz: MIDI 47-105) and span bands of
 * x1.28 from 60 ms (spans are 80 ms-2.5 s): a clip's search range (pitch +-6, span x0.77-x1.3) covers 5 pitch bands
 * and 2-3 span bands of each.
 */
export const SUFFIX_BANDS: SuffixBands = {
  pitchLo: 44,
  pitchStep: 3,
  pitchBands: 22,
  spanLo: 0.06,
  spanStep: 0.25,
  spanBands: 15,
};

/** The server's invariant index: the sparse preset, ranges+primary within 150,000 rows (bench:invariant). */
export const INVARIANT_INDEX: InvariantIndexConfig = {
  name: "inv-sparse-1",
  analysis: INVARIANT_SPARSE_PRESET,
  widening: SPARSE_WIDENING,
  match: INVARIANT_MATCH,
  bands: SUFFIX_BANDS,
  rowBudget: 150_000,
  primaryWeight: 8,
  maxSeconds: 20 * 60,
};

/** Suffixes per key. */
export const suffixCount = (b: SuffixBands): number => b.pitchBands * b.spanBands;

const clampBand = (x: number, n: number) => Math.max(0, Math.min(n - 1, Math.floor(x)));
const pitchBand = (b: SuffixBands, pitch: number) => clampBand((pitch - b.pitchLo) / b.pitchStep, b.pitchBands);
const spanBand = (b: SuffixBands, span: number) => clampBand(Math.log(span / b.spanLo) / b.spanStep, b.spanBands);

/** The composite key of a key and a packed entry's low word (its first pitch and span, `packInvariantEntry`). */
export function compositeKey(key: number, lo: number, b: SuffixBands = SUFFIX_BANDS): number {
  const pitch = Math.floor(lo / 2048) % 2048; // 1/16 semitone
  const spanMs = lo % 2048;
  return key * suffixCount(b) + pitchBand(b, pitch / 16) * b.spanBands + spanBand(b, Math.max(1, spanMs) / 1000);
}

/** The key a composite key belongs to. */
export const keyOfComposite = (c: number, b: SuffixBands = SUFFIX_BANDS): number => Math.floor(c / suffixCount(b));

/** One key of a clip to read: its composite ranges (closed, merged) and its order's cost. */
export type LookupUnit = { key: number; ranges: [number, number][]; cost: number };

/** Merge closed integer intervals (sorted by start). */
function merge(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * The units a clip reads, in the order to read them: each stored key of the clip (`counts`: its whole key's rows)
 * with the composite ranges its triplets can match (first pitch within the matcher's pitch search, stored span within
 * its time factors), cheapest first. The caller reads them in order and stops at the first that passes the budget.
 */
export function planInvariantLookup(
  q: Triplets,
  primary: ArrayLike<number>,
  counts: ReadonlyMap<number, number>,
  config: InvariantIndexConfig = INVARIANT_INDEX,
): LookupUnit[] {
  const b = config.bands;
  const rules = config.match;
  const isPrimary = new Set(Array.from(primary));
  const byKey = new Map<number, [number, number][]>();
  for (let i = 0; i < q.count; i++) {
    const key = q.keys[i] as number;
    if (!counts.get(key)) continue;
    let list = byKey.get(key);
    if (!list) {
      list = [];
      byKey.set(key, list);
    }
    const base = key * suffixCount(b);
    const pitch = q.pitches[i] as number;
    const span = q.spans[i] as number;
    const p0 = pitchBand(b, pitch - rules.maxPitchSemitones);
    const p1 = pitchBand(b, pitch + rules.maxPitchSemitones);
    const s0 = spanBand(b, span * rules.minTimeFactor);
    const s1 = spanBand(b, span * rules.maxTimeFactor);
    for (let p = p0; p <= p1; p++) list.push([base + p * b.spanBands + s0, base + p * b.spanBands + s1]);
  }
  const units: LookupUnit[] = [];
  for (const [key, ranges] of byKey) {
    const rows = counts.get(key) as number;
    units.push({ key, ranges: merge(ranges), cost: isPrimary.has(key) ? rows / config.primaryWeight : rows });
  }
  return units.sort((x, y) => x.cost - y.cost || x.key - y.key);
}

/** Semitones within which an invariant match's pitch is read as the speed's own, or as none (its estimate's error). */
export const INVARIANT_PITCH_SNAP = 0.15;
/** A time factor within this of 1 is read as unchanged. */
export const INVARIANT_TEMPO_SNAP = 0.004;
/**
 * A speed edit's pitch (at least 0.5 semitone, 3%) and time factor agree within this (in ln): the factor is then
 * read from the pitch, which the matcher estimates far more finely (a median of 1/16-semitone steps) than the time
 * factor of a few seconds of triplets (2% off on a 4 s microphone recording of a clip sped up 12%).
 */
export const INVARIANT_SPEED_AGREE = 0.025;

/**
 * The warp (tempo and pitch factors) of an invariant match, its estimates read as the edits people make: a speed
 * edit (tempo and pitch together) when the pitch and the time factor agree, a pitch near 0 as unchanged, a time
 * factor near 1 as unchanged.
 */
export function invariantWarp(timeFactor: number, pitchSemitones: number): { tempo: number; pitch: number } {
  const fromPitch = 2 ** (pitchSemitones / 12);
  if (Math.abs(pitchSemitones) >= 0.5 && Math.abs(Math.log(timeFactor / fromPitch)) <= INVARIANT_SPEED_AGREE)
    return { tempo: fromPitch, pitch: fromPitch };
  const tempo = Math.abs(timeFactor - 1) <= INVARIANT_TEMPO_SNAP ? 1 : timeFactor;
  if (tempo !== 1 && Math.abs(pitchSemitones - 12 * Math.log2(tempo)) <= INVARIANT_PITCH_SNAP)
    return { tempo, pitch: tempo };
  if (Math.abs(pitchSemitones) <= INVARIANT_PITCH_SNAP) return { tempo, pitch: 1 };
  return { tempo, pitch: fromPitch };
}

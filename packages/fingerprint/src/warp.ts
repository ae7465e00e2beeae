import { DEFAULT_PRESET, type DerivedParams, deriveParams, type FingerprintConfig } from "./config.js";
import { type Dereverb, type Spectrogram, stft, suppressLateReverb } from "./dsp.js";
import { toAnalysisRate } from "./fingerprint.js";
import type { Hashes } from "./hashes.js";
import { type Candidate, decide, type Lookup, lookupFromRows, match, rarestLookup } from "./match.js";
import { type Peaks, pickPeaks } from "./peaks.js";

/**
 * How a query was transformed from the stored recording: its frequencies are the original's times `pitch`, its
 * durations the original's divided by `tempo`. A "sped up" edit by 10% is { tempo: 1.1, pitch: 1.1 }; a pitch shift
 * of +2 semitones with tempo kept is { tempo: 1, pitch: 1.122 }; a time-stretch to 90% speed is { tempo: 0.9, pitch: 1 }.
 */
export type Warp = { tempo: number; pitch: number };

/** What kind of transform a warp is, for people: speed (tempo and pitch together), pitch only, tempo only. */
export type WarpKind = "none" | "speed" | "pitch" | "tempo" | "both";

/** The identity warp. */
export const NO_WARP: Warp = { tempo: 1, pitch: 1 };

/** Within this of 1, a factor counts as unchanged (half a grid step). */
const SAME = 0.004;

/** Classify a warp. */
export function warpKind(w: Warp): WarpKind {
  const t = Math.abs(w.tempo - 1) > SAME;
  const p = Math.abs(w.pitch - 1) > SAME;
  if (!t && !p) return "none";
  if (t && p) return Math.abs(w.tempo - w.pitch) <= SAME ? "speed" : "both";
  return t ? "tempo" : "pitch";
}

/** Semitones of a pitch factor (12 log2). */
export const semitones = (pitch: number): number => 12 * Math.log2(pitch);

/** The transforms a second pass searches: which ranges, at which step. */
export type WarpSearch = {
  /** Speed edits (tempo and pitch together): largest change either way, e.g. 0.15 for +-15%. */
  speed: number;
  /** Pitch shifts with tempo kept: largest shift either way, in semitones. */
  pitchSemitones: number;
  /** Time-stretches with pitch kept: largest change either way. */
  tempo: number;
  /** Relative step between neighbouring factors of the coarse grid (its largest error is half of it). */
  step: number;
  /** Verification tries this many finer factors on each side of a candidate's coarse one, within one step. */
  refineSteps: number;
  /** Songs verified after the coarse search. */
  candidates: number;
  /** A warped match needs at least this many aligned hashes... */
  minAligned: number;
  /** ...this many more than the runner-up song... */
  minMargin: number;
  /** ...and this many times the runner-up's count. */
  minMarginRatio: number;
  /**
   * A second analysis of the query with late reverberation taken off, fused with the first: in verification (its
   * hashes merged with the shifted analyses'), and with `inSearch` in the coarse search too. Null: none.
   */
  dereverb: (Dereverb & { inSearch: boolean }) | null;
  /**
   * Verification pairs each query peak with this many following peaks (null: the index's fan-out). A room's tail
   * adds peaks that take the places of the song's own targets among the nearest few; pairing wider finds the pairs
   * the index stored behind them. Only the few verified songs' rows are searched, so it costs little.
   */
  verifyFanOut: number | null;
  /**
   * The coarse search reads the rows of the clip's rarest hashes first, as long as they fit this many rows (null: all
   * of them under the index's per-hash cap). Its ~25,000 hashes over every warp would otherwise read every row of
   * each: 1.3 M at 100 hours. Rare hashes say the most about which song it is.
   */
  rowBudget: number | null;
};

/**
 * The ranges issue 17 asks for (speed +-15%, pitch +-2 semitones, tempo +-10%) on a 1% grid: at 2% a factor halfway
 * between two grid points lost half the clips (decision 020). Verification refines to 0.25%. A dereverberated analysis
 * is fused in, verification pairs 8 peaks wide, and the rule asks a lead of 10 and 2x (decision 028: slowed + reverb).
 */
export const DEFAULT_WARP_SEARCH: WarpSearch = {
  speed: 0.15,
  pitchSemitones: 2,
  tempo: 0.1,
  step: 0.01,
  refineSteps: 4,
  candidates: 5,
  minAligned: 20,
  // Decision 028: with the wider verification, chance alignments reach 10-12; the right song's lead over them is
  // what counts (a 3x ratio refused 21 against 9, 28 against 10).
  minMargin: 10,
  minMarginRatio: 2,
  dereverb: { delayFrames: 2, decayPerFrame: 0.65, floorDb: 20, inSearch: true },
  verifyFanOut: 8,
  rowBudget: 600_000,
};

/** Factors (1 + step)^k covering [1 - range, 1 + range] (geometric, so the relative error is even), without 1. */
function factors(range: number, step: number): number[] {
  const out: number[] = [];
  const lo = Math.log(1 - range);
  const hi = Math.log(1 + range);
  const s = Math.log(1 + step);
  for (let k = Math.floor(lo / s + 0.5); k <= Math.ceil(hi / s - 0.5); k++) if (k !== 0) out.push(Math.exp(k * s));
  return out;
}

/** Every warp of a search: the identity, then speed, pitch and tempo lines, nearest to the identity first. */
export function warpGrid(search: WarpSearch = DEFAULT_WARP_SEARCH): Warp[] {
  const out: Warp[] = [NO_WARP];
  for (const f of factors(search.speed, search.step)) out.push({ tempo: f, pitch: f });
  const pitchRange = 2 ** (search.pitchSemitones / 12) - 1;
  for (const f of factors(pitchRange, search.step)) out.push({ tempo: 1, pitch: f });
  for (const f of factors(search.tempo, search.step)) out.push({ tempo: f, pitch: 1 });
  return out.sort((a, b) => Math.abs(Math.log(a.tempo * a.pitch)) - Math.abs(Math.log(b.tempo * b.pitch)));
}

/** Peaks with sub-bin and sub-frame positions (parabolic interpolation of the dB spectrogram around each peak). */
export type RefinedPeaks = { count: number; times: Float64Array; freqs: Float64Array; frames: Int32Array };

/** Parabolic vertex offset (-0.5..0.5) of three equally spaced levels around a maximum. */
function vertex(l: number, c: number, r: number): number {
  const d = l - 2 * c + r;
  if (!(d < 0)) return 0;
  const x = (0.5 * (l - r)) / d;
  return x > 0.5 ? 0.5 : x < -0.5 ? -0.5 : x;
}

/** Refine picked peaks: a warped query needs positions finer than the grid to be mapped back onto it. */
export function refinePeaks(spectrogram: Spectrogram, peaks: Peaks): RefinedPeaks {
  const { data, binCount, frameCount } = spectrogram;
  const times = new Float64Array(peaks.count);
  const freqs = new Float64Array(peaks.count);
  for (let i = 0; i < peaks.count; i++) {
    const f = peaks.frames[i] as number;
    const b = peaks.bins[i] as number;
    const c = data[f * binCount + b] as number;
    const l = b > 0 ? (data[f * binCount + b - 1] as number) : c;
    const r = b < binCount - 1 ? (data[f * binCount + b + 1] as number) : c;
    const before = f > 0 ? (data[(f - 1) * binCount + b] as number) : c;
    const after = f < frameCount - 1 ? (data[(f + 1) * binCount + b] as number) : c;
    freqs[i] = b + vertex(l, c, r);
    times[i] = f + vertex(before, c, after);
  }
  return { count: peaks.count, times, freqs, frames: peaks.frames };
}

/**
 * The hashes the original recording would have stored for a query heard through `warp`: peak positions mapped back
 * (time x tempo, frequency / pitch) and paired by the config's rules. Offsets are in the original's frames. With
 * `refinedTimes` false, peak times are their frame plus `timeShift` (a shifted analysis), else the refined times.
 */
export function warpedHashes(
  peaks: RefinedPeaks,
  warp: Warp,
  config: FingerprintConfig,
  derived: DerivedParams = deriveParams(config),
  options: { refinedTimes: boolean; timeShift: number; fanOut?: number; stored?: (hash: number) => boolean } = {
    refinedTimes: true,
    timeShift: 0,
  },
): Hashes {
  const { minDeltaFrames, maxDeltaFrames, f2Bits, dtBits, minBin, maxBin } = derived;
  const fanOut = options.fanOut ?? config.pairing.fanOut;
  const stored = options.stored;
  const { count, freqs, frames } = peaks;
  const hashes = new Int32Array(count * fanOut);
  const offsets = new Int32Array(count * fanOut);
  const f1Shift = 2 ** (f2Bits + dtBits);
  const f2Shift = 2 ** dtBits;
  const bins = new Int32Array(count);
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    bins[i] = Math.round((freqs[i] as number) / warp.pitch);
    const t = options.refinedTimes ? (peaks.times[i] as number) : (frames[i] as number) + options.timeShift;
    times[i] = t * warp.tempo;
  }
  let n = 0;
  for (let i = 0; i < count; i++) {
    const f1 = bins[i] as number;
    if (f1 < minBin || f1 > maxBin) continue;
    const t1 = times[i] as number;
    let paired = 0;
    for (let j = i + 1; j < count && paired < fanOut; j++) {
      if ((frames[j] as number) === (frames[i] as number)) continue;
      const dt = Math.round((times[j] as number) - t1);
      if (dt < minDeltaFrames) continue;
      if (dt > maxDeltaFrames) break;
      const f2 = bins[j] as number;
      if (f2 < minBin || f2 > maxBin) continue;
      const hash = f1 * f1Shift + f2 * f2Shift + (dt - minDeltaFrames);
      paired++;
      if (stored && !stored(hash)) continue;
      hashes[n] = hash;
      offsets[n] = Math.round(t1);
      n++;
    }
  }
  return { count: n, hashes: hashes.subarray(0, n), offsets: offsets.subarray(0, n) };
}

/**
 * A query analysed once per shift (shift 0 first), ready to be hashed under any warp; `extra` are other analyses of
 * shift 0 (late reverberation taken off), fused with them.
 */
export type WarpQuery = {
  shifts: RefinedPeaks[];
  extra: RefinedPeaks[];
  extraInSearch: boolean;
  derived: DerivedParams;
  config: FingerprintConfig;
};

/** Analyse a query clip for warped matching: refined peaks of each shifted analysis (`config.query.shifts`). */
export function prepareWarpQuery(
  samples: Float32Array,
  sampleRate: number,
  config: FingerprintConfig = DEFAULT_PRESET,
  dereverb: WarpSearch["dereverb"] = DEFAULT_WARP_SEARCH.dereverb,
): WarpQuery {
  if (config.pairing.maxDeltaBins !== null) throw new Error("warped matching needs pairing across the whole band");
  const x = toAnalysisRate(samples, sampleRate, config);
  const shifts: RefinedPeaks[] = [];
  const extra: RefinedPeaks[] = [];
  for (let s = 0; s < config.query.shifts; s++) {
    const shift = Math.round((s * config.hopSize) / config.query.shifts);
    const spectrogram = stft(x.subarray(shift), config.sampleRate, config.windowSize, config.hopSize, config.maxFrames);
    shifts.push(refinePeaks(spectrogram, pickPeaks(spectrogram, config)));
    if (s === 0 && dereverb) {
      const dry = suppressLateReverb(spectrogram, dereverb);
      extra.push(refinePeaks(dry, pickPeaks(dry, config)));
    }
  }
  return { shifts, extra, extraInSearch: !!dereverb?.inSearch, derived: deriveParams(config), config };
}

/** Merge hash lists, dropping repeated (hash, offset) pairs. */
function mergeHashes(parts: readonly Hashes[]): Hashes {
  if (parts.length === 1) return parts[0] as Hashes;
  const seen = new Set<number>();
  const hashes: number[] = [];
  const offsets: number[] = [];
  for (const h of parts)
    for (let i = 0; i < h.count; i++) {
      const key = (h.hashes[i] as number) * 1048576 + (h.offsets[i] as number);
      if (seen.has(key)) continue;
      seen.add(key);
      hashes.push(h.hashes[i] as number);
      offsets.push(h.offsets[i] as number);
    }
  return { count: hashes.length, hashes: Int32Array.from(hashes), offsets: Int32Array.from(offsets) };
}

/**
 * Search hashes: the first analysis only, refined times, under each warp of a coarse grid. `distinct` is every hash
 * value over all warps, for one database lookup.
 */
export function searchHashes(query: WarpQuery, warps: readonly Warp[]): { warps: Hashes[]; distinct: number[] } {
  const first = query.shifts[0] as RefinedPeaks;
  const all = warps.map((w) => {
    const plain = warpedHashes(first, w, query.config, query.derived);
    if (!query.extraInSearch || query.extra.length === 0) return plain;
    return mergeHashes([plain, ...query.extra.map((p) => warpedHashes(p, w, query.config, query.derived))]);
  });
  const set = new Set<number>();
  for (const h of all) for (let i = 0; i < h.count; i++) set.add(h.hashes[i] as number);
  return { warps: all, distinct: [...set] };
}

/**
 * Verification hashes under one warp: every shifted analysis, on whole frames plus the shift, merged. With `stored`,
 * only hashes it says are stored: the others cannot line up, and leaving them out early spares merging and matching
 * them (decision 029).
 */
export function verifyHashes(
  query: WarpQuery,
  warp: Warp,
  fanOut?: number,
  stored?: (hash: number) => boolean,
): Hashes {
  const n = query.shifts.length;
  const opts = (timeShift: number) => ({
    refinedTimes: false,
    timeShift,
    ...(fanOut ? { fanOut } : {}),
    ...(stored ? { stored } : {}),
  });
  return mergeHashes([
    ...query.shifts.map((p, s) => warpedHashes(p, warp, query.config, query.derived, opts(s / n))),
    ...query.extra.map((p) => warpedHashes(p, warp, query.config, query.derived, opts(0))),
  ]);
}

/** A candidate found through a warp. */
export type WarpedCandidate = Candidate & { warp: Warp };

/** The outcome of a warped search: candidates over all warps (best warp per song), and the decision. */
export type WarpedMatchResult = {
  candidates: WarpedCandidate[];
  match: WarpedCandidate | null;
  /** Songs verified. */
  verified: number;
};

/**
 * Match hashes under each warp and keep, per song, its best warp, ranked by aligned count. A song among the best
 * `limit` over all warps is among the best `limit` of its own best warp (every song ranked above it there would rank
 * above it overall), so each warp only ranks its best `limit` songs (twice that, for ties). Ranking the warps in
 * parts and merging the parts with `mergeRanked` gives the same list (the parts can run on separate threads).
 */
export function rankWarps(
  warps: readonly Warp[],
  hashesPerWarp: readonly Hashes[],
  lookup: Lookup,
  config: FingerprintConfig,
  limit: number,
): WarpedCandidate[] {
  const bySong = new Map<string, WarpedCandidate>();
  const wide = { ...config, match: { ...config.match, maxCandidates: 2 * limit } };
  for (const [k, warp] of warps.entries()) {
    for (const c of match(hashesPerWarp[k] as Hashes, lookup, wide).candidates) {
      const prev = bySong.get(c.songId);
      if (!prev || c.aligned > prev.aligned) bySong.set(c.songId, { ...c, warp });
    }
  }
  return sortRanked([...bySong.values()]);
}

const sortRanked = (list: WarpedCandidate[]) =>
  list.sort((a, b) => b.aligned - a.aligned || b.hits - a.hits || (a.songId < b.songId ? -1 : 1));

/** Merge `rankWarps` lists of consecutive parts of one warp list, in order: each song keeps its best warp. */
export function mergeRanked(parts: readonly (readonly WarpedCandidate[])[]): WarpedCandidate[] {
  const bySong = new Map<string, WarpedCandidate>();
  for (const part of parts)
    for (const c of part) {
      const prev = bySong.get(c.songId);
      // Strictly better only: on a tie the earlier warp stays, as in one pass over the whole list.
      if (!prev || c.aligned > prev.aligned) bySong.set(c.songId, c);
    }
  return sortRanked([...bySong.values()]);
}

/** Split a list into `n` consecutive parts of near-equal length (fewer when the list is short). */
export function splitParts<T>(list: readonly T[], n: number): T[][] {
  const parts: T[][] = [];
  const size = Math.ceil(list.length / Math.max(1, n));
  for (let i = 0; i < list.length; i += size) parts.push(list.slice(i, i + size));
  return parts;
}

/** The finer warps tried around a coarse one, on its own line (speed, pitch or tempo). */
export function refineAround(w: Warp, search: WarpSearch = DEFAULT_WARP_SEARCH): Warp[] {
  const kind = warpKind(w);
  const out: Warp[] = [];
  const steps = search.refineSteps;
  for (let k = -steps; k <= steps; k++) {
    const f = (1 + search.step) ** (k / steps);
    if (kind === "none") {
      out.push({ tempo: f, pitch: f }, { tempo: 1, pitch: f }, { tempo: f, pitch: 1 });
    } else if (kind === "pitch") out.push({ tempo: 1, pitch: w.pitch * f });
    else if (kind === "tempo") out.push({ tempo: w.tempo * f, pitch: 1 });
    else out.push({ tempo: w.tempo * f, pitch: w.pitch * f });
  }
  return out;
}

/** Rows of a few songs (all their hashes), for verification. */
export type SongRows = Iterable<{ hash: number; songId: string; offset: number }>;

/**
 * Stage one of warped matching: rank songs by their best coarse-warp alignment and return the few worth verifying
 * (Panako's "candidate, then verify" shape, on the plain index).
 */
export function warpCandidates(
  query: WarpQuery,
  warps: readonly Warp[],
  lookup: Lookup,
  hashesPerWarp: readonly Hashes[] = searchHashes(query, warps).warps,
  search: WarpSearch = DEFAULT_WARP_SEARCH,
): WarpedCandidate[] {
  return rankWarps(warps, hashesPerWarp, lookup, query.config, search.candidates).slice(0, search.candidates);
}

/** The finer warps verification tries: around each candidate's coarse warp, without repeats, candidates in order. */
export function verifyWarps(candidates: readonly WarpedCandidate[], search: WarpSearch = DEFAULT_WARP_SEARCH): Warp[] {
  const warps: Warp[] = [];
  const keys = new Set<string>();
  for (const c of candidates)
    for (const w of refineAround(c.warp, search)) {
      const key = `${w.tempo.toFixed(5)}:${w.pitch.toFixed(5)}`;
      if (!keys.has(key)) {
        keys.add(key);
        warps.push(w);
      }
    }
  return warps;
}

/** Verification of some of `verifyWarps`: every shifted analysis under each, against the candidates' rows. */
export function verifyRank(
  query: WarpQuery,
  warps: readonly Warp[],
  lookup: Lookup,
  search: WarpSearch = DEFAULT_WARP_SEARCH,
): WarpedCandidate[] {
  const stored = (h: number) => lookup(h).length > 0;
  const hashes = warps.map((w) => verifyHashes(query, w, search.verifyFanOut ?? undefined, stored));
  return rankWarps(warps, hashes, lookup, query.config, query.config.match.maxCandidates);
}

/** The verdict on verified songs (`verifyRank`, merged when it ran in parts), by `warpDecision`. */
export function decideWarped(
  ranked: readonly WarpedCandidate[],
  config: FingerprintConfig,
  search: WarpSearch = DEFAULT_WARP_SEARCH,
): Omit<WarpedMatchResult, "verified"> {
  const top = ranked.slice(0, config.match.maxCandidates);
  const decided = decide(top, warpDecision(config, search));
  const out = decided.candidates.map((c, i) => ({ ...c, warp: (top[i] as WarpedCandidate).warp }));
  return { candidates: out, match: decided.match ? (out[0] as WarpedCandidate) : null };
}

/**
 * Stage two: align every shifted analysis under finer warps around each candidate's coarse warp, against the
 * candidates' own rows only, and decide with `warpDecision`.
 */
export function verifyCandidates(
  query: WarpQuery,
  candidates: readonly WarpedCandidate[],
  rows: SongRows,
  search: WarpSearch = DEFAULT_WARP_SEARCH,
): WarpedMatchResult {
  const ranked = verifyRank(query, verifyWarps(candidates, search), lookupFromRows(rows), search);
  return { ...decideWarped(ranked, query.config, search), verified: candidates.length };
}

/** The decision rule of warped matching: a higher floor than the plain rule (many warps, many chances). */
export function warpDecision(config: FingerprintConfig, search: WarpSearch = DEFAULT_WARP_SEARCH): FingerprintConfig {
  return {
    ...config,
    match: {
      ...config.match,
      minAligned: search.minAligned,
      minMargin: search.minMargin,
      minMarginRatio: search.minMarginRatio,
    },
  };
}

/**
 * Both stages against an in-memory index (tests, the benchmark): coarse search over the rarest hashes within the row
 * budget, then verification of the best songs with their rows.
 */
export function matchWarped(
  query: WarpQuery,
  index: { lookup: Lookup; songRows: (ids: readonly string[]) => SongRows },
  search: WarpSearch = DEFAULT_WARP_SEARCH,
): WarpedMatchResult {
  const grid = warpGrid(search);
  const searched = searchHashes(query, grid);
  const lookup = rarestLookup(index.lookup, searched.distinct, search.rowBudget, query.config.index.maxPostingsPerHash);
  const candidates = warpCandidates(query, grid, lookup, searched.warps, search);
  return verifyCandidates(query, candidates, index.songRows(candidates.map((c) => c.songId)), search);
}

/** A tempo read from a plain match: the factor and the hashes that agree with it and with no stretch at all. */
export type TempoEstimate = { tempo: number; offsetFrames: number; aligned: number; alignedAtOne: number };

/**
 * A time-stretched clip (pitch kept) still matches on the plain pass, because its hashes keep their bins and most
 * frame deltas, but its offsets drift: song offset = start + query offset x tempo. This reads the tempo from the
 * matched song's hashes with a Hough vote over tempi in `range` (0.25% apart), in memory, without another lookup.
 */
export function estimateTempo(
  query: Hashes,
  lookup: Lookup,
  songId: string,
  config: FingerprintConfig,
  range = DEFAULT_WARP_SEARCH.tempo,
): TempoEstimate {
  const qs: number[] = [];
  const ss: number[] = [];
  for (let i = 0; i < query.count; i++) {
    for (const p of lookup(query.hashes[i] as number)) {
      if (p.songId !== songId) continue;
      qs.push(query.offsets[i] as number);
      ss.push(p.offset);
    }
  }
  const { toleranceFrames } = deriveParams(config);
  const vote = (tempo: number) => {
    const bins = new Map<number, number>();
    for (let i = 0; i < qs.length; i++) {
      const b = Math.round(((ss[i] as number) - (qs[i] as number) * tempo) / (toleranceFrames + 1));
      bins.set(b, (bins.get(b) ?? 0) + 1);
    }
    let best = 0;
    let at = 0;
    for (const [b, n] of bins) {
      // A window of two neighbouring bins, so an alignment on a bin edge is not split.
      const n2 = n + (bins.get(b + 1) ?? 0);
      if (n2 > best) {
        best = n2;
        at = b;
      }
    }
    return { aligned: best, offsetFrames: (at + 0.5) * (toleranceFrames + 1) };
  };
  const one = vote(1);
  let best = { tempo: 1, ...one };
  const step = 0.0025;
  for (let k = Math.round(-range / step); k <= Math.round(range / step); k++) {
    const tempo = 1 + k * step;
    const v = vote(tempo);
    if (v.aligned > best.aligned) best = { tempo, ...v };
  }
  return { tempo: best.tempo, offsetFrames: best.offsetFrames, aligned: best.aligned, alignedAtOne: one.aligned };
}

/** Whether a tempo estimate is clearly better than no stretch: a quarter more agreeing hashes, and off 1 by 0.5%+. */
export const isStretched = (e: TempoEstimate): boolean =>
  Math.abs(e.tempo - 1) >= 0.005 && e.aligned >= 1.25 * e.alignedAtOne;

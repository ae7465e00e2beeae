/**
 * Matching invariant triplets (invariant.ts): every query triplet that shares a key with a stored one proposes a
 * time factor (ratio of the time spans), a pitch shift (difference of f1) and, with them, where in the song the clip
 * starts. The right song piles its proposals at one (factor, shift, offset); unrelated songs scatter theirs.
 */
import { INVARIANT_ENTRY_BYTES, packInvariantEntry, type Triplets } from "./invariant.js";

/** Stored entries for one key: packed values (`PackedEntry` layout), `count` of them. */
export type InvariantPostings = { count: number; hi: ArrayLike<number>; lo: ArrayLike<number> };

/** Stored entries by key, e.g. from `InvariantIndex` or rows read from a store. */
export type InvariantLookup = (key: number) => InvariantPostings;

/** Rules of the matcher. */
export type InvariantMatchConfig = {
  /** Time factors searched: clip tempo relative to the song (1.2 = sped up 20%). */
  minTimeFactor: number;
  maxTimeFactor: number;
  /** Pitch shifts searched, either way (semitones); a resampled +20% is +3.2 on top of any pitch shift. */
  maxPitchSemitones: number;
  /** First vote: cells of this width in log time factor and in semitones. */
  timeCell: number;
  pitchCell: number;
  /** Proposals within this of the vote's winner (log time factor, semitones) go on to the offset search. */
  timeTolerance: number;
  pitchTolerance: number;
  /** Offsets agree within this (seconds). */
  offsetTolerance: number;
  /** A match needs this many aligned query triplets... */
  minScore: number;
  /** ...this many more than the runner-up song... */
  minMargin: number;
  /** ...and this many times its count. */
  minMarginRatio: number;
  /** Candidates returned. */
  maxCandidates: number;
};

/** Defaults: +-25% time factor (so +-20% is well inside), +-6 semitones (a resampled +-20% plus +-2 semitones). */
export const INVARIANT_MATCH: InvariantMatchConfig = {
  minTimeFactor: 0.77,
  maxTimeFactor: 1.3,
  maxPitchSemitones: 6,
  timeCell: 0.01,
  pitchCell: 0.2,
  timeTolerance: 0.04,
  pitchTolerance: 0.3,
  offsetTolerance: 0.04,
  minScore: 10,
  minMargin: 5,
  minMarginRatio: 2,
  maxCandidates: 5,
};

/** A candidate song with the transform that best explains the clip. */
export type InvariantCandidate = {
  /** The song's number in the index (or store), and its id when known. */
  song: number;
  songId: string;
  /** Query triplets aligned on one (time factor, pitch, offset). */
  score: number;
  /** Query triplets proposing this song at all. */
  hits: number;
  /** Where in the song the clip starts (seconds). */
  offsetSeconds: number;
  /** Clip tempo relative to the song: 1.2 = sped up 20% (a stored span is the clip's span times this). */
  timeFactor: number;
  /** Clip pitch relative to the song (semitones); a resampled x1.2 clip reads +3.16. */
  pitchSemitones: number;
};

/** The outcome of a match. */
export type InvariantMatchResult = {
  match: InvariantCandidate | null;
  candidates: InvariantCandidate[];
  /** Distinct keys looked up, and (query triplet, stored entry) pairs within the searched factors. */
  lookups: number;
  pairs: number;
};

/** Proposals of one song, as parallel arrays. */
type Proposals = { q: number[]; qt: number[]; rt: number[]; lt: number[]; p: number[] };

/**
 * Match a clip's triplets against stored ones. Per song: a vote over (log time factor, pitch) cells, then among the
 * proposals near the winner a fine search over time factors for the densest offset, then a least-squares fit of
 * song time against clip time on the aligned proposals (its slope is the time factor), pitch their median.
 */
export function matchInvariant(
  query: Triplets,
  lookup: InvariantLookup,
  songIds: readonly string[] = [],
  rules: InvariantMatchConfig = INVARIANT_MATCH,
): InvariantMatchResult {
  const minLt = Math.log(rules.minTimeFactor);
  const maxLt = Math.log(rules.maxTimeFactor);
  const bySong = new Map<number, Proposals>();
  const seenKeys = new Map<number, InvariantPostings>();
  let pairs = 0;
  for (let i = 0; i < query.count; i++) {
    const key = query.keys[i] as number;
    let postings = seenKeys.get(key);
    if (!postings) {
      postings = lookup(key);
      seenKeys.set(key, postings);
    }
    const qt = query.times[i] as number;
    const qf = query.pitches[i] as number;
    const qs = query.spans[i] as number;
    for (let k = 0; k < postings.count; k++) {
      // unpackInvariantEntry's fields, read in place: this loop runs once per row read.
      const hi = postings.hi[k] as number;
      const lo = postings.lo[k] as number;
      const p = qf - (Math.floor(lo / 2048) % 2048) / 16;
      if (Math.abs(p) > rules.maxPitchSemitones) continue;
      const lt = Math.log((lo % 2048) / 1000 / qs);
      if (!(lt >= minLt && lt <= maxLt)) continue;
      const song = Math.floor(hi / 4096);
      let s = bySong.get(song);
      if (!s) {
        s = { q: [], qt: [], rt: [], lt: [], p: [] };
        bySong.set(song, s);
      }
      s.q.push(query.ids[i] as number);
      s.qt.push(qt);
      s.rt.push(((hi % 4096) * 1024 + Math.floor(lo / 2 ** 22)) / 100);
      s.lt.push(lt);
      s.p.push(p);
      pairs++;
    }
  }
  // Songs with the most proposals first; a song's score never exceeds its distinct proposing triplets.
  const songs = [...bySong.entries()]
    .map(([song, s]) => ({ song, s, hits: distinct(s.q) }))
    .sort((a, b) => b.hits - a.hits || a.song - b.song);
  const top: InvariantCandidate[] = [];
  for (const { song, s, hits } of songs) {
    const last = top[rules.maxCandidates - 1];
    if (last && hits <= last.score) break;
    // Aligned proposals agree within +-pitchTolerance and +-timeTolerance: a cheap bound on the score that skips
    // the many songs of a large catalogue sharing a few keys with the clip by chance.
    if (last && scoreBound(s, rules) <= last.score) continue;
    const c = alignSong(s, rules, last?.score ?? -1);
    if (!c) continue;
    top.push({ song, songId: songIds[song] ?? String(song), hits, ...c });
    top.sort((a, b) => b.score - a.score || b.hits - a.hits || a.song - b.song);
    if (top.length > rules.maxCandidates) top.pop();
  }
  const best = top[0];
  const runnerUp = top[1]?.score ?? 0;
  const ok =
    best !== undefined &&
    best.score >= rules.minScore &&
    best.score - runnerUp >= rules.minMargin &&
    best.score >= rules.minMarginRatio * runnerUp;
  return { match: ok ? (best ?? null) : null, candidates: top, lookups: seenKeys.size, pairs };
}

/**
 * The best (time factor, pitch, offset) of one song's proposals, and how many query triplets it aligns; null when
 * it cannot align more than `floor` (the score is at most the distinct triplets near the vote's winner), which
 * spares the offset search on the many songs of a large catalogue that share a few keys with the clip by chance.
 */
function alignSong(
  s: Proposals,
  rules: InvariantMatchConfig,
  floor: number,
): { score: number; offsetSeconds: number; timeFactor: number; pitchSemitones: number } | null {
  const n = s.q.length;
  // 1. Vote: each proposal counts in the cells around its own (time factor, pitch), so a cluster cut by a cell
  // boundary still wins as a whole.
  const tw = Math.max(1, Math.round(rules.timeTolerance / rules.timeCell / 2));
  const pw = Math.max(1, Math.round(rules.pitchTolerance / rules.pitchCell / 2));
  const votes = new Map<number, number>();
  const cellOf = (ti: number, pi: number) => (ti + 512) * 1024 + (pi + 512);
  let bestCell = 0;
  let bestVotes = 0;
  for (let i = 0; i < n; i++) {
    const ti = Math.round((s.lt[i] as number) / rules.timeCell);
    const pi = Math.round((s.p[i] as number) / rules.pitchCell);
    for (let a = -tw; a <= tw; a++) {
      for (let b = -pw; b <= pw; b++) {
        const c = cellOf(ti + a, pi + b);
        const v = (votes.get(c) ?? 0) + 1;
        votes.set(c, v);
        if (v > bestVotes || (v === bestVotes && c < bestCell)) {
          bestVotes = v;
          bestCell = c;
        }
      }
    }
  }
  const lt0 = (Math.floor(bestCell / 1024) - 512) * rules.timeCell;
  const p0 = ((bestCell % 1024) - 512) * rules.pitchCell;
  const near: number[] = [];
  for (let i = 0; i < n; i++) {
    if (
      Math.abs((s.lt[i] as number) - lt0) <= rules.timeTolerance &&
      Math.abs((s.p[i] as number) - p0) <= rules.pitchTolerance
    )
      near.push(i);
  }
  if (near.length === 0 || near.length <= floor || new Set(near.map((i) => s.q[i])).size <= floor) return null;
  // 2. Offsets (song time at the clip's start) under fine time factors around the vote's: a factor 0.2% off moves
  // the offset of a triplet 10 s into the clip by 20 ms, within the tolerance.
  let best = { count: 0, factor: Math.exp(lt0), offset: 0 };
  const offsets = new Float64Array(near.length);
  const order = new Int32Array(near.length);
  for (let step = -Math.ceil(rules.timeTolerance / 0.002); step <= Math.ceil(rules.timeTolerance / 0.002); step++) {
    const factor = Math.exp(lt0 + step * 0.002);
    for (let k = 0; k < near.length; k++) {
      const i = near[k] as number;
      offsets[k] = (s.rt[i] as number) - factor * (s.qt[i] as number);
      order[k] = k;
    }
    order.sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
    const { count, at } = densest(order, offsets, near, s.q, rules.offsetTolerance);
    if (count > best.count) best = { count, factor, offset: at };
  }
  // 3. Least squares on the aligned proposals, twice (the second with the refined line).
  let { factor, offset } = best;
  let aligned: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    aligned = near.filter(
      (i) => Math.abs((s.rt[i] as number) - offset - factor * (s.qt[i] as number)) <= rules.offsetTolerance,
    );
    const fit = lineFit(
      aligned.map((i) => s.qt[i] as number),
      aligned.map((i) => s.rt[i] as number),
    );
    if (fit && fit.slope > 0) {
      factor = fit.slope;
      offset = fit.intercept;
    }
  }
  aligned = near.filter(
    (i) => Math.abs((s.rt[i] as number) - offset - factor * (s.qt[i] as number)) <= rules.offsetTolerance,
  );
  const score = new Set(aligned.map((i) => s.q[i] as number)).size;
  const pitch = median(aligned.map((i) => s.p[i] as number));
  return { score, offsetSeconds: offset, timeFactor: factor, pitchSemitones: pitch };
}

/**
 * At most how many distinct query triplets `alignSong` can align: the most in any box of 2 * pitchTolerance by
 * 2 * timeTolerance over (pitch, log time factor), every corner tried for a few proposals, else the most within
 * 2 * pitchTolerance of pitch alone.
 */
function scoreBound(s: Proposals, rules: InvariantMatchConfig): number {
  const n = s.q.length;
  const pw = 2 * rules.pitchTolerance;
  if (n > 24) return windowBound(s.p, s.q, pw);
  const tw = 2 * rules.timeTolerance;
  let best = 0;
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const p0 = s.p[i] as number;
    for (let k = 0; k < n; k++) {
      const t0 = s.lt[k] as number;
      seen.clear();
      for (let j = 0; j < n; j++) {
        const p = s.p[j] as number;
        const t = s.lt[j] as number;
        if (p >= p0 && p <= p0 + pw && t >= t0 && t <= t0 + tw) seen.add(s.q[j] as number);
      }
      if (seen.size > best) best = seen.size;
    }
  }
  return best;
}

/** Distinct values of a list: counted in one pass when it is sorted (a query's ids are, in order), else a Set. */
function distinct(q: readonly number[]): number {
  let n = q.length > 0 ? 1 : 0;
  for (let i = 1; i < q.length; i++) {
    const d = (q[i] as number) - (q[i - 1] as number);
    if (d < 0) return new Set(q).size;
    if (d > 0) n++;
  }
  return n;
}

/** The most distinct query triplets (`q`) among proposals whose `values` lie within `width` of each other. */
function windowBound(values: readonly number[], q: readonly number[], width: number): number {
  const order = values.map((_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const inWindow = new Map<number, number>();
  let lo = 0;
  let count = 0;
  let best = 0;
  for (const i of order) {
    while ((values[i] as number) - (values[order[lo] as number] as number) > width) {
      const t = q[order[lo] as number] as number;
      const c = (inWindow.get(t) as number) - 1;
      inWindow.set(t, c);
      if (c === 0) count--;
      lo++;
    }
    const t = q[i] as number;
    const c = (inWindow.get(t) ?? 0) + 1;
    inWindow.set(t, c);
    if (c === 1) count++;
    if (count > best) best = count;
  }
  return best;
}

/** Densest window of sorted offsets no wider than `width`, counting each query triplet once; its mean offset. */
function densest(
  order: Int32Array,
  offsets: Float64Array,
  near: readonly number[],
  q: readonly number[],
  width: number,
): { count: number; at: number } {
  const inWindow = new Map<number, number>();
  let lo = 0;
  let count = 0;
  let best = 0;
  let bestLo = 0;
  let bestHi = 0;
  for (let hi = 0; hi < order.length; hi++) {
    const oh = offsets[order[hi] as number] as number;
    while (oh - (offsets[order[lo] as number] as number) > width) {
      const t = q[near[order[lo] as number] as number] as number;
      const c = (inWindow.get(t) as number) - 1;
      inWindow.set(t, c);
      if (c === 0) count--;
      lo++;
    }
    const t = q[near[order[hi] as number] as number] as number;
    const c = (inWindow.get(t) ?? 0) + 1;
    inWindow.set(t, c);
    if (c === 1) count++;
    if (count > best) {
      best = count;
      bestLo = lo;
      bestHi = hi;
    }
  }
  let sum = 0;
  for (let k = bestLo; k <= bestHi; k++) sum += offsets[order[k] as number] as number;
  return { count: best, at: best > 0 ? sum / (bestHi - bestLo + 1) : 0 };
}

/** Ordinary least squares y = intercept + slope x; null when x has no spread. */
function lineFit(x: readonly number[], y: readonly number[]): { slope: number; intercept: number } | null {
  const n = x.length;
  if (n < 3) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    sxx += dx * dx;
    sxy += dx * ((y[i] as number) - my);
  }
  // Under a second of spread the slope says less than the vote did.
  if (sxx < n * 0.25) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

function median(v: number[]): number {
  if (v.length === 0) return 0;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/**
 * An in-memory store of invariant entries for tests and the benchmark: entries are kept packed exactly as a store
 * would keep them (`INVARIANT_ENTRY_BYTES` each), sorted by key on the first lookup after additions.
 */
export class InvariantIndex {
  readonly songIds: string[] = [];
  private pending: { keys: Int32Array; hi: Uint32Array; lo: Uint32Array }[] = [];
  private keys = new Int32Array(0);
  private hi = new Uint32Array(0);
  private lo = new Uint32Array(0);

  /** Store a song's triplets; returns its number. */
  add(songId: string, t: Triplets): number {
    const song = this.songIds.length;
    this.songIds.push(songId);
    const hi = new Uint32Array(t.count);
    const lo = new Uint32Array(t.count);
    for (let i = 0; i < t.count; i++) {
      const e = packInvariantEntry(song, t, i);
      hi[i] = e.hi;
      lo[i] = e.lo;
    }
    this.pending.push({ keys: t.keys.slice(0, t.count), hi, lo });
    return song;
  }

  /** Entries stored, and distinct keys among them. */
  stats(): { entries: number; distinctKeys: number; bytes: number } {
    this.build();
    let distinct = 0;
    for (let i = 0; i < this.keys.length; i++) if (i === 0 || this.keys[i] !== this.keys[i - 1]) distinct++;
    return { entries: this.keys.length, distinctKeys: distinct, bytes: this.keys.length * INVARIANT_ENTRY_BYTES };
  }

  /** Entries stored under a key. */
  readonly lookup: InvariantLookup = (key) => {
    this.build();
    const ks = this.keys;
    let a = 0;
    let b = ks.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((ks[mid] as number) < key) a = mid + 1;
      else b = mid;
    }
    let end = a;
    while (end < ks.length && ks[end] === key) end++;
    return { count: end - a, hi: this.hi.subarray(a, end), lo: this.lo.subarray(a, end) };
  };

  private build(): void {
    if (this.pending.length === 0) return;
    const parts = [{ keys: this.keys, hi: this.hi, lo: this.lo }, ...this.pending];
    this.pending = [];
    const total = parts.reduce((n, p) => n + p.keys.length, 0);
    const keys = new Int32Array(total);
    const hi = new Uint32Array(total);
    const lo = new Uint32Array(total);
    let o = 0;
    for (const p of parts) {
      keys.set(p.keys, o);
      hi.set(p.hi, o);
      lo.set(p.lo, o);
      o += p.keys.length;
    }
    const order = Uint32Array.from({ length: total }, (_, i) => i).sort(
      (a, b) => (keys[a] as number) - (keys[b] as number) || a - b,
    );
    this.keys = Int32Array.from(order, (i) => keys[i] as number);
    this.hi = Uint32Array.from(order, (i) => hi[i] as number);
    this.lo = Uint32Array.from(order, (i) => lo[i] as number);
  }
}

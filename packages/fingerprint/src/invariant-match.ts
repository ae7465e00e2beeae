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
  // Proposals are gathered into flat arrays, each song's chained in arrival order, and only the songs that may
  // make the candidates are turned into lists (a list per song was most of the cost on a 1,000 h catalogue, where
  // 17,000 songs share a few keys with a clip by chance).
  const g = gatherArrays();
  const slots = songSlots();
  const songs: { song: number; head: number; tail: number; hits: number; lastQ: number }[] = [];
  const seenKeys = new Map<number, InvariantPostings>();
  let m = 0;
  try {
    for (let i = 0; i < query.count; i++) {
      const key = query.keys[i] as number;
      let postings = seenKeys.get(key);
      if (!postings) {
        postings = lookup(key);
        seenKeys.set(key, postings);
      }
      const qid = query.ids[i] as number;
      const qt = query.times[i] as number;
      const qf = query.pitches[i] as number;
      const logQs = Math.log(query.spans[i] as number);
      for (let k = 0; k < postings.count; k++) {
        // unpackInvariantEntry's fields, read in place: this loop runs once per row read.
        const hi = postings.hi[k] as number;
        const lo = postings.lo[k] as number;
        const p = qf - (Math.floor(lo / 2048) % 2048) / 16;
        if (Math.abs(p) > rules.maxPitchSemitones) continue;
        // ln(stored span / clip span), the stored span's log from a table (its 2,048 values in ms).
        const lt = (LOG_SPAN[lo % 2048] as number) - logQs;
        if (!(lt >= minLt && lt <= maxLt)) continue;
        const song = Math.floor(hi / 4096);
        if (m === g.q.length) grow(g);
        let local = (slots[song] as number) - 1;
        if (local < 0) {
          local = songs.length;
          slots[song] = local + 1;
          songs.push({ song, head: m, tail: m, hits: 0, lastQ: -1 });
        } else {
          const entry = songs[local] as (typeof songs)[number];
          g.next[entry.tail] = m;
          entry.tail = m;
        }
        const entry = songs[local] as (typeof songs)[number];
        // Distinct proposing triplets, counted as they come (a query's ids arrive in order; out of order this only
        // over-counts, and the exact count is taken below for the songs that are kept).
        if (qid !== entry.lastQ) {
          entry.hits++;
          entry.lastQ = qid;
        }
        g.next[m] = -1;
        g.q[m] = qid;
        g.qt[m] = qt;
        g.rt[m] = ((hi % 4096) * 1024 + Math.floor(lo / 2 ** 22)) / 100;
        g.lt[m] = lt;
        g.p[m] = p;
        m++;
      }
    }
  } finally {
    // Left all zero for the next clip, whatever happened.
    for (const e of songs) slots[e.song] = 0;
  }
  const pairs = m;
  /** A song's proposals as lists, in arrival order. */
  const proposalsOf = (e: (typeof songs)[number]): Proposals => {
    const s: Proposals = { q: [], qt: [], rt: [], lt: [], p: [] };
    for (let j = e.head; j !== -1; j = g.next[j] as number) {
      s.q.push(g.q[j] as number);
      s.qt.push(g.qt[j] as number);
      s.rt.push(g.rt[j] as number);
      s.lt.push(g.lt[j] as number);
      s.p.push(g.p[j] as number);
    }
    return s;
  };
  // Songs with the most proposing triplets first; a song's score never exceeds them.
  songs.sort((a, b) => b.hits - a.hits || a.song - b.song);
  const top: InvariantCandidate[] = [];
  for (const e of songs) {
    const last = top[rules.maxCandidates - 1];
    if (last && e.hits <= last.score) break;
    const s = proposalsOf(e);
    const hits = distinct(s.q);
    if (last && hits <= last.score) continue;
    // Aligned proposals agree within +-pitchTolerance and +-timeTolerance: a cheap bound on the score that skips
    // the many songs of a large catalogue sharing a few keys with the clip by chance.
    if (last && scoreBound(s, rules) <= last.score) continue;
    const c = alignSong(s, rules, last?.score ?? -1);
    if (!c) continue;
    top.push({ song: e.song, songId: songIds[e.song] ?? String(e.song), hits, ...c });
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
  // A histogram over (time cell, pitch cell) in a typed array reused across songs (the cells a song touched are
  // cleared after it): a Map here was most of the matcher's time at 100 h (bench:invariant's profile).
  const grid = voteGrid(rules, tw, pw);
  const { counts, touched, tOff, pOff, pSpan } = grid;
  let nTouched = 0;
  let bestCell = 0;
  let bestVotes = 0;
  for (let i = 0; i < n; i++) {
    const ti = Math.round((s.lt[i] as number) / rules.timeCell) + tOff;
    const pi = Math.round((s.p[i] as number) / rules.pitchCell) + pOff;
    for (let a = -tw; a <= tw; a++) {
      const row = (ti + a) * pSpan;
      for (let b = -pw; b <= pw; b++) {
        const c = row + pi + b;
        const v = (counts[c] as number) + 1;
        counts[c] = v;
        if (v === 1) touched[nTouched++] = c;
        // Ties go to the lowest (time, pitch) cell, as the order of the cells' codes.
        if (v > bestVotes || (v === bestVotes && c < bestCell)) {
          bestVotes = v;
          bestCell = c;
        }
      }
    }
  }
  for (let k = 0; k < nTouched; k++) counts[touched[k] as number] = 0;
  const lt0 = (Math.floor(bestCell / pSpan) - tOff) * rules.timeCell;
  const p0 = ((bestCell % pSpan) - pOff) * rules.pitchCell;
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
  // Offsets are sorted as numbers (a typed array's native sort) carrying their index in the low bits: a comparator
  // sort was the next largest cost after the vote. 1 us steps; past 2^17 proposals, the comparator.
  const packed = near.length <= ORDER_BASE ? new Float64Array(near.length) : null;
  let maxQ = 0;
  for (const i of near) maxQ = Math.max(maxQ, s.q[i] as number);
  const seen = zeroedCounts(maxQ + 1);
  for (let step = -Math.ceil(rules.timeTolerance / 0.002); step <= Math.ceil(rules.timeTolerance / 0.002); step++) {
    const factor = Math.exp(lt0 + step * 0.002);
    for (let k = 0; k < near.length; k++) {
      const i = near[k] as number;
      const o = (s.rt[i] as number) - factor * (s.qt[i] as number);
      offsets[k] = o;
      order[k] = k;
      if (packed) packed[k] = Math.round((o + OFFSET_BIAS) * 1e6) * ORDER_BASE + k;
    }
    if (packed) {
      packed.sort();
      for (let k = 0; k < near.length; k++) order[k] = (packed[k] as number) % ORDER_BASE;
    } else order.sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
    const { count, at } = densest(order, offsets, near, s.q, rules.offsetTolerance, seen);
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

/** Flat proposal arrays, reused across clips (matching runs one clip at a time on a thread), grown as needed. */
type Gathered = {
  next: Int32Array;
  q: Int32Array;
  qt: Float64Array;
  rt: Float64Array;
  lt: Float64Array;
  p: Float64Array;
};
let gathered: Gathered | undefined;
function gatherArrays(): Gathered {
  gathered ??= {
    next: new Int32Array(1 << 16),
    q: new Int32Array(1 << 16),
    qt: new Float64Array(1 << 16),
    rt: new Float64Array(1 << 16),
    lt: new Float64Array(1 << 16),
    p: new Float64Array(1 << 16),
  };
  return gathered;
}
/** Double the arrays, keeping what they hold. */
function grow(g: Gathered): void {
  const n = g.q.length * 2;
  const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
    const b = make(n);
    b.set(a);
    return b;
  };
  g.next = more(g.next, (k) => new Int32Array(k));
  g.q = more(g.q, (k) => new Int32Array(k));
  g.qt = more(g.qt, (k) => new Float64Array(k));
  g.rt = more(g.rt, (k) => new Float64Array(k));
  g.lt = more(g.lt, (k) => new Float64Array(k));
  g.p = more(g.p, (k) => new Float64Array(k));
}
let slotTable: Int32Array | undefined;
/** Song number -> its index among a clip's songs + 1 (0: none yet); every entry set is reset after a clip. */
function songSlots(): Int32Array {
  slotTable ??= new Int32Array(2 ** 20);
  return slotTable;
}

/** ln(ms / 1000) for every stored span (11 bits of ms); ln 0 is -Infinity, outside every search. */
const LOG_SPAN = Float64Array.from({ length: 2048 }, (_, ms) => Math.log(ms / 1000));

/** Offsets sort with their index in the low bits below this many proposals (2^17)... */
const ORDER_BASE = 2 ** 17;
/** ...after this bias (s), so a clip starting a little before its song's start still sorts as a positive number. */
const OFFSET_BIAS = 1000;

/** Pitches (semitones, within +-maxPitchSemitones) sort as positive numbers after this bias. */
const PITCH_BIAS = 100;

/** The vote's histogram for a matcher's rules: cells for every (time factor, pitch) it searches, with margins. */
type VoteGrid = { counts: Int32Array; touched: Int32Array; tOff: number; pOff: number; pSpan: number; rules: unknown };
let lastGrid: VoteGrid | undefined;

/** The histogram for `rules` (kept for the next song and the next clip: matching runs one clip at a time). */
function voteGrid(rules: InvariantMatchConfig, tw: number, pw: number): VoteGrid {
  if (lastGrid?.rules === rules) return lastGrid;
  const lt = Math.max(Math.abs(Math.log(rules.minTimeFactor)), Math.abs(Math.log(rules.maxTimeFactor)));
  const tOff = Math.ceil(lt / rules.timeCell) + tw + 1;
  const pOff = Math.ceil(rules.maxPitchSemitones / rules.pitchCell) + pw + 1;
  const pSpan = 2 * pOff + 1;
  const cells = (2 * tOff + 1) * pSpan;
  lastGrid = { counts: new Int32Array(cells), touched: new Int32Array(cells), tOff, pOff, pSpan, rules };
  return lastGrid;
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
  // For each pitch corner, the proposals within pw above it, then the densest span of tw over their time factors
  // (the same boxes as trying every corner pair, in n^2 log n rather than n^3).
  const byPitch = Array.from({ length: n }, (_, i) => i).sort((a, b) => (s.p[a] as number) - (s.p[b] as number));
  let best = 0;
  const inBox: number[] = [];
  const seen = new Map<number, number>();
  for (let a = 0; a < n; a++) {
    const p0 = s.p[byPitch[a] as number] as number;
    inBox.length = 0;
    for (let b = a; b < n && (s.p[byPitch[b] as number] as number) <= p0 + pw; b++) inBox.push(byPitch[b] as number);
    if (inBox.length <= best) continue;
    inBox.sort((x, y) => (s.lt[x] as number) - (s.lt[y] as number));
    seen.clear();
    let lo = 0;
    let count = 0;
    for (const j of inBox) {
      while ((s.lt[j] as number) - (s.lt[inBox[lo] as number] as number) > tw) {
        const t = s.q[inBox[lo] as number] as number;
        const c = (seen.get(t) as number) - 1;
        seen.set(t, c);
        if (c === 0) count--;
        lo++;
      }
      const t = s.q[j] as number;
      const c = (seen.get(t) ?? 0) + 1;
      seen.set(t, c);
      if (c === 1) count++;
      if (count > best) best = count;
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
  // Sorted as numbers with the index in the low bits (as alignSong's offsets), distinct ids counted in a typed array.
  const n = values.length;
  let order: ArrayLike<number>;
  if (n <= ORDER_BASE) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = Math.round(((values[i] as number) + PITCH_BIAS) * 1e6) * ORDER_BASE + i;
    packed.sort();
    const o = new Int32Array(n);
    for (let i = 0; i < n; i++) o[i] = (packed[i] as number) % ORDER_BASE;
    order = o;
  } else order = values.map((_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  let maxQ = 0;
  for (let i = 0; i < n; i++) maxQ = Math.max(maxQ, q[i] as number);
  const inWindow = zeroedCounts(maxQ + 1);
  let lo = 0;
  let count = 0;
  let best = 0;
  for (let h = 0; h < n; h++) {
    const i = order[h] as number;
    while ((values[i] as number) - (values[order[lo] as number] as number) > width) {
      const t = q[order[lo] as number] as number;
      const c = (inWindow[t] as number) - 1;
      inWindow[t] = c;
      if (c === 0) count--;
      lo++;
    }
    const t = q[i] as number;
    const c = (inWindow[t] as number) + 1;
    inWindow[t] = c;
    if (c === 1) count++;
    if (count > best) best = count;
  }
  // Left zeroed for the next caller.
  for (let h = lo; h < n; h++) inWindow[q[order[h] as number] as number] = 0;
  return best;
}

let counts = new Int32Array(1024);
/** A shared counter array of at least `size` zeros; callers zero what they set before returning. */
function zeroedCounts(size: number): Int32Array {
  if (counts.length < size) counts = new Int32Array(Math.max(size, 2 * counts.length));
  return counts;
}

/** Densest window of sorted offsets no wider than `width`, counting each query triplet once; its mean offset. */
function densest(
  order: Int32Array,
  offsets: Float64Array,
  near: readonly number[],
  q: readonly number[],
  width: number,
  seen: Int32Array,
): { count: number; at: number } {
  // `seen` counts each query triplet in the window (zero on entry, left zero on return).
  let lo = 0;
  let count = 0;
  let best = 0;
  let bestLo = 0;
  let bestHi = 0;
  for (let hi = 0; hi < order.length; hi++) {
    const oh = offsets[order[hi] as number] as number;
    while (oh - (offsets[order[lo] as number] as number) > width) {
      const t = q[near[order[lo] as number] as number] as number;
      const c = (seen[t] as number) - 1;
      seen[t] = c;
      if (c === 0) count--;
      lo++;
    }
    const t = q[near[order[hi] as number] as number] as number;
    const c = (seen[t] as number) + 1;
    seen[t] = c;
    if (c === 1) count++;
    if (count > best) {
      best = count;
      bestLo = lo;
      bestHi = hi;
    }
  }
  for (let k = lo; k < order.length; k++) seen[q[near[order[k] as number] as number] as number] = 0;
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

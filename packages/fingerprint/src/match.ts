import { deriveParams, type FingerprintConfig } from "./config.js";
import type { Hashes } from "./hashes.js";

/**
 * One stored row for a hash: the song it came from, the anchor frame in that song, and the song's number within the
 * lookup that returned it (dense from 0; the matcher keys its tables by it rather than hashing the id per row).
 */
export type Posting = { songId: string; song: number; offset: number };

/** Rows stored for a hash, ordered by offset (the spec's "ordered by timestamp"). */
export type Lookup = (hash: number) => readonly Posting[];

/** A ranked candidate song for a query. */
export type Candidate = {
  songId: string;
  /** Query hashes whose song offset agrees (within the tolerance) with the most common alignment. */
  aligned: number;
  /** Every query hash found in this song, aligned or not. */
  hits: number;
  /** aligned / query hashes (the spec's confidence ratio). */
  ratio: number;
  /**
   * 0..1, for display. `ratio` scoring: the ratio itself. `aligned` scoring: the share of aligned hashes above the
   * strongest rival's count, damped for small counts: (1 - rival / aligned) * (1 - 2^(-aligned / minAligned)).
   */
  confidence: number;
  /** Where in the song the query starts, in frames of the config and in seconds. */
  offsetFrames: number;
  offsetSeconds: number;
};

/** The outcome of matching one query. */
export type MatchResult = {
  /** Candidates by decreasing aligned count (at most `maxCandidates`). */
  candidates: Candidate[];
  /** The confident match, or null when the rules of the config do not single one out. */
  match: Candidate | null;
  /** Hashes in the query, and distinct hashes looked up. */
  queryHashes: number;
  lookups: number;
};

/** The distinct hash values of a query, e.g. for one `SELECT ... WHERE hash IN (...)` before `lookupFromRows`. */
export function distinctHashValues(query: Hashes): number[] {
  return [...new Set(query.hashes.subarray(0, query.count))];
}

/** Group a query's hashes: hash -> anchor offsets in the query. */
function groupByHash(query: Hashes): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < query.count; i++) {
    const h = query.hashes[i] as number;
    const o = query.offsets[i] as number;
    const list = groups.get(h);
    if (list) list.push(o);
    else groups.set(h, [o]);
  }
  return groups;
}

// A (difference, query hash) pair is packed into one exactly representable number so one numeric sort orders by
// difference, then hash: differences within +-2^24 frames, fewer than 2^24 distinct hashes in a query.
const DELTA_BIAS = 2 ** 24;
const HASH_SLOTS = 2 ** 24;
const deltaOf = (k: number) => Math.floor(k / HASH_SLOTS) - DELTA_BIAS;
const hashOf = (k: number) => k % HASH_SLOTS;

/**
 * The densest window [d, d + width] of offset differences for one song. Counts every matching pair, or with
 * `distinct` each query hash value once, so a sustained chord repeating one hash in both the query and an unrelated
 * song cannot pile many coincidences onto one difference. Returns the count and the most common difference in it.
 */
function densestWindow(
  keys: Float64Array,
  width: number,
  distinct: boolean,
  seen: Int32Array,
): { count: number; at: number } {
  let best = 0;
  let bestLo = 0;
  let bestHi = -1;
  let lo = 0;
  let count = 0;
  for (let hi = 0; hi < keys.length; hi++) {
    const dHi = deltaOf(keys[hi] as number);
    while (dHi - deltaOf(keys[lo] as number) > width) {
      if (distinct) {
        const g = hashOf(keys[lo] as number);
        seen[g] = (seen[g] as number) - 1;
        if (seen[g] === 0) count--;
      } else count--;
      lo++;
    }
    if (distinct) {
      const g = hashOf(keys[hi] as number);
      seen[g] = (seen[g] as number) + 1;
      if (seen[g] === 1) count++;
    } else count++;
    if (count > best) {
      best = count;
      bestLo = lo;
      bestHi = hi;
    }
  }
  if (distinct) for (let i = lo; i < keys.length; i++) seen[hashOf(keys[i] as number)] = 0;
  let mode = bestHi >= 0 ? deltaOf(keys[bestLo] as number) : 0;
  let modeCount = 0;
  let run = 0;
  for (let i = bestLo; i <= bestHi; i++) {
    const d = deltaOf(keys[i] as number);
    run = i > bestLo && d === deltaOf(keys[i - 1] as number) ? run + 1 : 1;
    if (run > modeCount) {
      modeCount = run;
      mode = d;
    }
  }
  return { count: best, at: mode };
}

/** Ranking order: more aligned hashes first, then more hits, then song id; negative when (aligned, hits, id) goes first. */
function rank(aligned: number, hits: number, songId: string, other: Candidate): number {
  return other.aligned - aligned || other.hits - hits || (songId < other.songId ? -1 : songId > other.songId ? 1 : 0);
}

/** Sort in place, by insertion for the few keys most songs have (cheaper than a native sort call), else natively. */
function sortSmall(a: Float64Array): Float64Array {
  if (a.length > 24) return a.sort();
  for (let i = 1; i < a.length; i++) {
    const v = a[i] as number;
    let j = i - 1;
    while (j >= 0 && (a[j] as number) > v) {
      a[j + 1] = a[j] as number;
      j--;
    }
    a[j + 1] = v;
  }
  return a;
}

/**
 * Match query hashes against stored ones with per-song histograms of offset differences (song offset - query
 * offset): the true song piles its hits at one difference, unrelated songs spread theirs out.
 */
export function match(query: Hashes, lookup: Lookup, config: FingerprintConfig): MatchResult {
  const { toleranceFrames, hopSeconds } = deriveParams(config);
  const { maxResultsPerHash, distinctHashes, maxCandidates } = config.match;
  const { maxPostingsPerHash } = config.index;
  const groups = groupByHash(query);
  // Pass 1: which postings each query hash brings, and how many pairs each song gets (songs numbered as met).
  const songOf: number[] = [];
  const songIds: string[] = [];
  const pairs: number[] = [];
  const postingSong: number[] = [];
  const used: { postings: readonly Posting[]; queryOffsets: number[]; g: number }[] = [];
  let g = 0;
  for (const [hash, queryOffsets] of groups) {
    g++;
    let postings = lookup(hash);
    // Same rule as index-time pruning, so a store that did not prune gives the same answer.
    if (maxPostingsPerHash !== null && postings.length > maxPostingsPerHash) continue;
    if (maxResultsPerHash !== null && postings.length > maxResultsPerHash) {
      postings = postings.slice(0, maxResultsPerHash);
    }
    if (postings.length === 0) continue;
    used.push({ postings, queryOffsets, g });
    for (const p of postings) {
      let s = songOf[p.song];
      if (s === undefined) {
        s = songIds.length;
        songOf[p.song] = s;
        songIds.push(p.songId);
        pairs.push(0);
      }
      postingSong.push(s);
      pairs[s] = (pairs[s] as number) + queryOffsets.length;
    }
  }

  // Pass 2: every song's (difference, hash) keys side by side in one array, song by song.
  const songs = songIds.length;
  const start = new Int32Array(songs + 1);
  for (let s = 0; s < songs; s++) start[s + 1] = (start[s] as number) + (pairs[s] as number);
  const keys = new Float64Array(start[songs] as number);
  const fill = start.slice(0, songs);
  let k = 0;
  for (const { postings, queryOffsets, g: slot } of used) {
    for (const p of postings) {
      const s = postingSong[k++] as number;
      for (const q of queryOffsets) {
        keys[fill[s] as number] = (p.offset - q + DELTA_BIAS) * HASH_SLOTS + slot;
        fill[s] = (fill[s] as number) + 1;
      }
    }
  }

  // Songs with the most pairs first (a counting sort: pair counts are small). A song's aligned count never exceeds its
  // pairs, so once a song has fewer pairs than the maxCandidates-th best aligned count so far, neither it nor any
  // later song can be ranked; and only songs that would enter the ranking so far become candidates.
  let most = 0;
  for (let s = 0; s < songs; s++) most = Math.max(most, pairs[s] as number);
  const bucket = new Int32Array(most + 2);
  for (let s = 0; s < songs; s++)
    bucket[most - (pairs[s] as number) + 1] = (bucket[most - (pairs[s] as number) + 1] as number) + 1;
  for (let b = 1; b <= most + 1; b++) bucket[b] = (bucket[b] as number) + (bucket[b - 1] as number);
  const order = new Int32Array(songs);
  for (let s = 0; s < songs; s++) {
    const b = most - (pairs[s] as number);
    order[bucket[b] as number] = s;
    bucket[b] = (bucket[b] as number) + 1;
  }
  const seen = new Int32Array(g + 1);
  const top: Candidate[] = [];
  for (const s of order) {
    const hits = pairs[s] as number;
    const last = top.length === maxCandidates ? top[maxCandidates - 1] : undefined;
    if (last && hits < last.aligned) break;
    const songKeys = sortSmall(keys.subarray(start[s] as number, start[s + 1] as number));
    const { count, at } = densestWindow(songKeys, toleranceFrames, distinctHashes, seen);
    const songId = songIds[s] as string;
    if (last && rank(count, hits, songId, last) >= 0) continue;
    const c: Candidate = {
      songId,
      aligned: count,
      hits,
      ratio: query.count > 0 ? count / query.count : 0,
      confidence: 0,
      offsetFrames: at,
      offsetSeconds: at * hopSeconds,
    };
    let i = top.length;
    while (i > 0 && rank(count, hits, songId, top[i - 1] as Candidate) < 0) i--;
    top.splice(i, 0, c);
    if (top.length > maxCandidates) top.pop();
  }
  const candidates = top;
  return { ...decide(candidates, config), queryHashes: query.count, lookups: groups.size };
}

/**
 * Apply the config's decision rule to ranked candidates and fill in their confidence. `ratio` (spec): the best
 * candidate matches when aligned / query hashes > minRatio. `aligned`: it needs at least `minAligned` aligned
 * hashes, `minMargin` more than the runner-up and `minMarginRatio` times the runner-up's count.
 */
export function decide(
  ranked: readonly Candidate[],
  config: FingerprintConfig,
): { candidates: Candidate[]; match: Candidate | null } {
  const m = config.match;
  const candidates = ranked.map((c) => ({ ...c }));
  const best = candidates[0];
  if (!best) return { candidates, match: null };
  if (m.scoring === "ratio") {
    for (const c of candidates) c.confidence = Math.min(1, c.ratio);
    return { candidates, match: best.ratio > m.minRatio ? best : null };
  }
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as Candidate;
    const rival = (i === 0 ? candidates[1] : candidates[0])?.aligned ?? 0;
    // Share of the evidence above the rival's level, damped for small counts (0.5 at exactly minAligned).
    c.confidence =
      c.aligned > rival ? (1 - rival / c.aligned) * (1 - 2 ** (-c.aligned / Math.max(1, m.minAligned))) : 0;
  }
  const runnerUp = candidates[1]?.aligned ?? 0;
  const ok =
    best.aligned >= m.minAligned &&
    best.aligned - runnerUp >= m.minMargin &&
    best.aligned >= m.minMarginRatio * runnerUp;
  return { candidates, match: ok ? best : null };
}

/**
 * The hashes a query reads (decision 029): those stored (count > 0) and at most `maxPerHash` times, rarest first,
 * while their rows add up to at most `budget` (null: no budget). `counts[i]` is `hashes[i]`'s row count.
 */
export function rarestWithin(
  hashes: readonly number[],
  counts: readonly number[],
  budget: number | null,
  maxPerHash: number | null,
): number[] {
  const order = hashes
    .map((_, i) => i)
    .filter((i) => (counts[i] as number) > 0 && (maxPerHash === null || (counts[i] as number) <= maxPerHash))
    .sort((a, b) => (counts[a] as number) - (counts[b] as number) || (hashes[a] as number) - (hashes[b] as number));
  const out: number[] = [];
  let rows = 0;
  for (const i of order) {
    rows += counts[i] as number;
    if (budget !== null && rows > budget) break;
    out.push(hashes[i] as number);
  }
  return out;
}

/** An in-memory `lookup` that answers only the hashes `rarestWithin` reads of `hashes`, as a database store does. */
export function rarestLookup(
  lookup: Lookup,
  hashes: readonly number[],
  budget: number | null,
  maxPerHash: number | null,
): Lookup {
  if (budget === null && maxPerHash === null) return lookup;
  // Each hash's rows are looked up once: counted here, and kept for the matcher.
  const found = new Map(hashes.map((h) => [h, lookup(h)] as const));
  const counts = hashes.map((h) => (found.get(h) as readonly Posting[]).length);
  const read = new Set(rarestWithin(hashes, counts, budget, maxPerHash));
  const none: Posting[] = [];
  return (hash) => (read.has(hash) ? (found.get(hash) ?? lookup(hash)) : none);
}

/** Stored rows as three parallel columns, e.g. as a database returns them in arrays. */
export type PostingColumns = { hashes: ArrayLike<number>; songIds: ArrayLike<string>; offsets: ArrayLike<number> };

/** Build a `Lookup` from rows read in one go from a database (e.g. `WHERE hash IN (...)`), ordered by offset. */
export function lookupFromRows(rows: Iterable<{ hash: number; songId: string; offset: number }>): Lookup {
  const columns = { hashes: [] as number[], songIds: [] as string[], offsets: [] as number[] };
  for (const r of rows) {
    columns.hashes.push(r.hash);
    columns.songIds.push(r.songId);
    columns.offsets.push(r.offset);
  }
  return lookupFromColumns(columns);
}

/** `lookupFromRows` for rows given as columns, without an object per row. */
export function lookupFromColumns(columns: PostingColumns): Lookup {
  const { hashes, offsets } = columns;
  const n = hashes.length;
  // Songs numbered as met (ids parsed from a database are a fresh string in every row).
  const songOf = new Int32Array(n);
  const songIds: string[] = [];
  const songs = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const id = columns.songIds[i] as string;
    let s = songs.get(id);
    if (s === undefined) {
      s = songIds.length;
      songs.set(id, s);
      songIds.push(id);
    }
    songOf[i] = s;
  }
  // Rows by hash, then offset: two stable radix sorts, no comparator calls; then one list per run of a hash.
  const byOffset = radixSortBy(
    Uint32Array.from({ length: n }, (_, i) => i),
    Uint32Array.from(offsets),
  );
  const order = radixSortBy(byOffset, Uint32Array.from(hashes));
  const byHash = new Map<number, Posting[]>();
  let list: Posting[] = [];
  let current: number | undefined;
  for (let i = 0; i < n; i++) {
    const k = order[i] as number;
    const h = hashes[k] as number;
    if (h !== current) {
      list = [];
      byHash.set(h, list);
      current = h;
    }
    const song = songOf[k] as number;
    list.push({ songId: songIds[song] as string, song, offset: offsets[k] as number });
  }
  const none: Posting[] = [];
  return (hash) => byHash.get(hash) ?? none;
}

/** Stable LSD radix sort of `order` by a 32-bit unsigned key, 16 bits per pass. */
function radixSortBy(order: Uint32Array, key: Uint32Array): Uint32Array {
  let src: Uint32Array = order;
  let dst: Uint32Array = new Uint32Array(order.length);
  const counts = new Uint32Array(65537);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < src.length; i++) {
      const k = ((key[src[i] as number] as number) >>> shift) & 0xffff;
      counts[k + 1] = (counts[k + 1] as number) + 1;
    }
    for (let k = 0; k < 65536; k++) counts[k + 1] = (counts[k + 1] as number) + (counts[k] as number);
    for (let i = 0; i < src.length; i++) {
      const idx = src[i] as number;
      const k = ((key[idx] as number) >>> shift) & 0xffff;
      const pos = counts[k] as number;
      dst[pos] = idx;
      counts[k] = pos + 1;
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/** Counts describing an index. */
export type IndexStats = {
  songs: number;
  postings: number;
  distinctHashes: number;
  /** Hashes (and their rows) dropped by index-time pruning. */
  prunedHashes: number;
  prunedPostings: number;
};

/**
 * An in-memory hash -> (song, offset) index for tests and the benchmark. Rows are sorted by hash (then offset) on
 * the first lookup after additions; hashes with more than `maxPostingsPerHash` rows are then dropped.
 */
export class MemoryIndex {
  readonly config: FingerprintConfig;
  private songIds: string[] = [];
  private pending: { song: number; hashes: Int32Array; offsets: Int32Array }[] = [];
  private sortedHashes = new Int32Array(0);
  private sortedSongs = new Int32Array(0);
  private sortedOffsets = new Int32Array(0);
  private pruned = { hashes: 0, postings: 0 };
  /** Hashes dropped once stay dropped, so later additions cannot bring an over-common hash back. */
  private prunedSet = new Set<number>();
  private dirty = false;

  constructor(config: FingerprintConfig) {
    this.config = config;
  }

  /** Store a song's hashes. */
  add(songId: string, fingerprint: Hashes): void {
    const song = this.songIds.length;
    this.songIds.push(songId);
    this.pending.push({
      song,
      hashes: fingerprint.hashes.slice(0, fingerprint.count),
      offsets: fingerprint.offsets.slice(0, fingerprint.count),
    });
    this.dirty = true;
  }

  /** Rows for a hash, ordered by offset. */
  readonly lookup: Lookup = (hash) => {
    this.build();
    const hs = this.sortedHashes;
    let lo = 0;
    let hi = hs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((hs[mid] as number) < hash) lo = mid + 1;
      else hi = mid;
    }
    const out: Posting[] = [];
    for (let i = lo; i < hs.length && hs[i] === hash; i++) {
      const song = this.sortedSongs[i] as number;
      out.push({ songId: this.songIds[song] as string, song, offset: this.sortedOffsets[i] as number });
    }
    return out;
  };

  /** Every stored row of the given songs (what a database reads by song for verification). */
  songRows(songIds: readonly string[]): { hash: number; songId: string; offset: number }[] {
    this.build();
    const wanted = new Set(songIds.map((id) => this.songIds.indexOf(id)).filter((i) => i >= 0));
    const out: { hash: number; songId: string; offset: number }[] = [];
    for (let i = 0; i < this.sortedHashes.length; i++) {
      const s = this.sortedSongs[i] as number;
      if (wanted.has(s))
        out.push({
          hash: this.sortedHashes[i] as number,
          songId: this.songIds[s] as string,
          offset: this.sortedOffsets[i] as number,
        });
    }
    return out;
  }

  /** Match a query against everything stored, reading its rarest hashes within the config's row budget. */
  match(query: Hashes): MatchResult {
    const { rowBudget, maxPostingsPerHash } = this.config.index;
    const lookup = rarestLookup(this.lookup, distinctHashValues(query), rowBudget, maxPostingsPerHash);
    return match(query, lookup, this.config);
  }

  /** Sizes of the index after pruning. */
  stats(): IndexStats {
    this.build();
    let distinct = 0;
    const hs = this.sortedHashes;
    for (let i = 0; i < hs.length; i++) if (i === 0 || hs[i] !== hs[i - 1]) distinct++;
    return {
      songs: this.songIds.length,
      postings: hs.length,
      distinctHashes: distinct,
      prunedHashes: this.pruned.hashes,
      prunedPostings: this.pruned.postings,
    };
  }

  private build(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const total = this.sortedHashes.length + this.pending.reduce((n, p) => n + p.hashes.length, 0);
    const hashes = new Int32Array(total);
    const songs = new Int32Array(total);
    const offsets = new Int32Array(total);
    hashes.set(this.sortedHashes);
    songs.set(this.sortedSongs);
    offsets.set(this.sortedOffsets);
    let n = this.sortedHashes.length;
    for (const p of this.pending) {
      hashes.set(p.hashes, n);
      offsets.set(p.offsets, n);
      songs.fill(p.song, n, n + p.hashes.length);
      n += p.hashes.length;
    }
    this.pending = [];
    // Hashes and offsets are non-negative, so their unsigned views sort the same way.
    let order: Uint32Array = new Uint32Array(total);
    for (let i = 0; i < total; i++) order[i] = i;
    order = radixSortBy(order, new Uint32Array(offsets.buffer));
    order = radixSortBy(order, new Uint32Array(hashes.buffer));
    const cap = this.config.index.maxPostingsPerHash;
    const outH = new Int32Array(total);
    const outS = new Int32Array(total);
    const outO = new Int32Array(total);
    let m = 0;
    let start = 0;
    while (start < total) {
      const h = hashes[order[start] as number] as number;
      let end = start + 1;
      while (end < total && hashes[order[end] as number] === h) end++;
      if (this.prunedSet.has(h)) {
        this.pruned.postings += end - start;
      } else if (cap !== null && end - start > cap) {
        this.prunedSet.add(h);
        this.pruned.hashes++;
        this.pruned.postings += end - start;
      } else {
        for (let i = start; i < end; i++) {
          const idx = order[i] as number;
          outH[m] = h;
          outS[m] = songs[idx] as number;
          outO[m] = offsets[idx] as number;
          m++;
        }
      }
      start = end;
    }
    this.sortedHashes = outH.slice(0, m);
    this.sortedSongs = outS.slice(0, m);
    this.sortedOffsets = outO.slice(0, m);
  }
}

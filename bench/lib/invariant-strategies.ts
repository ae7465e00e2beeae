// Lookup strategies of bench:invariant: which stored rows a clip's triplets read before matchInvariant runs.
//   all          every distinct key of the clip, every row of it (the baseline);
//   rarest       keys by their row count (decision 029's count table), rarest first, while the rows fit a budget;
//   ranges       every key, but only the composite ranges (first-pitch band x span band, invariant-store.ts) the
//                clip's triplets under that key can match within the matcher's search range: the pairs the
//                matcher would drop anyway are never read;
//   ranges+rarest  the ranges of each key as one unit, units by their row count, rarest first, within a budget;
//   ranges+primary  the same, ordered by the whole key's row count (a count table of one row per key, as decision
//                029's fingerprint_hash, rather than one per key and suffix), the budget still counting the rows
//                the ranges return; and a key the clip forms as a song would (invariantQuery's `primary`: its
//                keys without the query widening) counts its rows as `primaryWeight` times fewer: such keys hold
//                most of the right song's evidence per row read.
import {
  INVARIANT_MATCH,
  type InvariantCandidate,
  type InvariantMatchConfig,
  type InvariantPostings,
  type Triplets,
} from "@unheard/fingerprint";
import { type Catalogue, postingsOf } from "./invariant-store.js";

export type Strategy = {
  name: string;
  ranges: boolean;
  budget: number | null;
  primaryWeight: number | null;
  /** Order units by the rows of their ranges, or of their whole key. */
  orderBy: "rows" | "key";
};

/** The strategies measured, with decision 029's plain-pass budget (150,000 rows) unless `budgets` says otherwise. */
export function strategies(budgets: number[]): Strategy[] {
  const label = (b: number) => `${(b / 1000).toLocaleString("en")}k`;
  const none = { budget: null, primaryWeight: null, orderBy: "rows" } as const;
  return [
    { name: "all", ranges: false, ...none },
    ...budgets.map((b) => ({ ...none, name: `rarest ${label(b)}`, ranges: false, budget: b })),
    { name: "ranges", ranges: true, ...none },
    ...budgets.map((b) => ({ ...none, name: `ranges+rarest ${label(b)}`, ranges: true, budget: b })),
    ...budgets.map((b) => ({
      name: `ranges+primary ${label(b)}`,
      ranges: true,
      budget: b,
      primaryWeight: PRIMARY_WEIGHT,
      orderBy: "key" as const,
    })),
  ];
}

/** How many times fewer rows a primary key's count as (see the file's comment). */
export const PRIMARY_WEIGHT = 8;

/** What a strategy read for one clip. */
export type Selection = {
  /** Rows the strategy reads (counted even when not read, see `read`). */
  rows: number;
  /** Keys of the clip that have rows at all, and keys read. */
  keys: number;
  keysRead: number;
  /** Range scans issued (one per key without ranges). */
  scans: number;
  /** Whether the rows were read (false past `cap`: only counted). */
  read: boolean;
  postings: Map<number, InvariantPostings>;
};

const EMPTY: InvariantPostings = { count: 0, hi: [], lo: [] };

/** Merge closed integer intervals in place (sorted by start). */
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

/** Select (and, up to `cap` rows, read) a clip's rows from a catalogue under a strategy. */
export function selectRows(
  q: Triplets,
  catalogue: Catalogue,
  strategy: Strategy,
  cap: number,
  primary: ReadonlySet<number>,
  rules: InvariantMatchConfig = INVARIANT_MATCH,
): Selection {
  const store = catalogue.store;
  const byKey = new Map<number, number[]>();
  for (let i = 0; i < q.count; i++) {
    const k = q.keys[i] as number;
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  }
  type Unit = { key: number; ranges: [number, number][]; rows: number; cost: number };
  const weight = strategy.primaryWeight;
  const costOf = (key: number, rows: number) => (weight !== null && primary.has(key) ? rows / weight : rows);
  const units: Unit[] = [];
  const scratch: [number, number][] = [];
  for (const [key, idx] of byKey) {
    if (!strategy.ranges) {
      const rows = catalogue.keyCount(key);
      if (rows > 0) units.push({ key, ranges: [store.keyRange(key)], rows, cost: costOf(key, rows) });
      continue;
    }
    scratch.length = 0;
    for (const i of idx)
      store.queryRanges(
        key,
        q.pitches[i] as number,
        q.spans[i] as number,
        rules.maxPitchSemitones,
        rules.minTimeFactor,
        rules.maxTimeFactor,
        scratch,
      );
    const ranges = merge(scratch);
    let rows = 0;
    for (const [a, b] of ranges) rows += catalogue.count(a, b);
    if (rows > 0)
      units.push({ key, ranges, rows, cost: costOf(key, strategy.orderBy === "key" ? catalogue.keyCount(key) : rows) });
  }
  let chosen = units;
  if (strategy.budget !== null) {
    // Rarest first while the rows fit (rarestWithin's rule: stop at the first unit that does not).
    const sorted = [...units].sort((a, b) => a.cost - b.cost || a.key - b.key);
    chosen = [];
    let total = 0;
    for (const u of sorted) {
      if (total + u.rows > strategy.budget) break;
      total += u.rows;
      chosen.push(u);
    }
  }
  const rows = chosen.reduce((n, u) => n + u.rows, 0);
  const scans = chosen.reduce((n, u) => n + u.ranges.length, 0);
  const postings = new Map<number, InvariantPostings>();
  const read = rows <= cap;
  if (read)
    for (const u of chosen) {
      const out = { hi: [] as number[], lo: [] as number[] };
      for (const [a, b] of u.ranges) catalogue.read(a, b, out);
      postings.set(u.key, postingsOf(out));
    }
  return { rows, keys: units.length, keysRead: chosen.length, scans, read, postings };
}

/** A lookup answering the selected rows. */
export const lookupOf = (s: Selection) => (key: number) => s.postings.get(key) ?? EMPTY;

/** matchInvariant's decision on a candidate list (e.g. without the clip's own song: a leave-one-out negative). */
export function decides(candidates: InvariantCandidate[], rules: InvariantMatchConfig = INVARIANT_MATCH): boolean {
  const [best, second] = candidates;
  const runnerUp = second?.score ?? 0;
  return (
    best !== undefined &&
    best.score >= rules.minScore &&
    best.score - runnerUp >= rules.minMargin &&
    best.score >= rules.minMarginRatio * runnerUp
  );
}

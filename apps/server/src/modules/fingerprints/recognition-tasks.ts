// The compute of a recognition in steps that need no database (decision 029): each runs on one of the audio pool's
// threads (lib/audio-pool-worker.ts) and gets everything it needs in its message, so the service only reads rows on
// the event loop. Without a pool (scripts), the same functions run in-process.
import {
  type Candidate,
  distinctHashValues,
  estimateTempo,
  type FingerprintConfig,
  fingerprintQuery,
  type Hashes,
  type InvariantIndexConfig,
  type InvariantMatchResult,
  type InvariantPostings,
  invariantQuery,
  type LookupUnit,
  lookupFromColumns,
  match,
  matchInvariant,
  type PostingColumns,
  planInvariantLookup,
  prepareWarpQuery,
  rankWarps,
  searchHashes,
  type TempoEstimate,
  type Triplets,
  verifyRank,
  type Warp,
  type WarpedCandidate,
  type WarpQuery,
  type WarpSearch,
} from "@unheard/fingerprint";
import type { PostingsJson } from "./fingerprints.repo.js";
import type { TripletRowsJson } from "./triplets.repo.js";

/** One step of a recognition. */
export type RecognitionTask =
  /** The plain pass's hashes of a clip, and their distinct values to look up. */
  | { kind: "fingerprint"; samples: Float32Array; sampleRate: number; preset: FingerprintConfig }
  /** The plain pass's matching, and the tempo of a time-stretched match (`tempoRange` null: not read). */
  | { kind: "match"; hashes: Hashes; postings: PostingsJson; preset: FingerprintConfig; tempoRange: number | null }
  /** The warped pass's analysis of a clip, its search hashes under each warp of `grid`, and their distinct values. */
  | {
      kind: "warp-query";
      samples: Float32Array;
      sampleRate: number;
      preset: FingerprintConfig;
      dereverb: WarpSearch["dereverb"];
      grid: Warp[];
    }
  /** Rank songs over some of the grid's warps (`hashes` are those warps' search hashes). */
  | { kind: "warp-rank"; query: WarpQuery; warps: Warp[]; hashes: Hashes[]; postings: PostingsJson; limit: number }
  /** Verify the candidates under some of the finer warps, against their own rows. */
  | { kind: "verify-rank"; query: WarpQuery; warps: Warp[]; rows: PostingsJson; search: WarpSearch }
  /** The invariant pass (decision 033): a clip's widened triplets, its primary keys and its distinct keys. */
  | { kind: "invariant-query"; samples: Float32Array; sampleRate: number; config: InvariantIndexConfig }
  /** Which of its keys a clip reads, and which ranges under each, in order (`counts`: stored rows per key). */
  | {
      kind: "invariant-plan";
      triplets: Triplets;
      primary: Int32Array;
      keys: number[];
      counts: number[];
      config: InvariantIndexConfig;
    }
  /** Match a clip's triplets on the rows read, leaving out numbers that lost their song. */
  | {
      kind: "invariant-match";
      triplets: Triplets;
      rows: TripletRowsJson[];
      retired: number[];
      config: InvariantIndexConfig;
    };

type Results = {
  fingerprint: { hashes: Hashes; distinct: number[] };
  match: { candidates: Candidate[]; match: Candidate | null; tempo: TempoEstimate | null; rows: number };
  "warp-query": { query: WarpQuery; hashes: Hashes[]; distinct: number[] };
  "warp-rank": { ranked: WarpedCandidate[]; rows: number };
  "verify-rank": { ranked: WarpedCandidate[]; rows: number };
  "invariant-query": { triplets: Triplets; primary: Int32Array; keys: number[] };
  "invariant-plan": { units: LookupUnit[] };
  "invariant-match": InvariantMatchResult & { rows: number };
};

/** What a step answers. */
export type RecognitionResult<K extends RecognitionTask["kind"]> = Results[K];

/** Runs a step somewhere (a pool thread, or here). */
export type RecognitionCompute = <T extends RecognitionTask>(task: T) => Promise<RecognitionResult<T["kind"]>>;

/** Columns of rows read by `FingerprintsRepo.postings` or `songRows`. */
export function parsePostings(json: PostingsJson): PostingColumns & { hashes: number[]; offsets: number[] } {
  const out = { hashes: [] as number[], songIds: [] as string[], offsets: [] as number[] };
  const list = <T>(text: string | null): T[] => (text ? (JSON.parse(text) as T[]) : []);
  for (const batch of json) {
    const h = list<number>(batch.h);
    const s = list<string>(batch.s);
    const o = list<number>(batch.o);
    for (let k = 0; k < h.length; k++) {
      out.hashes.push(Number(h[k]));
      out.songIds.push(s[k] as string);
      out.offsets.push(Number(o[k]));
    }
  }
  return out;
}

/** Run one step here. */
export function runRecognitionTask<T extends RecognitionTask>(task: T): RecognitionResult<T["kind"]> {
  return run(task) as RecognitionResult<T["kind"]>;
}

function run(task: RecognitionTask): Results[RecognitionTask["kind"]] {
  switch (task.kind) {
    case "fingerprint": {
      const fp = fingerprintQuery(task.samples, task.sampleRate, task.preset);
      return { hashes: fp.hashes, distinct: distinctHashValues(fp.hashes) };
    }
    case "match": {
      const columns = parsePostings(task.postings);
      const lookup = lookupFromColumns(columns);
      const result = match(task.hashes, lookup, task.preset);
      const tempo =
        result.match && task.tempoRange !== null
          ? estimateTempo(task.hashes, lookup, result.match.songId, task.preset, task.tempoRange)
          : null;
      return { candidates: result.candidates, match: result.match, tempo, rows: columns.hashes.length };
    }
    case "warp-query": {
      const query = prepareWarpQuery(task.samples, task.sampleRate, task.preset, task.dereverb);
      const { warps, distinct } = searchHashes(query, task.grid);
      return { query, hashes: warps, distinct };
    }
    case "warp-rank": {
      const columns = parsePostings(task.postings);
      const lookup = lookupFromColumns(columns);
      return {
        ranked: rankWarps(task.warps, task.hashes, lookup, task.query.config, task.limit),
        rows: columns.hashes.length,
      };
    }
    case "invariant-query": {
      const { analysis, widening } = task.config;
      const q = invariantQuery(task.samples, task.sampleRate, analysis, widening);
      return {
        triplets: q.triplets,
        primary: q.primary,
        keys: [...new Set(q.triplets.keys.subarray(0, q.triplets.count))],
      };
    }
    case "invariant-plan": {
      const counts = new Map(task.keys.map((k, i) => [k, task.counts[i] as number]));
      return { units: planInvariantLookup(task.triplets, task.primary, counts, task.config) };
    }
    case "invariant-match": {
      const retired = new Set(task.retired);
      const byKey = new Map<number, InvariantPostings>();
      let rows = 0;
      for (const r of task.rows) {
        const h = JSON.parse(r.h) as number[];
        const l = JSON.parse(r.l) as number[];
        const hi: number[] = [];
        const lo: number[] = [];
        for (let i = 0; i < h.length; i++) {
          const high = Number(h[i]);
          if (retired.size > 0 && retired.has(Math.floor(high / 4096))) continue;
          hi.push(high);
          lo.push(Number(l[i]));
        }
        rows += hi.length;
        byKey.set(r.key, { count: hi.length, hi, lo });
      }
      const empty: InvariantPostings = { count: 0, hi: [], lo: [] };
      const result = matchInvariant(task.triplets, (k) => byKey.get(k) ?? empty, [], task.config.match);
      return { ...result, rows };
    }
    case "verify-rank": {
      const columns = parsePostings(task.rows);
      return {
        ranked: verifyRank(task.query, task.warps, lookupFromColumns(columns), task.search),
        rows: columns.hashes.length,
      };
    }
  }
}

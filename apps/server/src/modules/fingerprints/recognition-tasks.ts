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
  lookupFromColumns,
  match,
  type PostingColumns,
  prepareWarpQuery,
  rankWarps,
  searchHashes,
  type TempoEstimate,
  verifyRank,
  type Warp,
  type WarpedCandidate,
  type WarpQuery,
  type WarpSearch,
} from "@unheard/fingerprint";
import type { PostingsJson } from "./fingerprints.repo.js";

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
  | { kind: "verify-rank"; query: WarpQuery; warps: Warp[]; rows: PostingsJson; search: WarpSearch };

type Results = {
  fingerprint: { hashes: Hashes; distinct: number[] };
  match: { candidates: Candidate[]; match: Candidate | null; tempo: TempoEstimate | null; rows: number };
  "warp-query": { query: WarpQuery; hashes: Hashes[]; distinct: number[] };
  "warp-rank": { ranked: WarpedCandidate[]; rows: number };
  "verify-rank": { ranked: WarpedCandidate[]; rows: number };
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
    case "verify-rank": {
      const columns = parsePostings(task.rows);
      return {
        ranked: verifyRank(task.query, task.warps, lookupFromColumns(columns), task.search),
        rows: columns.hashes.length,
      };
    }
  }
}

// The invariant pass of a recognition (issue 39, decision 033): a clip's speed- and pitch-invariant triplets are
// looked up once, whatever the clip's speed or pitch, instead of once per warp. Compute steps run on the audio
// pool's threads; here the rows are chosen and read.
import { type InvariantCandidate, type InvariantIndexConfig, invariantWarp } from "@unheard/fingerprint";
import type { RecognitionCandidate } from "./fingerprints.service.js";
import type { RecognitionResult, RecognitionTask } from "./recognition-tasks.js";
import type { TripletsRepo } from "./triplets.repo.js";

/** Runs a compute step (a pool thread, or here); `continued`: part of a recognition already admitted. */
type Compute = <T extends RecognitionTask>(task: T, continued: boolean) => Promise<RecognitionResult<T["kind"]>>;

/** What the invariant pass found, in the recogniser's terms, and what it read. */
export type InvariantOutcome = {
  candidates: RecognitionCandidate[];
  match: RecognitionCandidate | null;
  rows: number;
};

/** The invariant pass over a repo. */
export function createInvariantPass(deps: { triplets: TripletsRepo; compute: Compute; config: InvariantIndexConfig }) {
  const { triplets, compute, config } = deps;

  /** Look a clip up in the invariant index; `admitted`: the first step is part of work the pool took on. */
  return async function recognizeInvariant(
    samples: Float32Array,
    sampleRate: number,
    admitted: boolean,
  ): Promise<InvariantOutcome> {
    const q = await compute({ kind: "invariant-query", samples, sampleRate, config }, admitted);
    const counts = await triplets.keyCounts(q.keys);
    if (counts.size === 0) return { candidates: [], match: null, rows: 0 };
    const { units } = await compute(
      {
        kind: "invariant-plan",
        triplets: q.triplets,
        primary: q.primary,
        keys: [...counts.keys()],
        counts: [...counts.values()],
        config,
      },
      true,
    );
    const [read, retired] = await Promise.all([triplets.read(units, config.rowBudget), triplets.retired()]);
    const result = await compute(
      { kind: "invariant-match", triplets: q.triplets, rows: read.rows, retired, config },
      true,
    );
    const songs = await triplets.songsOf(result.candidates.map((c) => c.song));
    const shape = (c: InvariantCandidate): RecognitionCandidate | null => {
      const songId = songs.get(c.song);
      if (!songId) return null;
      return {
        songId,
        aligned: c.score,
        // The share of the clip's triplets that line up, as the plain pass's confidence is a share of its hashes.
        confidence: Math.min(1, c.score / Math.max(1, c.hits)),
        offsetSeconds: c.offsetSeconds,
        warp: invariantWarp(c.timeFactor, c.pitchSemitones),
      };
    };
    const candidates = result.candidates.map(shape).filter((c): c is RecognitionCandidate => c !== null);
    const match = result.match ? shape(result.match) : null;
    return { candidates, match, rows: read.count };
  };
}

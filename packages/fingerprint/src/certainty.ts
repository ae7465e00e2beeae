/**
 * How sure a match is, in words people can read (issue 30): every match has passed the decision rule (a floor of
 * aligned hashes, a margin and a ratio over the runner-up); these words grade the evidence above that floor. The
 * levels are calibrated on `npm run bench:fingerprint` (decision 028): over its thousands of out-of-catalogue clips
 * the best unrelated song never lined up more than 15 hashes as it is, or 13 through a warp.
 */
export const CERTAINTIES = ["sure", "likely", "weak"] as const;

/** One of the words. */
export type Certainty = (typeof CERTAINTIES)[number];

/**
 * The evidence levels: aligned hashes (or triplets) and the lead over the runner-up (a ratio), as it is, through a
 * warp, and through the invariant index.
 */
export const CERTAINTY_LEVELS = {
  plain: { likely: 20, sure: 40, sureRatio: 4 },
  // Every warp of the grid is another chance to line up by accident: the levels are higher.
  warped: { likely: 30, sure: 60, sureRatio: 4 },
  // Aligned triplets (decision 033): on bench:invariant's unknown music and leave-one-out negatives the best
  // unrelated song never aligned more than 10 (the matcher's floor); clips found plain score 100-200, sped up,
  // slowed or pitch-shifted 30-180, through a room or reverb 12-26. Likely at twice chance's best, sure at four times.
  invariant: { likely: 20, sure: 40, sureRatio: 4 },
} as const;

/** Which evidence a match stands on. */
export type EvidenceKind = keyof typeof CERTAINTY_LEVELS;

/** The word for a match with `aligned` hashes lined up, `runnerUp` for the next song, found by a `kind` of pass. */
export function certaintyOf(aligned: number, runnerUp: number, kind: EvidenceKind): Certainty {
  const level = CERTAINTY_LEVELS[kind];
  if (aligned >= level.sure && aligned >= level.sureRatio * runnerUp) return "sure";
  if (aligned >= level.likely) return "likely";
  return "weak";
}

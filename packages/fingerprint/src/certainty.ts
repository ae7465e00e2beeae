/**
 * How sure a match is, in words people can read (issue 30): every match has passed the decision rule (a floor of
 * aligned hashes, a margin and a ratio over the runner-up); these words grade the evidence above that floor. The
 * levels are calibrated on `npm run bench:fingerprint` (decision 028): over its thousands of out-of-catalogue clips
 * the best unrelated song never lined up more than 15 hashes as it is, or 13 through a warp.
 */
export const CERTAINTIES = ["sure", "likely", "weak"] as const;

/** One of the words. */
export type Certainty = (typeof CERTAINTIES)[number];

/** The evidence levels: aligned hashes and the lead over the runner-up (a ratio), as it is and through a warp. */
export const CERTAINTY_LEVELS = {
  plain: { likely: 20, sure: 40, sureRatio: 4 },
  // Every warp of the grid is another chance to line up by accident: the levels are higher.
  warped: { likely: 30, sure: 60, sureRatio: 4 },
} as const;

/** The word for a match with `aligned` hashes lined up, `runnerUp` for the next song, found as it is or warped. */
export function certaintyOf(aligned: number, runnerUp: number, warped: boolean): Certainty {
  const level = warped ? CERTAINTY_LEVELS.warped : CERTAINTY_LEVELS.plain;
  if (aligned >= level.sure && aligned >= level.sureRatio * runnerUp) return "sure";
  if (aligned >= level.likely) return "likely";
  return "weak";
}

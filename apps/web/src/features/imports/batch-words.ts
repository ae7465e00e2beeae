import type { ImportBatch, ImportOutcome, ImportStatus } from "@unheard/shared";

/** A pill's colour; its words always say the same (no state is told by colour alone). */
export type Tone = "neutral" | "violet" | "amber" | "rose" | "emerald";

/** What the import does with a row, as a pill says it. */
export const OUTCOME_LABELS: Record<ImportOutcome, string> = {
  create: "Create",
  update: "Update",
  skip: "Skip",
  remove: "Remove",
  rename: "Rename",
};
export const OUTCOME_TONES: Record<ImportOutcome, Tone> = {
  create: "emerald",
  update: "violet",
  skip: "neutral",
  remove: "rose",
  rename: "amber",
};

/** A batch's status in words. */
export const STATUS_LABELS: Record<ImportStatus, string> = {
  awaiting_approval: "Waiting for approval",
  running: "Running",
  done: "Done",
  failed: "Failed",
  undone: "Undone",
  rejected: "Rejected",
};
export const STATUS_TONES: Record<ImportStatus, Tone> = {
  awaiting_approval: "amber",
  running: "amber",
  done: "emerald",
  failed: "rose",
  undone: "neutral",
  rejected: "neutral",
};

/** A batch's counts in words: "2 created · 1 updated · 0 skipped", with removals and renames when there are any. */
export function batchCounts(b: ImportBatch): string {
  const parts = [`${b.createdCount} created`, `${b.updatedCount} updated`, `${b.skippedCount} skipped`];
  if (b.removedCount > 0) parts.push(`${b.removedCount} removed`);
  if (b.renamedCount > 0) parts.push(`${b.renamedCount} renamed`);
  return parts.join(" · ");
}

/** Whether a batch can be undone: it changed the catalogue (a sync waiting or rejected never did). */
export const canUndo = (b: ImportBatch) => b.status === "done" || b.status === "failed";

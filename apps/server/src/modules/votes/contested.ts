/**
 * When a contested song (one with a counted downvote) may verify (decision 014): `openHours` after it was
 * uploaded, in ms since the epoch; null when nothing holds it (no counted downvote, or no open period).
 */
export function contestedUntil(createdAt: string | Date, downvotes: number, openHours: number): number | null {
  if (downvotes === 0 || openHours <= 0) return null;
  return new Date(createdAt).getTime() + openHours * 3_600_000;
}

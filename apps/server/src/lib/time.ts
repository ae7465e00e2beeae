/** Now as an ISO-8601 string, the one timestamp format the app writes. */
export const nowIso = (): string => new Date().toISOString();

/** A timestamp column read from either dialect, as ISO-8601. */
export function toIso(v: string | Date): string;
export function toIso(v: string | Date | null | undefined): string | null;
export function toIso(v: string | Date | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : new Date(v).toISOString();
}

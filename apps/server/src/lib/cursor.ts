import { type SelectQueryBuilder, type StringReference, sql } from "kysely";
import { AppError } from "../errors.js";
import { toIso } from "./time.js";

/** Position in a list ordered by (created_at desc, id desc). */
export type KeysetCursor = { createdAt: string; id: string };

/** An opaque cursor for the page after this one. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Read a cursor the API handed out; anything else is a 400, never a crash. */
export function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (check(value)) return value;
  } catch {}
  throw new AppError("bad_request", "Invalid cursor");
}

const isKeyset = (v: unknown): v is KeysetCursor =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as KeysetCursor).createdAt === "string" &&
  typeof (v as KeysetCursor).id === "string";

/** A keyset cursor, checked. */
export const decodeKeyset = (cursor: string | undefined): KeysetCursor | undefined => decodeCursor(cursor, isKeyset);

/** An offset cursor (ranked lists), checked. */
export const decodeOffset = (cursor: string | undefined): number =>
  decodeCursor(
    cursor,
    (v): v is { o: number } =>
      typeof v === "object" && v !== null && Number.isInteger((v as { o: number }).o) && (v as { o: number }).o >= 0,
  )?.o ?? 0;

/**
 * Cut a fetched page (`limit + 1` rows) to `limit` and make the cursor for the next one, from the last row's
 * timestamp (`at`) and id; null when this was the last page.
 */
export function keysetPage<R extends { id: string }>(
  rows: R[],
  limit: number,
  at: (row: R) => string | Date,
): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: toIso(at(last)), id: last.id }) : null,
  };
}

/**
 * Order a query newest first by (`at` desc, `id` desc) and start it after `cursor`: the query side of keyset
 * paging, whose page `keysetPage` cuts. Name the columns with their table where the query joins.
 */
export function newestAfter<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  at: StringReference<DB, TB>,
  id: StringReference<DB, TB>,
  cursor: KeysetCursor | undefined,
): SelectQueryBuilder<DB, TB, O> {
  const atRef = sql.ref<string>(at);
  const idRef = sql.ref<string>(id);
  const after = cursor
    ? qb.where((eb) =>
        eb.or([
          eb(atRef, "<", cursor.createdAt),
          eb.and([eb(atRef, "=", cursor.createdAt), eb(idRef, "<", cursor.id)]),
        ]),
      )
    : qb;
  return after.orderBy(atRef, "desc").orderBy(idRef, "desc");
}

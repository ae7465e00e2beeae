import { MESSAGES } from "@unheard/shared";
import { type SelectQueryBuilder, type StringReference, sql } from "kysely";
import { AppError } from "../errors.js";
import { toIso } from "./time.js";

/** Position in a list ordered by (created_at desc, id desc). */
export type KeysetCursor = { createdAt: string; id: string };

/** An opaque cursor for the page after this one. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Read a cursor the API handed out; anything else is a 400 with a clear message, never a crash. */
export function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (!cursor) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (check(value)) return value;
  throw new AppError("bad_request", MESSAGES.invalidCursor);
}

/**
 * The furthest an offset cursor may point. Ranked lists are cut from at most this many rows; past it a value only
 * reaches the database as a number it cannot bind (1e300 was a 500: "datatype mismatch").
 */
export const MAX_CURSOR_OFFSET = 1_000_000;

/** Exactly what `toIso` writes (`Date#toISOString`, years 0000-9999), and a real instant. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The ids the app hands out (`newId`, seeded ids): short, URL-safe, nothing a database could choke on (NUL). */
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A timestamp cursors carry: an ISO instant as the app writes it, which round-trips through `Date`. */
export const isCursorInstant = (v: unknown): v is string =>
  typeof v === "string" && ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v;

/** An id cursors carry. */
export const isCursorId = (v: unknown): v is string => typeof v === "string" && CURSOR_ID.test(v);

const isKeyset = (v: unknown): v is KeysetCursor =>
  isObject(v) && Object.keys(v).length === 2 && isCursorInstant(v.createdAt) && isCursorId(v.id);

/** A keyset cursor, checked. */
export const decodeKeyset = (cursor: string | undefined): KeysetCursor | undefined => decodeCursor(cursor, isKeyset);

/** An offset cursor (ranked lists), checked: a whole number from 0 to `MAX_CURSOR_OFFSET`. */
export const decodeOffset = (cursor: string | undefined): number =>
  decodeCursor(
    cursor,
    (v): v is { o: number } =>
      isObject(v) &&
      Object.keys(v).length === 1 &&
      Number.isSafeInteger(v.o) &&
      (v.o as number) >= 0 &&
      (v.o as number) <= MAX_CURSOR_OFFSET,
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

/** A query to page by keyset, its timestamp and id columns (named with their table where it joins), the cursor. */
type KeysetArgs<DB, TB extends keyof DB, O> = [
  qb: SelectQueryBuilder<DB, TB, O>,
  at: StringReference<DB, TB>,
  id: StringReference<DB, TB>,
  cursor: KeysetCursor | undefined,
];

/** Order a query by (`at`, `id`), both descending or both ascending, and start it after `cursor`. */
function keysetAfter<DB, TB extends keyof DB, O>(
  direction: "desc" | "asc",
  ...[qb, at, id, cursor]: KeysetArgs<DB, TB, O>
): SelectQueryBuilder<DB, TB, O> {
  const atRef = sql.ref<string>(at);
  const idRef = sql.ref<string>(id);
  const past = direction === "desc" ? "<" : ">";
  const after = cursor
    ? qb.where((eb) =>
        eb.or([
          eb(atRef, past, cursor.createdAt),
          eb.and([eb(atRef, "=", cursor.createdAt), eb(idRef, past, cursor.id)]),
        ]),
      )
    : qb;
  return after.orderBy(atRef, direction).orderBy(idRef, direction);
}

/**
 * Order a query newest first by (`at` desc, `id` desc) and start it after `cursor`: the query side of keyset
 * paging, whose page `keysetPage` cuts. Name the columns with their table where the query joins.
 */
export const newestAfter = <DB, TB extends keyof DB, O>(...args: KeysetArgs<DB, TB, O>) => keysetAfter("desc", ...args);

/**
 * One page of a queue worked from the oldest end (reports, edit suggestions): the query ordered oldest first by
 * (`at` asc, `id` asc) and started after the handed-out `cursor`, cut to `limit` rows with the cursor for the next
 * page (`keysetPage`, from the last row's `rowAt`).
 */
export async function oldestFirstPage<DB, TB extends keyof DB, O extends { id: string }>(
  qb: SelectQueryBuilder<DB, TB, O>,
  at: StringReference<DB, TB>,
  id: StringReference<DB, TB>,
  cursor: string | undefined,
  limit: number,
  rowAt: (row: O) => string | Date,
): Promise<{ page: O[]; nextCursor: string | null }> {
  const rows: O[] = await keysetAfter("asc", qb, at, id, decodeKeyset(cursor))
    .limit(limit + 1)
    .execute();
  return keysetPage(rows, limit, rowAt);
}

// The soak's end state, read from the SQLite file opened read-only after the server stopped: the invariants of
// apps/server/src/test/consistency.ts (vote counters equal the counted votes, points equal the ledger, a song's
// verification paid once) and bench:api's counters (favourites, follows, uploads, search rows, foreign keys).
import SQLite from "better-sqlite3";
import { type Check, checkCounters } from "./api-check.js";
import type { Sql } from "./api-db.js";

/** The database file opened read-only, as bench:api's plain SQL. */
export function readOnlySql(file: string): Sql {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  return {
    query: async <T>(text: string) => db.prepare(text).all() as T[],
    close: async () => void db.close(),
  };
}

/** consistency.ts's three checks, as SQL counts of the offending rows. */
const CONSISTENCY: [string, string][] = [
  [
    "song.upvotes / downvotes = its counted vote rows (consistency.ts)",
    `select count(*) as n from song s
      where s.upvotes != (select count(*) from vote v where v.song_id = s.id and v.value = 1 and v.counted = 1)
         or s.downvotes != (select count(*) from vote v where v.song_id = s.id and v.value = -1 and v.counted = 1)`,
  ],
  [
    "user.points = sum of their points_ledger (consistency.ts)",
    `select count(*) as n from "user" u
      where u.points != coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`,
  ],
  [
    "song_verified paid at most once per song (consistency.ts)",
    `select count(*) as n from (select ref from points_ledger where reason = 'song_verified'
      group by ref having count(*) > 1)`,
  ],
];

/**
 * Every invariant of the database. bench:api's own vote check counts every vote row; here only counted votes
 * count (the server's rule), so that one is replaced by consistency.ts's.
 */
export async function soakInvariants(sql: Sql, serverStartedAt: number): Promise<Check[]> {
  const out: Check[] = [];
  for (const [name, text] of CONSISTENCY) {
    const n = Number((await sql.query<{ n: number }>(text))[0]?.n ?? -1);
    out.push({ name, ok: n === 0, detail: `${n} mismatch${n === 1 ? "" : "es"}` });
  }
  const counters = await checkCounters(sql, "sqlite", serverStartedAt);
  return [...out, ...counters.filter((c) => !c.name.startsWith("song.upvotes / downvotes"))];
}

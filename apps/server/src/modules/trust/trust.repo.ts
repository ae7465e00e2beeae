import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema.js";

type Db = Kysely<DB>;

/** Where each capped kind is kept, the column naming who made it, and when. */
const MADE_BY = {
  votes: ["vote", "user_id", "created_at"],
  reports: ["report", "user_id", "created_at"],
  uploads: ["song", "submitted_by", "created_at"],
  suggestions: ["edit_suggestion", "submitted_by", "submitted_at"],
} as const;

/** SQL for a member's record (decisions 014, 015): every figure is counted from rows, never kept as a counter. */
export const trustRepo = {
  member(db: Db, userId: string) {
    return db
      .selectFrom("user")
      .select(["role", "email_verified", "created_at", "votes_discounted"])
      .where("id", "=", userId)
      .executeTakeFirst();
  },

  /**
   * Accepted contributions: verified uploads, approved edit suggestions, and upvotes that helped verify a song.
   * An upvote helped when it counted and was last changed (cast, or started counting) no later than the song
   * verified, and the song is still verified and not a fake leak (issue 24: upvotes on songs already verified
   * matched nothing and cost nothing, so they farmed a record in seconds). Each kind is counted up to `cap` only
   * (the rules need no more), so an active member's vote stays cheap.
   */
  async accepted(db: Db, userId: string, cap: number): Promise<number> {
    if (cap <= 0) return 0;
    const row = await sql<{ n: number | string }>`
      select
        (select count(*) from (select 1 from song s where s.submitted_by = ${userId} and s.status = 'verified' limit ${cap}) a)
      + (select count(*) from (select 1 from edit_suggestion e where e.submitted_by = ${userId} and e.status = 'approved' limit ${cap}) b)
      + (select count(*) from (select 1 from vote v join song s on s.id = v.song_id
          where v.user_id = ${userId} and v.value = 1 and v.counted
            and s.status = 'verified' and s.fake_at is null and v.updated_at <= s.verified_at
            and (s.submitted_by is null or s.submitted_by <> ${userId}) limit ${cap}) c) as n`.execute(db);
    return Math.min(cap, Number(row.rows[0]?.n ?? 0));
  },

  /** Strikes: upvotes on songs resolved as fake leaks, and uploads of theirs that a report was upheld against. */
  async strikes(db: Db, userId: string): Promise<number> {
    const row = await sql<{ n: number | string }>`
      select
        (select count(*) from vote v join song s on s.id = v.song_id
          where v.user_id = ${userId} and v.value = 1 and s.fake_at is not null)
      + (select count(distinct r.song_id) from report r join song s on s.id = r.song_id
          where s.submitted_by = ${userId} and r.status = 'resolved') as n`.execute(db);
    return Number(row.rows[0]?.n ?? 0);
  },

  /** How many votes, reports, uploads or suggestions a member made since `since`, and when the oldest was. */
  async madeSince(
    db: Db,
    kind: keyof typeof MADE_BY,
    userId: string,
    since: string,
  ): Promise<{ n: number; oldest: string | null }> {
    const [table, owner, at] = MADE_BY[kind];
    const res = await sql<{ n: number | string; oldest: string | Date | null }>`
      select count(*) as n, min(${sql.ref(at)}) as oldest from ${sql.table(table)}
      where ${sql.ref(owner)} = ${userId} and ${sql.ref(at)} >= ${since}`.execute(db);
    const row = res.rows[0];
    const oldest = row?.oldest ?? null;
    return { n: Number(row?.n ?? 0), oldest: oldest === null ? null : new Date(oldest).toISOString() };
  },
};

import { type Kysely, type SqlBool, sql } from "kysely";

import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { newestAfter } from "../../lib/cursor.js";
import { newId } from "../../lib/ids.js";
import { nowIso } from "../../lib/time.js";

type Db = Kysely<DB>;

/** SQL for votes, song counters and the points ledger. */
export function createVotesRepo(database: Database) {
  const { dialect } = database;
  return {
    /** Read the song and hold it until the transaction ends (PostgreSQL row lock; SQLite's IMMEDIATE already serialises). */
    lockSong(trx: Db, songId: string) {
      let q = trx
        .selectFrom("song")
        .select(["id", "status", "upvotes", "downvotes", "verified_at", "submitted_by", "is_hidden", "created_at"])
        .where("id", "=", songId);
      if (dialect === "postgres") q = q.forUpdate();
      return q.executeTakeFirst();
    },

    findVote(trx: Db, songId: string, userId: string) {
      return trx
        .selectFrom("vote")
        .select(["value", "reason", "details", "counted"])
        .where("song_id", "=", songId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },

    async putVote(
      trx: Db,
      v: {
        songId: string;
        userId: string;
        value: 1 | -1;
        reason: string | null;
        details: string | null;
        counted: boolean;
      },
    ) {
      const now = nowIso();
      await trx
        .insertInto("vote")
        .values({
          song_id: v.songId,
          user_id: v.userId,
          value: v.value,
          reason: v.reason,
          details: v.details,
          counted: v.counted,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["song_id", "user_id"]).doUpdateSet({
            value: v.value,
            reason: v.reason,
            details: v.details,
            counted: v.counted,
            updated_at: now,
          }),
        )
        .execute();
    },

    async deleteVote(trx: Db, songId: string, userId: string) {
      await trx.deleteFrom("vote").where("song_id", "=", songId).where("user_id", "=", userId).execute();
    },

    /** A song's counted up- and downvotes, from its rows. */
    async countedVotes(trx: Db, songId: string): Promise<{ up: number; down: number }> {
      const rows = await trx
        .selectFrom("vote")
        .select(["value", sql<number>`count(*)`.as("n")])
        .where("song_id", "=", songId)
        .where("counted", "=", true)
        .groupBy("value")
        .execute();
      const n = (v: number) => Number(rows.find((r) => Number(r.value) === v)?.n ?? 0);
      return { up: n(1), down: n(-1) };
    },

    /** Mark whether one vote counts. */
    async setCounted(trx: Db, songId: string, userId: string, counted: boolean) {
      await trx
        .updateTable("vote")
        .set({ counted })
        .where("song_id", "=", songId)
        .where("user_id", "=", userId)
        .execute();
    },

    /** A voter's votes whose counting differs from `counted`. */
    votesToFlip(db: Db, userId: string, counted: boolean) {
      return db
        .selectFrom("vote")
        .select("song_id")
        .where("user_id", "=", userId)
        .where("counted", "=", !counted)
        .execute();
    },

    /** Voters with votes that do not count yet (the periodic recount checks whether they now may). */
    async uncountedVoters(db: Db): Promise<string[]> {
      const rows = await db.selectFrom("vote").select("user_id").distinct().where("counted", "=", false).execute();
      return rows.map((r) => r.user_id);
    },

    /** Pending songs over the threshold held back only by their open period, which has ended by `before`. */
    async contestedDue(db: Db, threshold: number, before: string): Promise<string[]> {
      const rows = await db
        .selectFrom("song")
        .select("id")
        .where("status", "=", "pending")
        .where("downvotes", ">", 0)
        .where(sql<SqlBool>`upvotes - downvotes >= ${threshold}`)
        .where("created_at", "<=", before)
        .execute();
      return rows.map((r) => r.id);
    },

    async setCounters(
      trx: Db,
      songId: string,
      c: { upvotes: number; downvotes: number; status: string; verifiedAt: string | null; verifiedBy?: string | null },
    ) {
      await trx
        .updateTable("song")
        .set({
          upvotes: c.upvotes,
          downvotes: c.downvotes,
          status: c.status,
          verified_at: c.verifiedAt,
          ...(c.verifiedBy !== undefined ? { verified_by: c.verifiedBy } : {}),
          updated_at: nowIso(),
        })
        .where("id", "=", songId)
        .execute();
    },

    /** Add a ledger row and move the user's points with it. */
    async award(trx: Db, userId: string, delta: number, reason: string, ref: string) {
      await trx
        .insertInto("points_ledger")
        .values({ id: newId(), user_id: userId, delta, reason, ref, created_at: nowIso() })
        .execute();
      await trx
        .updateTable("user")
        .set({ points: sql`points + ${delta}` })
        .where("id", "=", userId)
        .execute();
    },

    /** The +200 for a song's first verification, at most once per song (a unique index backs this). Returns true if paid now. */
    async awardFirstVerification(trx: Db, submitterId: string, songId: string, amount: number): Promise<boolean> {
      const res = await trx
        .insertInto("points_ledger")
        .values({
          id: newId(),
          user_id: submitterId,
          delta: amount,
          reason: "song_verified",
          ref: songId,
          created_at: nowIso(),
        })
        // The conflict target must repeat the partial index's predicate literally (not as a parameter).
        .onConflict((oc) => oc.column("ref").where(sql<SqlBool>`reason = 'song_verified'`).doNothing())
        .executeTakeFirst();
      const paid = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
      if (paid)
        await trx
          .updateTable("user")
          .set({ points: sql`points + ${amount}` })
          .where("id", "=", submitterId)
          .execute();
      return paid;
    },

    /** Pending, visible songs for the verification grid, newest first. */
    pendingIds(db: Db, cursor: { createdAt: string; id: string } | undefined, limit: number) {
      const query = db.selectFrom("song").selectAll().where("status", "=", "pending").where("is_hidden", "=", false);
      return newestAfter(query, "created_at", "id", cursor).limit(limit).execute();
    },

    pendingForVerifyAll(trx: Db) {
      return trx
        .selectFrom("song")
        .select(["id", "submitted_by"])
        .where("status", "=", "pending")
        .where("is_hidden", "=", false)
        .execute();
    },
  };
}

/** The votes repo type. */
export type VotesRepo = ReturnType<typeof createVotesRepo>;

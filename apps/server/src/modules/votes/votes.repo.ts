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
        .select([
          "id",
          "status",
          "upvotes",
          "downvotes",
          "verified_at",
          "submitted_by",
          "is_hidden",
          "created_at",
          "fake_at",
        ])
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
        /** Where the vote came from (kept from the first vote; decision 015). */
        ipPrefix: string | null;
        device: string | null;
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
          ip_prefix: v.ipPrefix,
          device: v.device,
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

    /** Mark whether one vote counts; the change dates the vote (a vote that starts counting after its song verified did not help verify it). */
    async setCounted(trx: Db, songId: string, userId: string, counted: boolean) {
      await trx
        .updateTable("vote")
        .set({ counted, updated_at: nowIso() })
        .where("song_id", "=", songId)
        .where("user_id", "=", userId)
        .execute();
    },

    /** A voter's votes whose counting differs from `counted` (votes on fake leaks never count again). */
    votesToFlip(db: Db, userId: string, counted: boolean) {
      return db
        .selectFrom("vote")
        .innerJoin("song", "song.id", "vote.song_id")
        .select("vote.song_id")
        .where("vote.user_id", "=", userId)
        .where("vote.counted", "=", !counted)
        .where("song.fake_at", "is", null)
        .execute();
    },

    /** Voters with votes that do not count yet (the periodic recount checks whether they now may). */
    async uncountedVoters(db: Db): Promise<string[]> {
      const rows = await db
        .selectFrom("vote")
        .innerJoin("song", "song.id", "vote.song_id")
        .innerJoin("user", "user.id", "vote.user_id")
        .select("vote.user_id")
        .distinct()
        .where("vote.counted", "=", false)
        .where("song.fake_at", "is", null)
        .where("user.votes_discounted", "=", false)
        .execute();
      return rows.map((r) => r.user_id);
    },

    /** Counted upvotes on a song (the backers of a fake leak lose their point). */
    async countedUpvoters(trx: Db, songId: string): Promise<string[]> {
      const rows = await trx
        .selectFrom("vote")
        .select("user_id")
        .where("song_id", "=", songId)
        .where("value", "=", 1)
        .where("counted", "=", true)
        .execute();
      return rows.map((r) => r.user_id);
    },

    /** Mark a song as a fake leak: hidden, pending again, with who resolved it and when. */
    async markFake(trx: Db, songId: string, by: string) {
      const now = nowIso();
      await trx
        .updateTable("song")
        .set({ fake_at: now, fake_by: by, is_hidden: true, updated_at: now })
        .where("id", "=", songId)
        .execute();
    },

    /** What a member earned for verifying a song: the +200 paid, less anything already taken back. */
    async verificationPaid(trx: Db, userId: string, songId: string): Promise<number> {
      const row = await trx
        .selectFrom("points_ledger")
        .select(sql<number | string>`coalesce(sum(delta), 0)`.as("n"))
        .where("user_id", "=", userId)
        .where("ref", "=", songId)
        .where("reason", "in", ["song_verified", "song_fake"])
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** A song's uploader, or undefined when there is no such song. */
    async uploaderOf(db: Db, songId: string) {
      const row = await db
        .selectFrom("song")
        .leftJoin("user", "user.id", "song.submitted_by")
        .select(["song.id", "user.id as uploader_id", "user.username"])
        .where("song.id", "=", songId)
        .executeTakeFirst();
      if (!row) return undefined;
      return { uploader: row.uploader_id ? { id: row.uploader_id, username: row.username ?? "" } : null };
    },

    /** Everyone who voted on a song, with what the ring view needs about each (decision 015). */
    voters(db: Db, songId: string) {
      return db
        .selectFrom("vote")
        .innerJoin("user", "user.id", "vote.user_id")
        .select([
          "user.id",
          "user.username",
          "user.created_at as account_created_at",
          "user.votes_discounted",
          "user.signup_ip_prefix",
          "user.signup_device",
          "vote.value",
          "vote.counted",
          "vote.created_at",
          "vote.ip_prefix",
          "vote.device",
        ])
        .where("vote.song_id", "=", songId)
        .orderBy("vote.created_at", "asc")
        .limit(1000)
        .execute();
    },

    /** Per voter: how many other songs by `uploaderId` they upvoted. */
    async uploaderUpvotes(db: Db, uploaderId: string, songId: string, voterIds: string[]) {
      if (voterIds.length === 0) return new Map<string, number>();
      const rows = await db
        .selectFrom("vote")
        .innerJoin("song", "song.id", "vote.song_id")
        .select(["vote.user_id", sql<number | string>`count(*)`.as("n")])
        .where("song.submitted_by", "=", uploaderId)
        .where("song.id", "<>", songId)
        .where("vote.value", "=", 1)
        .where("vote.user_id", "in", voterIds)
        .groupBy("vote.user_id")
        .execute();
      return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
    },

    /** Set whether an admin discounted a member's votes. Returns false if there is no such member. */
    async setDiscounted(db: Db, userId: string, discounted: boolean): Promise<boolean> {
      const res = await db
        .updateTable("user")
        .set({ votes_discounted: discounted })
        .where("id", "=", userId)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
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

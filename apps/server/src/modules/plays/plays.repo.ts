import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";

type Db = Kysely<DB>;

const SONG_COLUMNS = ["id", "status", "is_hidden", "submitted_by", "audio_key", "duration_sec", "play_count"] as const;

/** SQL of counted plays (decision 027). */
export function createPlaysRepo(database: Database) {
  const { db, dialect } = database;
  return {
    /** What a play needs of a song: who may see it, whether it has audio, its length and its count. */
    song(id: string) {
      return db.selectFrom("song").select(SONG_COLUMNS).where("id", "=", id).executeTakeFirst();
    },

    /**
     * The same, held until the transaction ends: on PostgreSQL a row lock, so concurrent reports of one song take
     * turns through the check and the insert below (SQLite's BEGIN IMMEDIATE already serialises every writer).
     */
    lockSong(trx: Db, id: string) {
      let q = trx.selectFrom("song").select(SONG_COLUMNS).where("id", "=", id);
      if (dialect === "postgres") q = q.forUpdate();
      return q.executeTakeFirst();
    },

    /** Whether `listener` has a counted play of the song after `since` (song_play_listener_idx). */
    async playedSince(trx: Db, songId: string, listener: string, since: string): Promise<boolean> {
      const row = await trx
        .selectFrom("song_play")
        .select("id")
        .where("song_id", "=", songId)
        .where("listener", "=", listener)
        .where("created_at", ">", since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Count a play: its row, and the song's counters with it in the same transaction. The new play count. */
    async insert(trx: Db, songId: string, listener: string, at: string): Promise<number> {
      await trx.insertInto("song_play").values({ id: newId(), song_id: songId, listener, created_at: at }).execute();
      const row = await trx
        .updateTable("song")
        .set({ play_count: sql`play_count + 1`, week_plays: sql`week_plays + 1` })
        .where("id", "=", songId)
        .returning("play_count")
        .executeTakeFirstOrThrow();
      return Number(row.play_count);
    },
  };
}

/** The plays repo type. */
export type PlaysRepo = ReturnType<typeof createPlaysRepo>;

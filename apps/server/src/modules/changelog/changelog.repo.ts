import type { Kysely } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { type KeysetCursor, newestAfter } from "../../lib/cursor.js";
import type { Audience } from "../songs/visibility.js";

type Db = Kysely<DB>;

/** A changelog row as stored, to insert. */
export type ChangeRow = {
  id: string;
  artist_id: string;
  song_id: string | null;
  kind: string;
  summary: string;
  source: string;
  batch_id: string | null;
  created_at: string;
};

/** SQL of the artists' changelogs. */
export function createChangelogRepo(database: Database) {
  const { db } = database;
  return {
    /** Insert lines, many per statement. */
    async insert(trx: Db, rows: ChangeRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto("artist_change")
          .values(rows.slice(i, i + 500))
          .execute();
      }
    },

    /**
     * A page of lines, newest first: one artist's or everyone's, only of songs the asker may see (the rule of
     * visibility.ts: visitors and waitlisted accounts verified songs, members pending ones too, admins all).
     */
    page(filter: { artistId?: string }, audience: Audience, cursor: KeysetCursor | undefined, limit: number) {
      let q = db
        .selectFrom("artist_change")
        .innerJoin("user as artist", "artist.id", "artist_change.artist_id")
        .leftJoin("song", "song.id", "artist_change.song_id")
        .select([
          "artist_change.id",
          "artist_change.kind",
          "artist_change.summary",
          "artist_change.source",
          "artist_change.created_at",
          "artist_change.song_id",
          "song.title as song_title",
          "artist.id as artist_id",
          "artist.username as artist_name",
        ]);
      if (filter.artistId) q = q.where("artist_change.artist_id", "=", filter.artistId);
      if (!audience?.isAdmin) {
        q = q.where("song.is_hidden", "=", false);
        if (!audience || audience.waitlisted) q = q.where("song.status", "=", "verified");
      }
      return newestAfter(q, "artist_change.created_at", "artist_change.id", cursor)
        .limit(limit + 1)
        .execute();
    },
  };
}

/** The changelog repo type. */
export type ChangelogRepo = ReturnType<typeof createChangelogRepo>;

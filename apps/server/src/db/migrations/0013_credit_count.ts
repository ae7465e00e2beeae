import { type Kysely, sql } from "kysely";

/**
 * user.upload_count was never a member's uploads: it counts the songs credited to an artist (song_artist rows,
 * spec §7 "uploadCount increment on each artist"), yet /api/me showed it as the member's uploadCount, so a
 * member who uploaded 31 songs saw "Uploads 0" (issue 25). The column takes the name of what it holds; a
 * member's uploads are counted from song.submitted_by when read (song_submitted_by_idx, 0001, answers that).
 * Recounted from the credits on the way, so an old database starts out equal to its rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").renameColumn("upload_count", "credit_count").execute();
  await sql`update "user" set credit_count = (select count(*) from song_artist sa where sa.artist_id = "user".id)`.execute(
    db,
  );
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").renameColumn("credit_count", "upload_count").execute();
}

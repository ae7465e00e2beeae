import type { Kysely } from "kysely";

/**
 * An index on song.audio_match_song_id (issue 16, bulk import undo). The column references song.id with
 * ON DELETE SET NULL, so every song deleted made both databases scan the whole song table for rows naming it:
 * undoing a 10,000-song import took about a minute on SQLite. With the index each deletion is a lookup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("song_audio_match_idx").on("song").column("audio_match_song_id").execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("song_audio_match_idx").execute();
}

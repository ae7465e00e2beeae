import type { Kysely } from "kysely";

/**
 * Two reads on every vote chose the wrong index (issue 26). Without statistics SQLite picks between indexes that
 * each match one column by equality as if they were alike, and took the low-cardinality one:
 * - A song's counted votes (votes.repo countedVotes: song_id = ? and counted = 1) went through vote_uncounted_idx
 *   (counted, user_id), reading every counted vote in the catalogue.
 * - A member's accepted contributions (trust.repo accepted: submitted_by = ? and status = 'verified' / 'approved')
 *   went through the status indexes, reading every verified song (about 25 ms at 80,000) or approved suggestion.
 * At 300,000 votes the vote benchmark fell from 404 to 3 requests/s. Indexes that match both conditions by
 * equality win on both engines, and answer from the member's or the song's own few entries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("vote_song_counted_idx").on("vote").columns(["song_id", "counted", "value"]).execute();
  await db.schema.createIndex("song_submitter_status_idx").on("song").columns(["submitted_by", "status"]).execute();
  await db.schema
    .createIndex("edit_suggestion_submitter_status_idx")
    .on("edit_suggestion")
    .columns(["submitted_by", "status"])
    .execute();
}

/** Drop them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("edit_suggestion_submitter_status_idx").execute();
  await db.schema.dropIndex("song_submitter_status_idx").execute();
  await db.schema.dropIndex("vote_song_counted_idx").execute();
}

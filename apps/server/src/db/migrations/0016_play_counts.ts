import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/**
 * Listening counts (issue 29, decision 027). A counted play is a row of `song_play`: the song, a keyed hash of the
 * listener (a member's id or a visitor's network, never the id or address itself, and no key to the user table,
 * so rows outlive accounts and name no one) and when it counted. `song.play_count` and `song.week_plays` (plays of
 * the last 7 days; aged-out plays taken off by the trending refresh) move with each row in its transaction.
 * Trending breaks ties between equal week likes by week plays. song_trending_idx (status, is_hidden, week_likes)
 * still finds the week's liked songs; they are sorted by plays and release date as they already were by release date
 * (a wider index, made after song_submitter_status_idx, won PostgreSQL's tie on a member's accepted uploads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("song_play")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("listener", "text", (c) => c.notNull())
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  // The once-an-hour check: this listener's latest plays of this song.
  await db.schema
    .createIndex("song_play_listener_idx")
    .on("song_play")
    .columns(["song_id", "listener", "created_at"])
    .execute();
  // The trending refresh: the songs played in the last days, without reading every play.
  await db.schema.createIndex("song_play_created_idx").on("song_play").columns(["created_at", "song_id"]).execute();
  const song = () => db.schema.alterTable("song");
  await song()
    .addColumn("play_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await song()
    .addColumn("week_plays", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("song").dropColumn("week_plays").execute();
  await db.schema.alterTable("song").dropColumn("play_count").execute();
  await db.schema.dropTable("song_play").execute();
}

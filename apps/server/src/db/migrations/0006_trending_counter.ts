import { type Kysely, sql } from "kysely";

/**
 * Likes of the last 7 days kept on the song, so trending reads its page from an index instead of counting a
 * week of likes per request (which grows with the site). Each like and unlike moves it in the same
 * transaction; a periodic refresh takes likes that have aged out of the week back off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("song")
    .addColumn("week_likes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
  await sql`update song set week_likes = (select count(*) from favorite f where f.song_id = song.id and f.created_at >= ${weekAgo}) where id in (select song_id from favorite where created_at >= ${weekAgo})`.execute(
    db,
  );
  await db.schema.createIndex("song_trending_idx").on("song").columns(["status", "is_hidden", "week_likes"]).execute();
  // Trending no longer joins a week of likes to songs by id.
  await db.schema.dropIndex("song_rank_idx").execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("song_rank_idx")
    .on("song")
    .columns(["id", "status", "is_hidden", "genre", "release_date"])
    .execute();
  await db.schema.dropIndex("song_trending_idx").execute();
  await db.schema.alterTable("song").dropColumn("week_likes").execute();
}

import { type Kysely, sql } from "kysely";
import { isPostgres } from "../column-types.js";

/** Song search (FTS5 trigram on SQLite, pg_trgm on PostgreSQL) and the indexes the feeds read from. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Title and artist names, lower-cased and stripped of accents by the app, kept in step with the song.
  await db.schema
    .alterTable("song")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  if (isPostgres(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index song_search_trgm_idx on song using gin (search_text gin_trgm_ops)`.execute(db);
  } else {
    await sql`create virtual table song_fts using fts5(song_id unindexed, search_text, tokenize = 'trigram')`.execute(
      db,
    );
  }
  await db.schema
    .createIndex("song_status_genre_created_idx")
    .on("song")
    .columns(["status", "genre", "created_at", "id"])
    .execute();
  await db.schema.createIndex("favorite_user_created_idx").on("favorite").columns(["user_id", "created_at"]).execute();
}

/** Remove the search structures and feed indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("favorite_user_created_idx").execute();
  await db.schema.dropIndex("song_status_genre_created_idx").execute();
  if (isPostgres(db)) await sql`drop index song_search_trgm_idx`.execute(db);
  else await sql`drop table song_fts`.execute(db);
  await db.schema.alterTable("song").dropColumn("search_text").execute();
}

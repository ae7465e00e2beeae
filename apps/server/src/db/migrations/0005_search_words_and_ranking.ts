import { type Kysely, sql } from "kysely";
import { searchWords } from "../../lib/search-text.js";
import { isPostgres } from "../column-types.js";

/**
 * Search vocabulary and a covering index for trending. A typo search used to OR every trigram of the query
 * over all songs and rank every hit, which grows with the catalogue; it now corrects each word against the
 * vocabulary (which grows far slower) and asks the song index only for songs holding the corrected words.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("search_word")
    .addColumn("word", "text", (c) => c.primaryKey())
    .execute();
  if (isPostgres(db)) {
    await sql`create index search_word_trgm_idx on search_word using gin (word gin_trgm_ops)`.execute(db);
  } else {
    await sql`create virtual table search_word_fts using fts5(word, tokenize = 'trigram')`.execute(db);
    // Whole words of each song: a corrected word is one posting list here, not six trigram lists.
    await sql`create virtual table song_words_fts using fts5(song_id unindexed, search_text, tokenize = 'unicode61')`.execute(
      db,
    );
    await sql`insert into song_words_fts (song_id, search_text) select id, search_text from song`.execute(db);
  }
  // Existing songs' words, in batches.
  const rows = await sql<{ search_text: string }>`select search_text from song`.execute(db);
  const words = [...new Set(rows.rows.flatMap((r) => searchWords(r.search_text)))];
  for (let i = 0; i < words.length; i += 500) {
    const batch = words.slice(i, i + 500);
    await sql`insert into search_word (word) values ${sql.join(batch.map((w) => sql`(${w})`))}`.execute(db);
    if (!isPostgres(db))
      await sql`insert into search_word_fts (word) values ${sql.join(batch.map((w) => sql`(${w})`))}`.execute(db);
  }
  // Trending joins the week's likes to songs by id and filters on these: an index-only lookup per song.
  await db.schema
    .createIndex("song_rank_idx")
    .on("song")
    .columns(["id", "status", "is_hidden", "genre", "release_date"])
    .execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("song_rank_idx").execute();
  if (!isPostgres(db)) {
    await sql`drop table song_words_fts`.execute(db);
    await sql`drop table search_word_fts`.execute(db);
  }
  await db.schema.dropTable("search_word").execute();
}

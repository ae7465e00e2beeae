import { type Kysely, sql } from "kysely";
import { searchNormalize, searchWords } from "../../lib/search-text.js";
import { isPostgres } from "../column-types.js";

/**
 * The first search design's tables (0002, 0005) go: song.search_text with its trigram index (PostgreSQL) or FTS5
 * tables song_fts and song_words_fts (SQLite), and the vocabulary search_word (with search_word_fts on SQLite).
 * Search is an in-memory index built from the songs themselves (decision 024); nothing read these, yet every
 * song write kept them (issue 38).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // The trigram indexes go with their column and table; pg_trgm stays (dropping an extension is an admin's call).
    await sql`drop table search_word`.execute(db);
  } else {
    for (const table of ["song_fts", "song_words_fts", "search_word_fts", "search_word"])
      await sql`drop table ${sql.table(table)}`.execute(db);
  }
  await db.schema.alterTable("song").dropColumn("search_text").execute();
}

/** Put the tables back, filled from the songs as the old writers kept them (title, then credits in order). */
export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .alterTable("song")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .createTable("search_word")
    .addColumn("word", "text", (c) => c.primaryKey())
    .execute();
  if (pg) {
    await sql`create index song_search_trgm_idx on song using gin (search_text gin_trgm_ops)`.execute(db);
    await sql`create index search_word_trgm_idx on search_word using gin (word gin_trgm_ops)`.execute(db);
  } else {
    await sql`create virtual table song_fts using fts5(song_id unindexed, search_text, tokenize = 'trigram')`.execute(
      db,
    );
    await sql`create virtual table search_word_fts using fts5(word, tokenize = 'trigram')`.execute(db);
    await sql`create virtual table song_words_fts using fts5(song_id unindexed, search_text, tokenize = 'unicode61')`.execute(
      db,
    );
  }
  const credits = await sql<{ id: string; title: string; name: string | null }>`
    select s.id, s.title, u.username as name from song s
    left join song_artist sa on sa.song_id = s.id left join "user" u on u.id = sa.artist_id
    order by s.id, sa.position`.execute(db);
  const texts = new Map<string, string[]>();
  for (const r of credits.rows) {
    const parts = texts.get(r.id) ?? [r.title];
    if (r.name !== null) parts.push(r.name);
    texts.set(r.id, parts);
  }
  const rows = [...texts].map(([id, parts]) => ({ id, text: searchNormalize(parts.join(" ")) }));
  const words = new Set<string>();
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    for (const r of batch) {
      await sql`update song set search_text = ${r.text} where id = ${r.id}`.execute(db);
      for (const w of searchWords(r.text)) words.add(w);
    }
    if (!pg) {
      const values = sql.join(batch.map((r) => sql`(${r.id}, ${r.text})`));
      await sql`insert into song_fts (song_id, search_text) values ${values}`.execute(db);
      await sql`insert into song_words_fts (song_id, search_text) values ${values}`.execute(db);
    }
  }
  const list = [...words];
  for (let i = 0; i < list.length; i += 500) {
    const values = sql.join(list.slice(i, i + 500).map((w) => sql`(${w})`));
    await sql`insert into search_word (word) values ${values}`.execute(db);
    if (!pg) await sql`insert into search_word_fts (word) values ${values}`.execute(db);
  }
}

import { type Kysely, sql } from "kysely";
import { nameKey } from "../../lib/text.js";
import { isPostgres } from "../column-types.js";

/**
 * Name keys fold look-alikes (issue 24, decision 022): nameKey now drops invisible characters and folds Cyrillic
 * and Greek twins of Latin letters, so 'аdmin' (Cyrillic а) and 'admin' have one key. Keys stored before are
 * recomputed. Only names with a character outside printable ASCII can change, so only those rows are read. A
 * username whose new key another account already holds keeps its name but not the key: it moves to
 * `<key>#<id>`, as ensureArtist moves a member's key aside for an artist (the account holding the plain key,
 * artist or earlier member, keeps it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const nonAscii = (column: string) =>
    isPostgres(db) ? sql`${sql.ref(column)} ~ '[^ -~]'` : sql`${sql.ref(column)} glob '*[^ -~]*'`;

  const users = await sql<{ id: string; username: string; username_key: string; is_artist: boolean | number }>`
    select id, username, username_key, is_artist from "user" where ${nonAscii("username")}
    order by is_artist desc, created_at, id`.execute(db);
  for (const u of users.rows) {
    const key = nameKey(u.username);
    if (key === u.username_key) continue;
    const holder = await sql<{ id: string }>`select id from "user" where username_key = ${key}`.execute(db);
    const next = holder.rows.length > 0 ? `${key}#${u.id}` : key;
    await sql`update "user" set username_key = ${next} where id = ${u.id}`.execute(db);
  }

  const songs = await sql<{ id: string; title: string; title_key: string }>`
    select id, title, title_key from song where ${nonAscii("title")}`.execute(db);
  for (const s of songs.rows) {
    const key = nameKey(s.title);
    if (key !== s.title_key) await sql`update song set title_key = ${key} where id = ${s.id}`.execute(db);
  }
}

/** Keys stay folded: the old keys are not kept (a look-alike name matches its twin either way). */
export async function down(_db: Kysely<unknown>): Promise<void> {}

import { type Insertable, type Kysely, sql } from "kysely";
import { expect, it } from "vitest";
import { newId } from "../lib/ids.js";
import { nowIso } from "../lib/time.js";
import { describeEachDialect, useTestDatabase } from "../test/harness.js";
import { migrateToLatest } from "./migrate.js";
import * as m0012 from "./migrations/0012_name_keys_fold_lookalikes.js";
import * as m0013 from "./migrations/0013_credit_count.js";
import * as m0017 from "./migrations/0017_fingerprint_hash_counts.js";
import * as m0019 from "./migrations/0019_drop_old_search_tables.js";
import type { DB } from "./schema.js";

const TABLES = [
  "account",
  "admin",
  "artist_change",
  "audit_log",
  "edit_suggestion",
  "era",
  "favorite",
  "fingerprint",
  "fingerprint_hash",
  "fingerprint_song",
  "fingerprint_triplet",
  "fingerprint_triplet_key",
  "follow",
  "import_batch",
  "import_change",
  "import_era_change",
  "import_mapping",
  "job",
  "notification",
  "notification_setting",
  "points_ledger",
  "rate_limit",
  "report",
  "session",
  "song",
  "song_artist",
  "song_history",
  "song_play",
  "tracker_link",
  "tracker_link_row",
  "user",
  "verification",
  "vote",
  "waitlist_approval",
  "waitlist_entry",
];

/** Insert a row made by `make`, then see a second one refused by a unique key. */
async function insertOnce<T extends keyof DB & string>(db: Kysely<DB>, table: T, make: () => Insertable<DB[T]>) {
  await db.insertInto(table).values(make()).execute();
  await expect(db.insertInto(table).values(make()).execute()).rejects.toThrow();
}

describeEachDialect("migrations", (dialect) => {
  const database = useTestDatabase(dialect);

  it("creates the whole data model, and a second run changes nothing", async () => {
    const tables = await database.db.introspection.getTables();
    // No FTS5 table (nor its shadow tables) is left: the old search tables went in migration 0019.
    const names = tables.map((t) => t.name).filter((n) => !n.startsWith("kysely_"));
    expect(names.sort()).toEqual(TABLES);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it("enforces the keys the rules rely on", async () => {
    const { db } = database;
    const now = nowIso();
    const user = (id: string) => ({
      id,
      name: id,
      email: `${id}@example.com`,
      created_at: now,
      updated_at: now,
      username: id,
      username_key: id,
      image: null,
      instagram: null,
      twitter: null,
      website: null,
    });
    await db
      .insertInto("user")
      .values([user("u1"), user("u2")])
      .execute();
    await expect(
      db
        .insertInto("user")
        .values({ ...user("u3"), username_key: "u1" })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("user")
        .values({ ...user("u4"), email: "u1@example.com" })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto("song")
      .values({
        id: "s1",
        title: "T",
        title_key: "t",
        genre: "Pop",
        release_date: null,
        soundcloud_url: null,
        submitted_by: "u1",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await expect(db.updateTable("song").set({ status: "weird" }).where("id", "=", "s1").execute()).rejects.toThrow();

    // One vote per user and song.
    const vote = {
      song_id: "s1",
      user_id: "u2",
      value: 1,
      reason: null,
      details: null,
      created_at: now,
      updated_at: now,
    };
    await db.insertInto("vote").values(vote).execute();
    await expect(
      db
        .insertInto("vote")
        .values({ ...vote, value: -1 })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("vote")
        .values({ ...vote, user_id: "u1", value: 2 })
        .execute(),
    ).rejects.toThrow();
    // One favourite per user and song.
    await insertOnce(db, "favorite", () => ({ song_id: "s1", user_id: "u2", created_at: now }));
    // One open report per user and song; closed ones do not count.
    const report = () => ({ id: newId(), song_id: "s1", user_id: "u2", reason: "duplicate", created_at: now });
    await insertOnce(db, "report", report);
    await db.updateTable("report").set({ status: "resolved" }).execute();
    await db.insertInto("report").values(report()).execute();
    // The verified-song bonus is paid once per song.
    await insertOnce(db, "points_ledger", () => ({
      id: newId(),
      user_id: "u1",
      delta: 200,
      reason: "song_verified",
      ref: "s1",
      created_at: now,
    }));
    // Deleting a song takes its votes and favourites with it.
    await db.deleteFrom("song").where("id", "=", "s1").execute();
    const left = await sql<{
      n: number;
    }>`select (select count(*) from vote) + (select count(*) from favorite) as n`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it("indexes the feeds", async () => {
    const tables = await database.db.introspection.getTables();
    expect(tables.find((t) => t.name === "fingerprint")).toBeDefined();
    const indexQuery =
      dialect === "sqlite"
        ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
        : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`;
    const names = (await indexQuery.execute(database.db)).rows.map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "song_status_created_idx",
        "song_genre_favs_idx",
        "song_title_key_idx",
        "favorite_created_idx",
        "song_artist_artist_idx",
        "fingerprint_hash_idx",
        "report_status_idx",
        "edit_suggestion_status_idx",
        "song_audio_match_idx",
      ]),
    );
  });

  it("covers fingerprint lookups: the hash index holds the rows it finds (migration 0011)", async () => {
    const columnsQuery =
      dialect === "sqlite"
        ? sql<{ name: string }>`select name from pragma_index_info('fingerprint_hash_idx') order by seqno`
        : sql<{ name: string }>`select a.attname as name from pg_index i
            join pg_class c on c.oid = i.indexrelid
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where c.relname = 'fingerprint_hash_idx' order by array_position(i.indkey::int2[], a.attnum)`;
    const columns = (await columnsQuery.execute(database.db)).rows.map((r) => r.name);
    expect(columns).toEqual(["hash", "song_id", "offset"]);
  });

  it("folds stored name keys: a look-alike username moves aside, titles fold (migration 0012)", async () => {
    const { db } = database;
    const now = nowIso();
    const user = (id: string, username: string, key: string, created: string) => ({
      id,
      name: username,
      email: `${id}@example.com`,
      created_at: created,
      updated_at: created,
      username,
      username_key: key,
    });
    const [real, fake, cyr] = [newId(), newId(), newId()];
    // Keys as the old nameKey made them: the Cyrillic а and the zero-width space were kept.
    await db
      .insertInto("user")
      .values([
        user(real, "mig0012admin", "mig0012admin", "2024-01-01T00:00:00.000Z"),
        user(fake, "mig0012\u0430dmin", "mig0012\u0430dmin", now),
        user(cyr, "Мир0012", "мир0012", now),
      ])
      .execute();
    const song = newId();
    await db
      .insertInto("song")
      .values({
        id: song,
        title: "Mig\u200bration Ѕong",
        title_key: "mig\u200bration ѕong",
        genre: "Pop",
        release_date: null,
        soundcloud_url: null,
        submitted_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await m0012.up(db as Kysely<unknown>);
    const keys = await db
      .selectFrom("user")
      .select(["id", "username_key"])
      .where("id", "in", [real, fake, cyr])
      .execute();
    const keyOf = (id: string) => keys.find((k) => k.id === id)?.username_key;
    expect(keyOf(real)).toBe("mig0012admin");
    expect(keyOf(fake)).toBe(`mig0012admin#${fake}`);
    expect(keyOf(cyr)).toBe("mиp0012");
    const row = await db.selectFrom("song").select("title_key").where("id", "=", song).executeTakeFirstOrThrow();
    expect(row.title_key).toBe("migration song");
  });

  it("keeps an artist's credits as credit_count, recounted from song_artist (migration 0013)", async () => {
    const { db } = database;
    const now = nowIso();
    await m0013.down(db as Kysely<unknown>);
    const [artist, song] = [newId(), newId()];
    // What the old column held may have drifted: the rename recounts it.
    await sql`insert into "user" (id, name, email, created_at, updated_at, username, username_key, upload_count)
      values (${artist}, 'Mig 0013', ${`${artist}@example.com`}, ${now}, ${now}, 'Mig 0013', ${`mig 0013 ${artist}`}, 5)`.execute(
      db,
    );
    await db
      .insertInto("song")
      .values({ id: song, title: "Mig 0013", title_key: "mig 0013", genre: "Pop", created_at: now, updated_at: now })
      .execute();
    await db.insertInto("song_artist").values({ song_id: song, artist_id: artist, position: 0 }).execute();
    await m0013.up(db as Kysely<unknown>);
    const row = await db.selectFrom("user").select("credit_count").where("id", "=", artist).executeTakeFirstOrThrow();
    expect(Number(row.credit_count)).toBe(1);
  });

  it("counts an existing catalogue's rows per hash, then keeps counting (migration 0017)", async () => {
    const { db } = database;
    const now = nowIso();
    await m0017.down(db as Kysely<unknown>);
    const song = newId();
    await db
      .insertInto("song")
      .values({ id: song, title: "Mig 0017", title_key: "mig 0017", genre: "Pop", created_at: now, updated_at: now })
      .execute();
    const row = (hash: number, offset: number) => ({ hash, song_id: song, offset });
    await db
      .insertInto("fingerprint")
      .values([row(70017, 1), row(70017, 2), row(70018, 3)])
      .execute();
    await m0017.up(db as Kysely<unknown>);
    const counts = async () =>
      (
        await db
          .selectFrom("fingerprint_hash")
          .select(["hash", "n"])
          .where("hash", "in", [70017, 70018])
          .orderBy("hash")
          .execute()
      ).map((r) => [Number(r.hash), Number(r.n)]);
    expect(await counts()).toEqual([
      [70017, 2],
      [70018, 1],
    ]);
    await db.insertInto("fingerprint").values(row(70018, 4)).execute();
    await db.deleteFrom("fingerprint").where("hash", "=", 70017).where("offset", "=", 1).execute();
    expect(await counts()).toEqual([
      [70017, 1],
      [70018, 2],
    ]);
  });

  it("drops the first search design's tables and song.search_text; down puts them back, filled (migration 0019)", async () => {
    const { db } = database;
    const now = nowIso();
    const raw = db as Kysely<unknown>;
    const tableNames = async () => (await db.introspection.getTables()).map((t) => t.name);
    const songColumns = async () =>
      (await db.introspection.getTables()).find((t) => t.name === "song")?.columns.map((c) => c.name) ?? [];
    const old =
      dialect === "sqlite" ? ["search_word", "search_word_fts", "song_fts", "song_words_fts"] : ["search_word"];
    expect(await tableNames()).not.toContain("search_word");
    expect(await songColumns()).not.toContain("search_text");

    const [artist, song] = [newId(), newId()];
    await db
      .insertInto("user")
      .values({
        id: artist,
        name: "Beyoncé",
        email: `${artist}@example.com`,
        created_at: now,
        updated_at: now,
        username: "Beyoncé",
        username_key: `beyonce ${artist}`,
      })
      .execute();
    await db
      .insertInto("song")
      .values({
        id: song,
        title: "Mig 0019 Halo!",
        title_key: "mig 0019 halo",
        genre: "Pop",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db.insertInto("song_artist").values({ song_id: song, artist_id: artist, position: 0 }).execute();

    await m0019.down(raw);
    for (const t of old) expect(await tableNames()).toContain(t);
    const text = await sql<{ search_text: string }>`select search_text from song where id = ${song}`.execute(db);
    expect(text.rows[0]?.search_text).toBe("mig 0019 halo beyonce");
    const words = await sql<{
      word: string;
    }>`select word from search_word where word in ('halo', 'beyonce', 'mig')`.execute(db);
    expect(words.rows.map((r) => r.word).sort()).toEqual(["beyonce", "halo", "mig"]);
    if (dialect === "sqlite") {
      const fts = await sql<{ search_text: string }>`select search_text from song_fts where song_id = ${song}`.execute(
        db,
      );
      expect(fts.rows.map((r) => r.search_text)).toEqual(["mig 0019 halo beyonce"]);
    }

    await m0019.up(raw);
    const left = await tableNames();
    for (const t of old) expect(left).not.toContain(t);
    expect(left.filter((t) => /_fts/.test(t))).toEqual([]);
    expect(await songColumns()).not.toContain("search_text");
    // The song itself is untouched.
    const row = await db.selectFrom("song").select("title").where("id", "=", song).executeTakeFirstOrThrow();
    expect(row.title).toBe("Mig 0019 Halo!");
  });
});

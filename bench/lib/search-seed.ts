// The search benchmark's catalogue: bench:api's bulk seed (members, artists, songs, credits, likes, votes; cached
// by api-db.ts) with every song title and artist name rewritten to look like a tracker's (search-names.ts).
// Only `song`, `song_artist` and `user` rows are the catalogue: an engine that builds its index from them at
// start sees it as it is (decision 024; the first engine's tables went in migration 0019).
// The rewritten copy is cached too: SQLite as a file, PostgreSQL as a template database in the bench's cluster.
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { nameKey } from "../../apps/server/src/lib/text.js";
import { CACHE_ROOT, type Dialect, migrationsHash, prepareDatabase, type RunDatabase, sqliteSql } from "./api-db.js";
import { adminQuery } from "./api-postgres.js";
import { type Progress, progressBar, SEED_VERSION, type SeedSize } from "./api-seed.js";
import { createRandom } from "./random.js";
import { artistName, songTitle, titleVocabulary } from "./search-names.js";
import { ROOT } from "./web-server.js";

/** How the catalogue was made: the bulk seed, then the rewrite of titles and names, and whether each was cached. */
export type SearchSeed = {
  baseSeconds: number;
  baseReused: boolean;
  rewriteSeconds: number;
  reused: boolean;
  counts: Record<string, number>;
};

type Plan = {
  artists: { id: string; name: string; key: string }[];
  songs: { id: string; title: string; key: string }[];
};

/** What the rewrite reads: members' name keys, every artist and song id in order, credits as (song, artist) in order. */
type Existing = { memberKeys: string[]; artistIds: string[]; songIds: string[]; credits: [string, string][] };

// The code that shapes the catalogue: any change to it makes the cached rewrite stale.
const SOURCES = ["bench/lib/search-seed.ts", "bench/lib/search-names.ts", "bench/lib/api-names.ts"];

function cacheKey(dialect: Dialect, size: SeedSize): string {
  const hash = createHash("sha1");
  for (const f of SOURCES) hash.update(readFileSync(path.join(ROOT, f)));
  const sources = hash.digest("hex").slice(0, 8);
  return `search-${dialect}-${size.songs}s-${size.users}u-${size.artists}a-${size.favorites}f-${size.votes}v-seed${SEED_VERSION}-m${migrationsHash()}-n${sources}`;
}

/** New names for every artist and song, deterministic for a catalogue size (ids are read in order). */
function plan(size: SeedSize, existing: Existing): Plan {
  // Code-unit order, whatever the database's collation: both dialects name the same rows alike.
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  existing.artistIds.sort(byCodeUnit);
  existing.songIds.sort(byCodeUnit);
  const rand = createRandom(0x5ea4c ^ size.songs);
  const vocab = titleVocabulary(rand, size.songs);
  const keys = new Set(existing.memberKeys);
  const creditCount = new Map<string, number>();
  for (const [, artistId] of existing.credits) creditCount.set(artistId, (creditCount.get(artistId) ?? 0) + 1);
  // Credits are skewed (a few artists are on thousands of songs): accents go to names only while the credits of
  // accented artists stay near ACCENTED_CREDITS of those named so far, whichever ranks the draws fall on.
  const ACCENTED_CREDITS = 0.12;
  let credited = 0;
  let accentedCredits = 0;
  const artists = existing.artistIds.map((id, i) => {
    const mine = creditCount.get(id) ?? 0;
    credited += mine;
    const plain = accentedCredits + mine > ACCENTED_CREDITS * credited;
    let name = artistName(rand, vocab, plain);
    for (let tries = 0; keys.has(nameKey(name)) && tries < 30; tries++) name = artistName(rand, vocab, plain);
    if (/[^\x20-\x7e]/.test(name)) accentedCredits += mine;
    if (keys.has(nameKey(name))) name = `${name} ${i}`;
    keys.add(nameKey(name));
    return { id, name, key: nameKey(name) };
  });
  const index = new Map(artists.map((a, i) => [a.id, i]));
  const credits = new Map<string, number[]>();
  for (const [songId, artistId] of existing.credits) {
    const list = credits.get(songId) ?? [];
    list.push(index.get(artistId) ?? 0);
    credits.set(songId, list);
  }
  const songs = existing.songIds.map((id) => {
    const credited = credits.get(id) ?? [];
    const names = credited.map((a) => artists[a]?.name ?? "");
    // Trackers write a credited guest into the title about half the time; a few titles name a guest who has no
    // credit at all (an uncredited feature), findable only through the title.
    const guest = artists[rand.int(artists.length)]?.name;
    const feature =
      names.length >= 2 && rand.next() < 0.45
        ? names[1]
        : names.length === 1 && rand.next() < 0.06 && guest !== names[0]
          ? guest
          : undefined;
    const title = songTitle(rand, vocab, feature);
    return { id, title, key: nameKey(title) };
  });
  return { artists, songs };
}

/** Rewrite the SQLite catalogue at `file` in place: one transaction, indexes on the rewritten columns rebuilt. */
function rewriteSqlite(file: string, size: SeedSize, progress: Progress): Record<string, number> {
  const db = new SQLite(file);
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -400000");
    db.pragma("temp_store = MEMORY");
    const column = (r: unknown) => Object.values(r as Record<string, string>)[0] as string;
    const existing: Existing = {
      memberKeys: db.prepare(`select username_key from "user" where is_artist = 0`).all().map(column),
      artistIds: db.prepare(`select id from "user" where is_artist = 1 order by id`).all().map(column),
      songIds: db.prepare("select id from song order by id").all().map(column),
      credits: (
        db.prepare("select song_id, artist_id from song_artist order by song_id, position").all() as {
          song_id: string;
          artist_id: string;
        }[]
      ).map((r) => [r.song_id, r.artist_id]),
    };
    const p = plan(size, existing);
    db.exec("begin");
    // Indexes over the rewritten columns are cheaper to build again than to update row by row.
    const indexes = db
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name in ('song', 'user') and sql is not null and (sql like '%title_key%' or sql like '%username_key%')",
      )
      .all() as { name: string; sql: string }[];
    for (const ix of indexes) db.exec(`drop index "${ix.name}"`);
    // Names are unique by key: park the old keys first so no new name meets an old one mid-way.
    db.exec(`update "user" set username_key = 'search-bench:' || id where is_artist = 1`);
    const user = db.prepare(`update "user" set name = ?, username = ?, username_key = ?, bio = ? where id = ?`);
    p.artists.forEach((a, i) => {
      user.run(a.name, a.name, a.key, `Music by ${a.name}`, a.id);
      if (i % 5000 === 0) progress("artist names", i, p.artists.length);
    });
    progress("artist names", p.artists.length, p.artists.length);
    const song = db.prepare("update song set title = ?, title_key = ? where id = ?");
    p.songs.forEach((s, i) => {
      song.run(s.title, s.key, s.id);
      if (i % 5000 === 0) progress("song titles", i, p.songs.length);
    });
    progress("song titles", p.songs.length, p.songs.length);
    indexes.forEach((ix) => {
      db.exec(ix.sql);
    });
    progress("indexes", 1, 1);
    db.exec("commit");
    db.pragma("journal_mode = WAL");
    return { artists_renamed: p.artists.length, songs_retitled: p.songs.length };
  } finally {
    db.close();
  }
}

/** Rewrite the PostgreSQL catalogue at `url`: unnest() batches in one transaction, indexes on those columns rebuilt. */
async function rewritePostgres(url: string, size: SeedSize, progress: Progress): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const column = async (text: string) => (await client.query<{ v: string }>(text)).rows.map((r) => r.v);
    const existing: Existing = {
      memberKeys: await column(`select username_key as v from "user" where not is_artist`),
      artistIds: await column(`select id as v from "user" where is_artist order by id`),
      songIds: await column("select id as v from song order by id"),
      credits: (
        await client.query<{ song_id: string; artist_id: string }>(
          "select song_id, artist_id from song_artist order by song_id, position",
        )
      ).rows.map((r) => [r.song_id, r.artist_id]),
    };
    const p = plan(size, existing);
    await client.query("set synchronous_commit = off"); // this session's one commit only
    await client.query("set maintenance_work_mem = '256MB'");
    await client.query("begin");
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('song', 'user')
         and indexdef like '%title_key%' and indexname not in (select conname from pg_constraint)`,
    );
    for (const ix of indexes.rows) await client.query(`drop index "${ix.indexname}"`);
    await client.query(`update "user" set username_key = 'search-bench:' || id where is_artist`);
    const BATCH = 10_000;
    for (let i = 0; i < p.artists.length; i += BATCH) {
      const b = p.artists.slice(i, i + BATCH);
      await client.query(
        `update "user" u set name = d.name, username = d.name, username_key = d.key, bio = 'Music by ' || d.name
           from unnest($1::text[], $2::text[], $3::text[]) as d(id, name, key) where u.id = d.id`,
        [b.map((a) => a.id), b.map((a) => a.name), b.map((a) => a.key)],
      );
      progress("artist names", Math.min(i + BATCH, p.artists.length), p.artists.length);
    }
    for (let i = 0; i < p.songs.length; i += BATCH) {
      const b = p.songs.slice(i, i + BATCH);
      await client.query(
        `update song s set title = d.title, title_key = d.key
           from unnest($1::text[], $2::text[], $3::text[]) as d(id, title, key) where s.id = d.id`,
        [b.map((s) => s.id), b.map((s) => s.title), b.map((s) => s.key)],
      );
      progress("song titles", Math.min(i + BATCH, p.songs.length), p.songs.length);
    }
    for (const ix of indexes.rows) await client.query(ix.indexdef);
    progress("indexes", 1, 1);
    await client.query("commit");
    await client.query(`vacuum analyze song, "user"`);
    return { artists_renamed: p.artists.length, songs_retitled: p.songs.length };
  } finally {
    await client.end();
  }
}

type Meta = Omit<SearchSeed, "reused"> & { key: string; at: string };

/** Seed (or take from the cache) the search catalogue of `size` songs and give this run a copy of it. */
export async function prepareSearchDatabase(
  dialect: Dialect,
  size: SeedSize,
  fresh: boolean,
): Promise<{ db: RunDatabase; seed: SearchSeed }> {
  const key = cacheKey(dialect, size);
  const progress = progressBar();
  if (dialect === "sqlite") {
    const dir = path.join(CACHE_ROOT, key);
    const metaFile = path.join(dir, "meta.json");
    if (!fresh && existsSync(metaFile)) {
      const meta = JSON.parse(readFileSync(metaFile, "utf8")) as Meta;
      const base = copyOfCached(dir);
      return { db: base, seed: { ...meta, reused: true } };
    }
    const base = await prepareDatabase("sqlite", size, fresh);
    process.stderr.write("rewriting titles and artist names for the search benchmark\n");
    const started = performance.now();
    const counts = rewriteSqlite(path.join(base.dataDir, "unheard.db"), size, progress);
    const meta: Meta = {
      key,
      at: new Date().toISOString(),
      baseSeconds: base.seed.seconds,
      baseReused: base.seed.reused,
      rewriteSeconds: (performance.now() - started) / 1000,
      counts: { ...base.seed.counts, ...counts },
    };
    // Superseded rewrites of this size go; this one is kept, its meta written last so a cut-short copy is never used.
    const prefix = `search-sqlite-${size.songs}s-`;
    for (const other of readdirSync(CACHE_ROOT))
      if (other.startsWith(prefix) && other !== key) rmSync(path.join(CACHE_ROOT, other), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(base.dataDir, "unheard.db"), path.join(dir, "seed.db.tmp"));
    renameSync(path.join(dir, "seed.db.tmp"), path.join(dir, "seed.db"));
    writeFileSync(metaFile, JSON.stringify(meta, null, 2));
    return { db: base, seed: { ...meta, reused: false } };
  }

  const base = await prepareDatabase("postgres", size, fresh);
  try {
    const url = base.databaseUrl ?? "";
    const started = performance.now();
    if (process.env.BENCH_DATABASE_URL) {
      // A database of the caller's: rewritten in place unless it already holds this rewrite (marked on a table
      // other than `song`, whose comment is bench:api's own marker).
      const marker = `unheard-search-bench ${key}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const found = (
        await client.query<{ c: string | null }>("select obj_description(to_regclass('song_artist'), 'pg_class') as c")
      ).rows[0]?.c;
      await client.end();
      if (!fresh && found?.startsWith(marker))
        return { db: base, seed: { ...(JSON.parse(found.slice(marker.length)) as Meta), reused: true } };
      process.stderr.write("rewriting titles and artist names for the search benchmark (BENCH_DATABASE_URL)\n");
      const counts = await rewritePostgres(url, size, progress);
      const meta = metaOf(key, base, counts, started);
      await adminQuery(url, [
        `comment on table song_artist is '${marker} ${JSON.stringify(meta).replaceAll("'", "''")}'`,
      ]);
      return { db: base, seed: { ...meta, reused: false } };
    }
    // Our own cluster: the rewrite is kept as a template database beside bench:api's `seed`.
    const run = new URL(url).pathname.slice(1);
    const admin = new URL(url);
    admin.pathname = "/postgres";
    const template = `search_seed_${createHash("sha1").update(key).digest("hex").slice(0, 10)}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    let comment: string | null | undefined;
    let stale: string[] = [];
    try {
      const rows = (
        await client.query<{ datname: string; c: string | null }>(
          "select datname, shobj_description(oid, 'pg_database') as c from pg_database where datname like 'search_seed_%'",
        )
      ).rows;
      comment = rows.find((r) => r.datname === template)?.c;
      stale = rows.map((r) => r.datname).filter((n) => n !== template || fresh);
    } finally {
      await client.end();
    }
    if (stale.length)
      await adminQuery(
        admin.toString(),
        stale.map((n) => `drop database if exists ${n} with (force)`),
      );
    if (!fresh && comment) {
      await adminQuery(admin.toString(), [
        `drop database if exists ${run} with (force)`,
        `create database ${run} template ${template}`,
      ]);
      return { db: base, seed: { ...(JSON.parse(comment) as Meta), reused: true } };
    }
    process.stderr.write("rewriting titles and artist names for the search benchmark\n");
    const counts = await rewritePostgres(url, size, progress);
    const meta = metaOf(key, base, counts, started);
    await adminQuery(admin.toString(), [
      `create database ${template} template ${run}`,
      `comment on database ${template} is '${JSON.stringify(meta).replaceAll("'", "''")}'`,
    ]);
    return { db: base, seed: { ...meta, reused: false } };
  } catch (err) {
    await base.dispose();
    throw err;
  }
}

function metaOf(key: string, base: RunDatabase, counts: Record<string, number>, started: number): Meta {
  return {
    key,
    at: new Date().toISOString(),
    baseSeconds: base.seed.seconds,
    baseReused: base.seed.reused,
    rewriteSeconds: (performance.now() - started) / 1000,
    counts: { ...base.seed.counts, ...counts },
  };
}

/** A run's copy of a cached SQLite rewrite. */
function copyOfCached(dir: string): RunDatabase {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "unheard-bench-run-"));
  const file = path.join(dataDir, "unheard.db");
  copyFileSync(path.join(dir, "seed.db"), file);
  return {
    dialect: "sqlite",
    dataDir,
    seed: { counts: {}, seconds: 0, reused: true, where: dir },
    open: async () => sqliteSql(file),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

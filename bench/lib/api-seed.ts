// A large, consistent catalogue for the load benchmark. Rows are generated here and written in bulk (one
// transaction; prepared statements on SQLite, unnest() batches on PostgreSQL) into a schema made by the app's
// own migrations; every counter, status and point is then derived from the rows with SQL, the way the app keeps
// them (seed.ts, votes.service.ts). Search needs no rows: the server builds its index from the songs (decision 024).
import {
  ADMIN_PERMISSIONS,
  DOWNVOTE_REASONS,
  GENRES,
  POINTS_FOR_VERIFIED_SONG,
  POINTS_PER_VOTE,
} from "@unheard/shared";
import { hashPassword } from "better-auth/crypto";
import SQLite from "better-sqlite3";
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/database.js";
import { migrateToLatest } from "../../apps/server/src/db/migrate.js";
import { nameKey } from "../../apps/server/src/lib/text.js";
import { artistName, drawFrom, memberHandle, songTitle, titleVocabulary, zipf } from "./api-names.js";
import { createRandom, type Random } from "./random.js";

/** Bump when the generated data changes shape: cached seeds with another version are not reused. */
export const SEED_VERSION = 5;

/** How much to seed. */
export type SeedSize = { songs: number; users: number; artists: number; favorites: number; votes: number };

/** Row counts actually written, and how long it took. */
export type SeedResult = { counts: Record<string, number>; seconds: number };

/** The issue's size for 100,000 songs; other sizes scale with the catalogue, likes and votes capped. */
export function seedSize(songs: number): SeedSize {
  const scale = songs / 100_000;
  return {
    songs,
    users: Math.max(500, Math.round(20_000 * Math.min(scale, 5))),
    artists: Math.max(100, Math.round(3_000 * scale)),
    // Proportional up to 100k songs; the 1M growth seed keeps 2M likes and 1.5M votes (a few minutes to write).
    favorites: Math.min(2_000_000, Math.round(500_000 * scale)),
    votes: Math.min(1_500_000, Math.round(300_000 * scale)),
  };
}

/** Every seeded member (and the admin) signs in with this password. */
export const BENCH_PASSWORD = "bench-password-1";
export const benchEmail = (i: number) => `member${i}@bench.invalid`;
export const ADMIN_EMAIL = "admin@bench.invalid";

export type Progress = (label: string, done: number, total: number) => void;

/** A progress bar on stderr (redrawn at most 5 times a second). */
export function progressBar(): Progress {
  let last = 0;
  const started = Date.now();
  return (label, done, total) => {
    const now = Date.now();
    if (done < total && now - last < 200) return;
    last = now;
    const width = 28;
    const filled = Math.min(width, Math.round((done / Math.max(1, total)) * width));
    const secs = ((now - started) / 1000).toFixed(0).padStart(4);
    process.stderr.write(
      `\r  ${secs} s  ${label.padEnd(16)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en")}/${total.toLocaleString("en")}   ${done >= total ? "\n" : ""}`,
    );
  };
}

type Row = unknown[];
type Sink = { insert(table: string, columns: string[], rows: Row[]): Promise<void> };

const DAY = 864e5;
const YEAR = 365 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const GENRE_WEIGHTS: [string, number][] = [
  ["Rap", 0.3],
  ["Pop", 0.24],
  ["Electronic", 0.15],
  ["Rock", 0.1],
  ["Country", 0.08],
  ["Other", 0.13],
];
if (GENRE_WEIGHTS.some(([g]) => !(GENRES as readonly string[]).includes(g))) throw new Error("unknown genre");

/** An id shaped like the app's (16 characters of a-z0-9), unique by its numbered prefix. */
function makeId(rand: Random, kind: string, i: number): string {
  let tail = "";
  for (let k = 0; k < 9; k++) tail += "0123456789abcdefghijklmnopqrstuvwxyz"[rand.int(36)];
  return `${kind}${i.toString(36).padStart(6, "0")}${tail}`;
}

/** Buffers rows per table and hands them to the sink in batches. */
function batcher(sink: Sink, progress: Progress) {
  const BATCH = 5000;
  const written: Record<string, number> = {};
  return {
    written,
    async table(
      table: string,
      columns: string[],
      total: number,
      label: string,
      fill: (emit: (row: Row) => Promise<void>) => Promise<void>,
    ) {
      let buf: Row[] = [];
      let done = 0;
      written[table] ??= 0;
      await fill(async (row) => {
        buf.push(row);
        if (buf.length >= BATCH) {
          await sink.insert(table, columns, buf);
          done += buf.length;
          written[table] = (written[table] ?? 0) + buf.length;
          buf = [];
          if (done < total) progress(label, done, total);
        }
      });
      if (buf.length) await sink.insert(table, columns, buf);
      written[table] = (written[table] ?? 0) + buf.length;
      progress(label, total, total);
    },
  };
}

const USER_COLUMNS = [
  "id",
  "name",
  "email",
  "email_verified",
  "image",
  "created_at",
  "updated_at",
  "username",
  "username_key",
  "role",
  "bio",
  "is_artist",
  "is_placeholder",
  "off_waitlist",
  "instagram",
  "twitter",
  "website",
];

type UserFlags = {
  emailVerified: boolean;
  role: string;
  bio: string;
  isArtist: boolean;
  isPlaceholder: boolean;
  offWaitlist: boolean;
};

/** A `user` row in USER_COLUMNS order: a verified member let in from the waitlist, unless `flags` say otherwise. */
function userRow(id: string, name: string, email: string, at: string, flags: Partial<UserFlags> = {}): Row {
  const f: UserFlags = {
    emailVerified: true,
    role: "user",
    bio: "",
    isArtist: false,
    isPlaceholder: false,
    offWaitlist: true,
    ...flags,
  };
  // No image and no social links; the username is the name.
  const [image, instagram, twitter, website] = [null, null, null, null];
  return [
    id,
    name,
    email,
    f.emailVerified,
    image,
    at,
    at,
    name,
    nameKey(name),
    f.role,
    f.bio,
    f.isArtist,
    f.isPlaceholder,
    f.offWaitlist,
    instagram,
    twitter,
    website,
  ];
}

/** Generate every row; `now` anchors all timestamps. */
async function generate(size: SeedSize, sink: Sink, progress: Progress, now: number): Promise<Record<string, number>> {
  const rand = createRandom(0x5eed ^ size.songs);
  const out = batcher(sink, progress);
  const hash = await hashPassword(BENCH_PASSWORD);
  const catalogueStart = now - YEAR;
  const keys = new Set<string>();
  const unique = (name: string, i: number) => {
    let n = name;
    if (keys.has(nameKey(n))) n = `${name} ${(i % 97) + 2}`;
    if (keys.has(nameKey(n))) n = `${name} ${i}`;
    keys.add(nameKey(n));
    return n;
  };

  // Members (they sign in, submit, like and vote), registered in the year before the catalogue starts.
  const memberIds: string[] = [];
  const adminId = makeId(rand, "z", 0);
  await out.table("user", USER_COLUMNS, size.users + 1, "members", async (emit) => {
    for (let i = 0; i < size.users; i++) {
      const id = makeId(rand, "m", i);
      memberIds.push(id);
      const handle = unique(memberHandle(rand), i);
      const at = iso(catalogueStart - YEAR + rand.next() * YEAR);
      await emit(userRow(id, handle, benchEmail(i), at));
    }
    const at = iso(catalogueStart - YEAR);
    keys.add("bench-admin");
    await emit(userRow(adminId, "bench-admin", ADMIN_EMAIL, at, { role: "admin" }));
  });
  await out.table(
    "admin",
    ["user_id", "permissions", "added_by", "added_at", "last_active"],
    1,
    "admin",
    async (emit) => {
      const perms = JSON.stringify(Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, false])));
      await emit([adminId, perms, null, iso(catalogueStart - YEAR), null]);
    },
  );
  await out.table(
    "account",
    ["id", "account_id", "provider_id", "user_id", "password", "created_at", "updated_at"],
    size.users + 1,
    "accounts",
    async (emit) => {
      for (const [i, id] of [...memberIds, adminId].entries()) {
        const at = iso(catalogueStart - YEAR);
        await emit([makeId(rand, "c", i), id, "credential", id, hash, at, at]);
      }
    },
  );

  // Artists: placeholder profiles as ensureArtist() creates them, credited by popularity (a few big names).
  const vocab = titleVocabulary(rand, Math.round(400 + size.songs / 25));
  const artistIds: string[] = [];
  await out.table("user", USER_COLUMNS, size.artists, "artists", async (emit) => {
    for (let i = 0; i < size.artists; i++) {
      const id = makeId(rand, "a", i);
      const name = unique(artistName(rand, vocab), i);
      artistIds.push(id);
      const at = iso(catalogueStart - rand.next() * 30 * DAY);
      await emit(
        userRow(id, name, `artist-${id}@placeholder.unheard.invalid`, at, {
          emailVerified: false,
          bio: `Music by ${name}`,
          isArtist: true,
          isPlaceholder: true,
          offWaitlist: false,
        }),
      );
    }
  });

  // Songs. Each is planned as verified by votes (net >= 3), verified by an admin, or pending; the plan only
  // shapes the votes written below, the status itself is derived from the rows afterwards.
  const S = size.songs;
  const songIds: string[] = new Array(S);
  const created = new Float64Array(S);
  const submitter = new Int32Array(S);
  const plan = new Uint8Array(S); // 0 pending, 1 verified by votes, 2 verified by an admin
  const weight = new Float64Array(S);
  const perSong = size.votes / S;
  const byVotes = Math.min(0.8, Math.max(0, (perSong - 1) / 3));
  const byAdmin = (0.8 - byVotes) / (1 - byVotes);
  const artistCum = zipf(size.artists, 0.9);
  const memberCum = zipf(size.users, 0.8);
  const genreCum = new Float64Array(GENRE_WEIGHTS.length);
  GENRE_WEIGHTS.reduce((acc, [, w], i) => {
    genreCum[i] = acc + w;
    return acc + w;
  }, 0);
  const credits: number[][] = [];
  let weightTotal = 0;
  await out.table(
    "song",
    [
      "id",
      "title",
      "title_key",
      "genre",
      "release_date",
      "soundcloud_url",
      "submitted_by",
      "status",
      "verified_at",
      "verified_by",
      "created_at",
      "updated_at",
    ],
    S,
    "songs",
    async (emit) => {
      for (let i = 0; i < S; i++) {
        const id = makeId(rand, "s", i);
        songIds[i] = id;
        const at = catalogueStart + rand.next() * (YEAR - 60_000);
        created[i] = at;
        const sub = drawFrom(memberCum, rand.next());
        submitter[i] = sub;
        const title = songTitle(rand, vocab);
        const roll = rand.next();
        const n = roll < 0.72 ? 1 : roll < 0.94 ? 2 : 3;
        const credited: number[] = [];
        while (credited.length < n) {
          const a = drawFrom(artistCum, rand.next());
          if (!credited.includes(a)) credited.push(a);
        }
        credits.push(credited);
        const genre = GENRE_WEIGHTS[drawFrom(genreCum, rand.next() * (genreCum[genreCum.length - 1] as number))]?.[0];
        const dateRoll = rand.next();
        const release =
          dateRoll < 0.35
            ? null
            : dateRoll < 0.75
              ? iso(at - rand.next() * 2 * YEAR).slice(0, 10)
              : iso(now + (1 + rand.next() * 180) * DAY).slice(0, 10);
        const p = rand.next() < byVotes ? 1 : rand.next() < byAdmin ? 2 : 0;
        plan[i] = p;
        // Likes follow a heavy tail: most songs have a few, some have thousands.
        const w = (1 - rand.next()) ** (-1 / 1.3);
        weight[i] = w;
        weightTotal += w;
        const verifiedAt = p === 2 ? iso(Math.min(now - 60_000, at + rand.next() * 3 * DAY)) : null;
        await emit([
          id,
          title,
          nameKey(title),
          genre,
          release,
          null,
          memberIds[sub],
          p === 2 ? "verified" : "pending",
          verifiedAt,
          p === 2 ? adminId : null,
          iso(at),
          iso(at),
        ]);
      }
    },
  );
  await out.table("song_artist", ["song_id", "artist_id", "position"], S, "credits", async (emit) => {
    for (let i = 0; i < S; i++)
      for (const [position, a] of (credits[i] ?? []).entries()) await emit([songIds[i], artistIds[a], position]);
  });
  credits.length = 0;

  // Likes: per song in proportion to its weight, by distinct members, at a time between the upload and now
  // (so recent uploads and the last 7 days get their natural share; trending counts the last 7 days).
  const maxLikes = Math.floor(size.users / 4);
  const pick = (count: number, avoid: number): number[] => {
    const set = new Set<number>();
    while (set.size < count) {
      const u = rand.int(size.users);
      if (u !== avoid) set.add(u);
    }
    return [...set];
  };
  await out.table("favorite", ["song_id", "user_id", "created_at"], size.favorites, "favourites", async (emit) => {
    const scale = size.favorites / weightTotal;
    for (let i = 0; i < S; i++) {
      const want = Math.min(maxLikes, Math.floor((weight[i] as number) * scale + rand.next()));
      const at = created[i] as number;
      for (const u of pick(want, -1)) await emit([songIds[i], memberIds[u], iso(at + rand.next() * (now - at))]);
    }
  });
  weight.fill(0);

  // Votes: verified-by-votes songs get 3+ ups (sometimes a down, with one more up), the others 0-2 votes
  // either way; never by the song's submitter. Votes come in the days after the upload.
  await out.table(
    "vote",
    ["song_id", "user_id", "value", "reason", "details", "created_at", "updated_at"],
    size.votes,
    "votes",
    async (emit) => {
      for (let i = 0; i < S; i++) {
        const values: number[] = [];
        if (plan[i] === 1) {
          const ups = 3 + (rand.next() < 0.3 ? 1 + rand.int(3) : 0);
          const downs = rand.next() < 0.2 ? 1 : 0;
          for (let k = 0; k < ups + downs; k++) values.push(1);
          for (let k = 0; k < downs; k++) values.push(-1);
        } else {
          const n = rand.int(3);
          for (let k = 0; k < n; k++) values.push(rand.next() < 0.75 ? 1 : -1);
        }
        const at = created[i] as number;
        const voters = pick(values.length, submitter[i] as number);
        for (const [k, value] of values.entries()) {
          const t = iso(Math.min(now - 60_000, at - Math.log(1 - rand.next()) * 3 * DAY));
          const reason = value === -1 ? DOWNVOTE_REASONS[rand.int(DOWNVOTE_REASONS.length)] : null;
          await emit([songIds[i], memberIds[voters[k] as number], value, reason, null, t, t]);
        }
      }
    },
  );
  return out.written;
}

/** Counters, statuses and points from their rows: exactly what the app's writes keep in step. */
function deriveStatements(dialect: "sqlite" | "postgres", songColumns: Set<string>, now: number): [string, string][] {
  const yes = dialect === "postgres" ? "true" : "1";
  const weekAgo = iso(now - 7 * DAY);
  const pad = (expr: string) =>
    dialect === "postgres" ? `lpad((${expr})::text, 14, '0')` : `printf('%014d', ${expr})`;
  return [
    [
      "favourite counts",
      "update song set favorite_count = (select count(*) from favorite f where f.song_id = song.id)",
    ],
    // Migration 0006: likes of the last 7 days kept on the song (trending reads them).
    ...(songColumns.has("week_likes")
      ? ([
          [
            "week likes",
            `update song set week_likes = (select count(*) from favorite f where f.song_id = song.id and f.created_at >= '${weekAgo}')`,
          ],
        ] as [string, string][])
      : []),
    [
      "vote counts",
      "update song set upvotes = (select count(*) from vote v where v.song_id = song.id and v.value = 1), downvotes = (select count(*) from vote v where v.song_id = song.id and v.value = -1)",
    ],
    [
      "statuses",
      "update song set status = 'verified', verified_at = (select max(v.created_at) from vote v where v.song_id = song.id) where verified_by is null and upvotes - downvotes >= 3",
    ],
    ["updated_at", "update song set updated_at = verified_at where verified_at is not null"],
    [
      "ledger: votes",
      `insert into points_ledger (id, user_id, delta, reason, ref, created_at) select 'lv' || ${pad(dialect === "postgres" ? "row_number() over ()" : "v.rowid")}, v.user_id, ${POINTS_PER_VOTE}, 'vote', v.song_id, v.created_at from vote v`,
    ],
    [
      "ledger: verified",
      `insert into points_ledger (id, user_id, delta, reason, ref, created_at) select 'ls' || ${pad(dialect === "postgres" ? "row_number() over ()" : "s.rowid")}, s.submitted_by, ${POINTS_FOR_VERIFIED_SONG}, 'song_verified', s.id, s.verified_at from song s where s.status = 'verified' and s.submitted_by is not null`,
    ],
    [
      "points",
      `update "user" set points = coalesce((select sum(delta) from points_ledger p where p.user_id = "user".id), 0)`,
    ],
    [
      "credit counts",
      `update "user" set credit_count = (select count(*) from song_artist sa where sa.artist_id = "user".id) where is_artist = ${yes}`,
    ],
  ];
}

const BULK_TABLES = ["user", "account", "song", "song_artist", "favorite", "vote", "points_ledger"];

/**
 * Migrate a new database with the app's own migrations, then `load` bulk rows straight into its tables; the
 * counts `load` returns and the time the whole seed took.
 */
async function seedWith(
  target: { file: string } | { url: string },
  load: () => Promise<SeedResult["counts"]>,
): Promise<SeedResult> {
  const started = performance.now();
  const database = openDatabase(target);
  await migrateToLatest(database.db);
  await database.close();
  const counts = await load();
  return { counts, seconds: (performance.now() - started) / 1000 };
}

/** Seed a new SQLite file: the app's migrations, then bulk rows in one transaction with prepared statements. */
export function seedSqlite(file: string, size: SeedSize, progress: Progress = progressBar()): Promise<SeedResult> {
  return seedWith({ file }, () => loadSqlite(file, size, progress));
}

/** Seed an empty PostgreSQL database: the app's migrations, then bulk rows via unnest() batches in one transaction. */
export function seedPostgres(url: string, size: SeedSize, progress: Progress = progressBar()): Promise<SeedResult> {
  return seedWith({ url }, () => loadPostgres(url, size, progress));
}

async function loadSqlite(file: string, size: SeedSize, progress: Progress): Promise<SeedResult["counts"]> {
  const db = new SQLite(file);
  // Nothing to recover from: a seed that fails is thrown away (the cache only keeps finished ones).
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("foreign_keys = OFF");
  db.pragma("cache_size = -400000");
  db.pragma("temp_store = MEMORY");
  // Secondary indexes are dropped for the load and rebuilt from their own definitions afterwards.
  const indexes = db
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${BULK_TABLES.map(() => "?").join(", ")})`,
    )
    .all(...BULK_TABLES) as { name: string; sql: string }[];
  const statements = new Map<string, SQLite.Statement>();
  db.exec("begin");
  for (const ix of indexes) db.exec(`drop index "${ix.name}"`);
  const now = Date.now();
  const songColumns = new Set(
    (db.prepare("select name from pragma_table_info('song')").all() as { name: string }[]).map((r) => r.name),
  );
  const counts = await generate(
    size,
    {
      async insert(table, columns, rows) {
        const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`;
        let stmt = statements.get(text);
        if (!stmt) {
          stmt = db.prepare(text);
          statements.set(text, stmt);
        }
        for (const row of rows) stmt.run(row.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v)));
      },
    },
    progress,
    now,
  );
  indexes.forEach((ix, i) => {
    db.exec(ix.sql);
    progress("indexes", i + 1, indexes.length);
  });
  const derive = deriveStatements("sqlite", songColumns, now);
  derive.forEach(([label, text], i) => {
    db.exec(text);
    progress(label.padEnd(16).slice(0, 16), i + 1, derive.length);
  });
  db.exec("commit");
  for (const t of ["points_ledger", "song_artist"])
    counts[t] = Number((db.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n);
  // No ANALYZE: the app never runs it, so the planner sees what it sees in production.
  db.pragma("journal_mode = WAL");
  db.close();
  return counts;
}

async function loadPostgres(url: string, size: SeedSize, progress: Progress): Promise<SeedResult["counts"]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set synchronous_commit = off"); // this session's one commit only; the bench keeps the default
    await client.query("set maintenance_work_mem = '256MB'");
    const types = new Map<string, string>();
    const cols = await client.query<{ table_name: string; column_name: string; udt_name: string }>(
      "select table_name, column_name, udt_name from information_schema.columns where table_schema = current_schema()",
    );
    for (const c of cols.rows) types.set(`${c.table_name}.${c.column_name}`, c.udt_name);
    const now = Date.now();
    const songColumns = new Set(cols.rows.filter((c) => c.table_name === "song").map((c) => c.column_name));
    await client.query("begin");
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = any($1)
         and indexname not in (select conname from pg_constraint)`,
      [BULK_TABLES],
    );
    for (const ix of indexes.rows) await client.query(`drop index "${ix.indexname}"`);
    const counts = await generate(
      size,
      {
        async insert(table, columns, rows) {
          // One array parameter per column: a 5,000-row batch is one short statement.
          const arrays = columns.map((_, c) => rows.map((r) => r[c]));
          const casts = columns.map((c, i) => `$${i + 1}::${types.get(`${table}.${c}`) ?? "text"}[]`);
          await client.query(
            `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) select * from unnest(${casts.join(", ")})`,
            arrays,
          );
        },
      },
      progress,
      now,
    );
    for (const [i, ix] of indexes.rows.entries()) {
      await client.query(ix.indexdef);
      progress("indexes", i + 1, indexes.rows.length);
    }
    await client.query("analyze");
    const derive = deriveStatements("postgres", songColumns, now);
    for (const [i, [label, text]] of derive.entries()) {
      await client.query(text);
      progress(label.padEnd(16).slice(0, 16), i + 1, derive.length);
    }
    await client.query("commit");
    for (const t of ["points_ledger", "song_artist"])
      counts[t] = Number((await client.query<{ n: string }>(`select count(*) as n from ${t}`)).rows[0]?.n ?? 0);
    // Autovacuum would analyze the new rows within a minute in production; do it now.
    await client.query("vacuum analyze");
    return counts;
  } finally {
    await client.end();
  }
}

// Seeds a large, consistent catalogue for the load benchmark: bulk inserts in one transaction (prepared
// statements on SQLite, multi-row INSERTs on PostgreSQL), then every counter computed from its rows.
import { GENRES } from "@unheard/shared";
import { hashPassword } from "better-auth/crypto";
import SQLite from "better-sqlite3";
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/database.js";
import { migrateToLatest } from "../../apps/server/src/db/migrate.js";
import { searchNormalize, searchWords } from "../../apps/server/src/lib/search-text.js";
import { createRandom } from "./random.js";

/** How much to seed. */
export type SeedSize = { songs: number; users: number; artists: number; favorites: number; votes: number };

/** The issue's size, and the growth mode's two sizes (likes and votes capped so 1M seeds in minutes). */
export function seedSize(songs: number): SeedSize {
  if (songs === 100_000) return { songs, users: 20_000, artists: 4_000, favorites: 500_000, votes: 300_000 };
  return {
    songs,
    users: Math.min(100_000, Math.max(2_000, Math.round(songs / 5))),
    artists: Math.min(40_000, Math.max(500, Math.round(songs / 25))),
    favorites: Math.min(2_000_000, songs * 5),
    votes: Math.min(1_000_000, songs * 3),
  };
}

/** Every seeded member signs in with this password. */
export const BENCH_PASSWORD = "bench-password-1";
export const benchEmail = (i: number) => `member${i}@bench.invalid`;

const WORDS = (
  "midnight circuit neon river ghost summer velvet echo static golden paper hearts crystal shadow ocean fire " +
  "dream city lights broken wild silver storm moon rain electric lonely dance fever sunset highway diamond " +
  "honey thunder winter angel desert satellite cherry violet motion signal gravity sugar mirror island " +
  "horizon rebel secret forever heaven wolves glass falling rising tonight yesterday summertime"
).split(" ");
const FIRST = "lil young big dj mc saint king queen baby yung the".split(" ");
const LAST = (
  "nova vega flux kairo mercer blaze orion sable rivers vance marlowe juno echo zenith haze cruz lux reyes " +
  "noir atlas cobalt ember frost indigo jett knox lyric onyx phoenix quinn raven sol titan umber wren"
).split(" ");

type Progress = (label: string, done: number, total: number) => void;

/** A progress bar on stderr. */
export const progressBar: Progress = (() => {
  let last = 0;
  return (label, done, total) => {
    const now = Date.now();
    if (done < total && now - last < 200) return;
    last = now;
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(
      `\r  ${label.padEnd(22)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en")}/${total.toLocaleString("en")}${done >= total ? "\n" : ""}`,
    );
  };
})();

type Row = unknown[];
type Sink = { table: string; columns: string[] };

/** Generates every row; `emit` writes them in batches. */
async function generate(size: SeedSize, emit: (sink: Sink, rows: Row[]) => Promise<void>, progress: Progress) {
  const rand = createRandom(20261123);
  const r = { next: rand.next, pick: <T>(list: readonly T[]): T => list[rand.int(list.length)] as T };
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const year = 365 * 864e5;
  const hash = await hashPassword(BENCH_PASSWORD);
  const batch = 2000;

  async function rows(sink: Sink, count: number, label: string, make: (i: number) => Row | undefined) {
    let buf: Row[] = [];
    for (let i = 0; i < count; i++) {
      const row = make(i);
      if (row) buf.push(row);
      if (buf.length >= batch) {
        await emit(sink, buf);
        buf = [];
      }
      progress(label, i + 1, count);
    }
    if (buf.length) await emit(sink, buf);
  }

  const userCols = [
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
    "points",
    "bio",
    "is_public",
    "is_artist",
    "is_verified",
    "is_placeholder",
    "upload_count",
    "off_waitlist",
    "instagram",
    "twitter",
    "website",
  ];
  // Members (who sign in, like and vote), then artists (credited on songs).
  await rows({ table: "user", columns: userCols }, size.users, "members", (i) => {
    const t = iso(now - year + i * 1000);
    return [
      `m${i}`,
      `Member ${i}`,
      benchEmail(i),
      true,
      null,
      t,
      t,
      `member${i}`,
      `member${i}`,
      "user",
      0,
      "",
      true,
      false,
      false,
      false,
      0,
      true,
      null,
      null,
      null,
    ];
  });
  const artistNames: string[] = [];
  await rows({ table: "user", columns: userCols }, size.artists, "artists", (i) => {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)} ${i}`.replace(/^(\S+) (\S+) (\d+)$/, (_, a, b, n) =>
      Number(n) % 3 === 0 ? `${b[0].toUpperCase()}${b.slice(1)} ${n}` : `${a} ${b} ${n}`,
    );
    artistNames.push(name);
    const t = iso(now - year);
    return [
      `a${i}`,
      name,
      `artist${i}@placeholder.unheard.invalid`,
      false,
      null,
      t,
      t,
      name,
      name.toLowerCase(),
      "user",
      0,
      `Music by ${name}`,
      true,
      true,
      false,
      true,
      0,
      false,
      null,
      null,
      null,
    ];
  });
  await rows(
    {
      table: "account",
      columns: ["id", "account_id", "provider_id", "user_id", "password", "created_at", "updated_at"],
    },
    size.users,
    "accounts",
    (i) => [`acc${i}`, `m${i}`, "credential", `m${i}`, hash, iso(now - year), iso(now - year)],
  );

  const songCols = [
    "id",
    "title",
    "title_key",
    "genre",
    "release_date",
    "soundcloud_url",
    "submitted_by",
    "status",
    "verified_at",
    "upvotes",
    "downvotes",
    "favorite_count",
    "report_count",
    "version",
    "is_hidden",
    "created_at",
    "updated_at",
    "search_text",
  ];
  const credits: string[][] = [];
  await rows({ table: "song", columns: songCols }, size.songs, "songs", (i) => {
    const words = 1 + Math.floor(r.next() * 3);
    const title = Array.from({ length: words }, () => r.pick(WORDS))
      .map((w) => `${w[0]?.toUpperCase()}${w.slice(1)}`)
      .join(" ");
    const n = r.next() < 0.8 ? 1 : r.next() < 0.7 ? 2 : 3;
    const artists = [...new Set(Array.from({ length: n }, () => Math.floor(r.next() * size.artists)))];
    credits.push(artists.map((a) => `a${a}`));
    const created = now - Math.floor(r.next() * year);
    const dateRoll = r.next();
    const release =
      dateRoll < 0.35 ? null : new Date(now + Math.floor((r.next() - 0.6) * year)).toISOString().slice(0, 10);
    const fullTitle = `${title}${i % 7 === 0 ? ` (v${1 + (i % 4)})` : ""}`;
    const text = searchNormalize([fullTitle, ...artists.map((a) => artistNames[a] ?? "")].join(" "));
    return [
      `s${i}`,
      fullTitle,
      fullTitle.toLowerCase(),
      GENRES[i % GENRES.length],
      release,
      null,
      `m${Math.floor(r.next() * size.users)}`,
      "pending",
      null,
      0,
      0,
      0,
      0,
      1,
      false,
      iso(created),
      iso(created),
      text,
    ];
  });
  // song_artist rows: one per credit.
  {
    let buf: Row[] = [];
    for (let i = 0; i < credits.length; i++) {
      for (const [position, artist] of (credits[i] ?? []).entries()) buf.push([`s${i}`, artist, position]);
      if (buf.length >= batch) {
        await emit({ table: "song_artist", columns: ["song_id", "artist_id", "position"] }, buf);
        buf = [];
      }
    }
    if (buf.length) await emit({ table: "song_artist", columns: ["song_id", "artist_id", "position"] }, buf);
  }

  // Likes: skewed to popular songs; about 4% of them in the last 7 days (trending reads those).
  const pairs = new Set<string>();
  const popular = (n: number) => Math.floor(n * r.next() ** 2.2);
  await rows({ table: "favorite", columns: ["song_id", "user_id", "created_at"] }, size.favorites, "favourites", () => {
    const song = popular(size.songs);
    const user = Math.floor(r.next() * size.users);
    const key = `${song}:${user}`;
    if (pairs.has(key)) return undefined;
    pairs.add(key);
    const recent = r.next() < 0.04;
    const at =
      now - (recent ? Math.floor(r.next() * 7 * 864e5) : 7 * 864e5 + Math.floor(r.next() * (year - 7 * 864e5)));
    return [`s${song}`, `m${user}`, iso(at)];
  });
  pairs.clear();
  // Votes: 90% up, so most songs end up verified (net >= 3) and some stay pending.
  await rows(
    {
      table: "vote",
      columns: ["song_id", "user_id", "value", "reason", "details", "created_at", "updated_at"],
    },
    size.votes,
    "votes",
    () => {
      const song = Math.floor(r.next() * size.songs);
      const user = Math.floor(r.next() * size.users);
      const key = `${song}:${user}`;
      if (pairs.has(key)) return undefined;
      pairs.add(key);
      const up = r.next() < 0.9;
      const at = iso(now - Math.floor(r.next() * year));
      return [`s${song}`, `m${user}`, up ? 1 : -1, up ? null : "Fake", null, at, at];
    },
  );
  pairs.clear();
}

/** Counters from their rows, statuses from the net votes, search structures from the text. */
const FINISH = (dialect: "sqlite" | "postgres") => [
  "update song set favorite_count = coalesce((select count(*) from favorite f where f.song_id = song.id), 0)",
  "update song set upvotes = coalesce((select count(*) from vote v where v.song_id = song.id and v.value = 1), 0), downvotes = coalesce((select count(*) from vote v where v.song_id = song.id and v.value = -1), 0)",
  "update song set status = 'verified', verified_at = created_at where upvotes - downvotes >= 3",
  `insert into points_ledger (id, user_id, delta, reason, ref, created_at) select ${dialect === "postgres" ? "'pv' || row_number() over ()" : "'pv' || rowid"}, user_id, 1, 'vote', song_id, created_at from vote`,
  `update "user" set points = coalesce((select sum(delta) from points_ledger p where p.user_id = "user".id), 0)`,
  `update "user" set upload_count = (select count(*) from song_artist sa where sa.artist_id = "user".id) where is_artist = ${dialect === "postgres" ? "true" : "1"}`,
];

/** Seed a SQLite file (migrated first with the app's own migrations). */
export async function seedSqlite(file: string, size: SeedSize, progress: Progress = progressBar): Promise<void> {
  const database = openDatabase({ file });
  await migrateToLatest(database.db);
  await database.close();
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -200000");
  const statements = new Map<string, SQLite.Statement>();
  db.exec("begin");
  await generate(
    size,
    async (sink, rows) => {
      const sql = `insert into "${sink.table}" (${sink.columns.map((c) => `"${c}"`).join(", ")}) values (${sink.columns.map(() => "?").join(", ")})`;
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        statements.set(sql, stmt);
      }
      for (const row of rows) stmt.run(row.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v)));
    },
    progress,
  );
  const finish = FINISH("sqlite");
  for (const [i, sql] of finish.entries()) {
    db.exec(sql);
    progress("counters", i + 1, finish.length);
  }
  // Search: the trigram index, the whole-word index and the vocabulary, as the app keeps them.
  db.exec("insert into song_fts (song_id, search_text) select id, search_text from song");
  db.exec("insert into song_words_fts (song_id, search_text) select id, search_text from song");
  const words = new Set<string>();
  for (const row of db.prepare("select search_text from song").iterate() as Iterable<{ search_text: string }>)
    for (const w of searchWords(row.search_text)) words.add(w);
  const insertWord = db.prepare("insert or ignore into search_word (word) values (?)");
  const insertWordFts = db.prepare("insert into search_word_fts (word) values (?)");
  for (const w of words) {
    insertWord.run(w);
    insertWordFts.run(w);
  }
  progress("search index", 1, 1);
  db.exec("commit");
  db.exec("analyze");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** Seed a PostgreSQL database (migrated first with the app's own migrations). */
export async function seedPostgres(url: string, size: SeedSize, progress: Progress = progressBar): Promise<void> {
  const database = openDatabase({ url });
  await migrateToLatest(database.db);
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("begin");
  await generate(
    size,
    async (sink, rows) => {
      // 65535 parameters at most per statement.
      const per = Math.floor(60000 / sink.columns.length);
      for (let start = 0; start < rows.length; start += per) {
        const chunk = rows.slice(start, start + per);
        const values: unknown[] = [];
        const tuples = chunk.map((row) => {
          const slots = row.map((v) => {
            values.push(v);
            return `$${values.length}`;
          });
          return `(${slots.join(", ")})`;
        });
        await client.query(
          `insert into "${sink.table}" (${sink.columns.map((c) => `"${c}"`).join(", ")}) values ${tuples.join(", ")}`,
          values,
        );
      }
    },
    progress,
  );
  const finish = FINISH("postgres");
  for (const [i, sql] of finish.entries()) {
    await client.query(sql);
    progress("counters", i + 1, finish.length);
  }
  const words = new Set<string>();
  const texts = await client.query<{ search_text: string }>("select search_text from song");
  for (const row of texts.rows) for (const w of searchWords(row.search_text)) words.add(w);
  const list = [...words];
  for (let i = 0; i < list.length; i += 5000) {
    await client.query("insert into search_word (word) select unnest($1::text[]) on conflict do nothing", [
      list.slice(i, i + 5000),
    ]);
  }
  progress("search index", 1, 1);
  await client.query("commit");
  await client.query("analyze");
  await client.end();
}

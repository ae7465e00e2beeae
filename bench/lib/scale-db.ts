// The database of bench:recognition-scale: the server's own schema (its migrations), the real catalogue's songs and
// fingerprint rows exactly as the indexer stores them (less the held-out tracks, whose clips are the unknown music),
// and synthesized background songs up to the requested hours of audio whose rows draw their hashes i.i.d. from the
// real rows (so per-hash row counts look like real music) with anchor offsets spread over each song at the real rate
// (so they carry no coherent alignment). The invariant index (decision 033) likewise: the real songs' entries and
// filler copies of them (bench/lib/scale-invariant.ts). Bulk-loaded with better-sqlite3 in one transaction with the
// fingerprint indexes and the count triggers dropped (the counts written in one pass, the triggers recreated as the
// migrations made them), and cached between runs.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_PRESET, INVARIANT_INDEX } from "@unheard/fingerprint";
import { ADMIN_PERMISSIONS } from "@unheard/shared";
import { hashPassword } from "better-auth/crypto";
import SQLite from "better-sqlite3";
import { openDatabase } from "../../apps/server/src/db/database.js";
import { migrateToLatest } from "../../apps/server/src/db/migrate.js";
import { nameKey } from "../../apps/server/src/lib/text.js";
import { migrationsHash } from "./api-db.js";
import { createRandom, type Random } from "./random.js";
import { type Corpus, catalogueOf, HELD_OUT_TRACKS, heldOutIndexes } from "./scale-corpus.js";
import { type CorpusInvariant, type InvariantWriteStats, writeInvariantIndex } from "./scale-invariant.js";

/** Bump when the generated rows change: cached databases of another version are not reused. */
export const SCALE_VERSION = 3;
export const SUPER_EMAIL = "super@scale-bench.invalid";
export const SUPER_PASSWORD = "scale-bench-password-1";
/** Members (role user, off the waitlist) for bench:identify-load, signing in with MEMBER_PASSWORD. */
export const MEMBERS = 20;
export const MEMBER_PASSWORD = "scale-bench-member-1";
/** The sign-in e-mail of member `i` (0-based). */
export const memberEmail = (i: number) => `member-${i + 1}@scale-bench.invalid`;

/** Frames per second of anchor offsets (DEFAULT_PRESET: 5512 Hz, hop 128). */
const FRAMES_PER_SECOND = DEFAULT_PRESET.sampleRate / DEFAULT_PRESET.hopSize;
/** Background songs last 2.5 to 4.5 minutes (3.5 on average). */
const SONG_SECONDS = [150, 270] as const;
/** Rows per multi-row INSERT. */
const ROWS_PER_INSERT = 250;

export type ScaleDbInfo = {
  file: string;
  dir: string;
  reused: boolean;
  hours: number;
  catalogueSongs: number;
  backgroundSongs: number;
  rows: number;
  /** The invariant index's rows, keys and songs (bench/lib/scale-invariant.ts). */
  invariant: InvariantWriteStats;
  /** Song id of each corpus track, in corpus order; null for the held-out tracks (not in the database). */
  trackSongIds: (string | null)[];
  /** Names of the corpus tracks left out of the database. */
  heldOut: string[];
  /** Hours of real music in the database (the corpus less the held-out tracks). */
  catalogueHours: number;
  /** "rowid" (a plain table with secondary indexes) or "without rowid" (a clustered table). */
  layout: string;
  /** `peakRssMb`: the building process's peak resident memory (its whole life: corpus loading included). */
  build: { seconds: number; phases: Record<string, number>; peakRssMb: number };
  fileBytes: number;
  /** Bytes per b-tree (table or index) from dbstat: the plain index's (fingerprint and its indexes,
   * fingerprint_hash) and the invariant index's (fingerprint_triplet, fingerprint_triplet_key, fingerprint_song). */
  objects: { name: string; group: StoreGroup; bytes: number }[];
};

/** Which index a b-tree belongs to. */
export type StoreGroup = "plain" | "invariant";
const STORE_TABLES: Record<string, StoreGroup> = {
  fingerprint: "plain",
  fingerprint_hash: "plain",
  fingerprint_triplet: "invariant",
  fingerprint_triplet_key: "invariant",
  fingerprint_song: "invariant",
};

/** An id shaped like the app's (16 characters of a-z0-9), ordered by its numbered prefix. */
function makeId(rand: Random, kind: string, i: number): string {
  let tail = "";
  for (let k = 0; k < 9; k++) tail += "0123456789abcdefghijklmnopqrstuvwxyz"[rand.int(36)];
  return `${kind}${i.toString(36).padStart(6, "0")}${tail}`;
}

const now = () => new Date().toISOString();

/** Build (or reuse) the database for `hours` of audio under `cacheRoot`. */
export async function prepareScaleDb(opts: {
  cacheRoot: string;
  hours: number;
  corpus: Corpus;
  invariant: CorpusInvariant;
  fresh: boolean;
  keepOld: boolean;
  log: (line: string) => void;
}): Promise<ScaleDbInfo> {
  const { cacheRoot, hours, corpus, invariant, log } = opts;
  const prefix = `recognition-scale-${hours}h-`;
  // The held-out set is part of the key: a database built with other tracks in it is not reused.
  const held = createHash("sha256").update(HELD_OUT_TRACKS.join("\n")).digest("hex").slice(0, 8);
  const dir = path.join(cacheRoot, `${prefix}v${SCALE_VERSION}-${INVARIANT_INDEX.name}-ho${held}-m${migrationsHash()}`);
  const metaFile = path.join(dir, "meta.json");
  const file = path.join(dir, "unheard.db");
  if (!opts.fresh && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as ScaleDbInfo;
    return { ...meta, reused: true, fileBytes: fileBytes(file) };
  }
  if (!opts.keepOld && existsSync(cacheRoot))
    for (const other of readdirSync(cacheRoot))
      if (other.startsWith(prefix) && path.join(cacheRoot, other) !== dir) {
        log(`removing superseded ${path.join(cacheRoot, other)}`);
        rmSync(path.join(cacheRoot, other), { recursive: true, force: true });
      }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const info = await build(path.join(dir, "unheard.db.tmp"), hours, corpus, invariant, log);
  for (const suffix of ["", "-wal", "-shm"])
    if (existsSync(path.join(dir, `unheard.db.tmp${suffix}`)))
      renameSync(path.join(dir, `unheard.db.tmp${suffix}`), path.join(dir, `unheard.db${suffix}`));
  const meta: ScaleDbInfo = { ...info, file, dir, reused: false, fileBytes: fileBytes(file) };
  // Written last: a build cut short is never reused.
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  return meta;
}

function fileBytes(file: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) if (existsSync(file + suffix)) total += statSync(file + suffix).size;
  return total;
}

async function build(
  file: string,
  hours: number,
  corpus: Corpus,
  invariant: CorpusInvariant,
  log: (line: string) => void,
): Promise<Omit<ScaleDbInfo, "file" | "dir" | "reused" | "fileBytes">> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  let phaseStart = started;
  const phase = (name: string) => {
    const t = performance.now();
    phases[name] = (t - phaseStart) / 1000;
    phaseStart = t;
    log(`  ${name}: ${phases[name]?.toFixed(1)} s`);
  };

  // The app's migrations, exactly as the server runs them.
  const database = openDatabase({ file });
  await migrateToLatest(database.db);
  await database.close();
  phase("migrations");

  const rand = createRandom(0x5ca1e ^ hours);
  const held = heldOutIndexes(corpus);
  const catalogue = catalogueOf(corpus);
  const rate = catalogue.rows / catalogue.seconds;
  // Background songs until catalogue + background reach the requested hours.
  const target = hours * 3600 - catalogue.seconds;
  const durations: number[] = [];
  for (let total = 0; total < target; ) {
    const d = Math.min(target - total, SONG_SECONDS[0] + rand.next() * (SONG_SECONDS[1] - SONG_SECONDS[0]));
    durations.push(d);
    total += d;
  }
  const S = durations.length;
  const rowStart = new Float64Array(S + 1);
  for (let s = 0; s < S; s++) rowStart[s + 1] = (rowStart[s] as number) + Math.round((durations[s] as number) * rate);
  const R = rowStart[S] as number;
  log(
    `  ${catalogue.indexes.length} catalogue songs (${(catalogue.seconds / 3600).toFixed(2)} h, ${catalogue.rows.toLocaleString("en")} rows; ${held.size} held out) + ${S.toLocaleString("en")} background songs (${(target / 3600).toFixed(1)} h, ${R.toLocaleString("en")} rows at ${rate.toFixed(1)} rows/s)`,
  );
  // Every background row's hash, drawn i.i.d. from the catalogue's real rows (not the held-out tracks').
  const pool = new Int32Array(catalogue.rows);
  let at = 0;
  for (const i of catalogue.indexes) {
    const t = corpus.tracks[i] as Corpus["tracks"][number];
    pool.set(t.hashes, at);
    at += t.hashes.length;
  }
  const bgHash = new Int32Array(R);
  for (let i = 0; i < R; i++) bgHash[i] = pool[rand.int(pool.length)] as number;
  phase("generate");

  const db = new SQLite(file);
  // Nothing to recover from: a build that fails is thrown away (the cache only keeps finished ones). Out of WAL
  // (the migrations left it there; a single transaction would otherwise write every page to the WAL first and
  // then again at the checkpoint); better-sqlite3's defensive mode refuses OFF, and an in-memory rollback journal
  // stays tiny as nearly every page is new.
  db.pragma("journal_mode = DELETE");
  const journal = db.pragma("journal_mode = MEMORY", { simple: true });
  if (journal !== "memory") throw new Error(`could not leave WAL for the build (journal_mode ${String(journal)})`);
  db.pragma("synchronous = OFF");
  db.pragma("foreign_keys = OFF");
  db.pragma("cache_size = -2000000");
  db.pragma("temp_store = FILE");
  const tableSql = (
    db.prepare("select sql from sqlite_master where type = 'table' and name = 'fingerprint'").get() as {
      sql: string;
    }
  ).sql;
  const layout = /without\s+rowid/i.test(tableSql) ? "without rowid" : "rowid";
  const indexes = db
    .prepare(
      "select name, sql from sqlite_master where type = 'index' and tbl_name = 'fingerprint' and sql is not null",
    )
    .all() as { name: string; sql: string }[];
  // The per-hash and per-key counts' triggers (migrations 0017, 0020) would upsert once per row: off for the load,
  // the counts made in one pass, the triggers back as the migrations made them.
  const triggers = db
    .prepare(
      "select name, sql from sqlite_master where type = 'trigger' and tbl_name in ('fingerprint', 'fingerprint_triplet')",
    )
    .all() as { name: string; sql: string }[];
  if (triggers.filter((t) => /fingerprint_triplet/.test(t.sql)).length !== 2)
    throw new Error("expected migration 0020's two triggers on fingerprint_triplet");
  db.exec("begin");
  for (const ix of indexes) db.exec(`drop index "${ix.name}"`);
  for (const tr of triggers) db.exec(`drop trigger "${tr.name}"`);

  // Songs: the catalogue (titled after the tracks) and the background, indexed with the default preset and without
  // audio (audio_key null), so neither the startup nor the job queue tries to index them again.
  const at0 = now();
  // invariant_preset set: the server's backfill re-indexes songs whose preset is not the current one.
  const insertSong = db.prepare(
    `insert into song (id, title, title_key, genre, status, created_at, updated_at, duration_sec,
       fingerprinted_at, fingerprint_preset, invariant_at, invariant_preset)
     values (?, ?, ?, 'Other', 'verified', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const trackSongIds = corpus.tracks.map((t, i) => {
    if (held.has(i)) return null;
    const id = makeId(rand, "a", i);
    const title = t.name.replace(/\.ogg$/, "");
    insertSong.run(id, title, nameKey(title), at0, at0, t.seconds, at0, DEFAULT_PRESET.name, at0, INVARIANT_INDEX.name);
    return id;
  });
  const bgIds: string[] = new Array(S);
  for (let s = 0; s < S; s++) {
    const id = makeId(rand, "b", s);
    bgIds[s] = id;
    const title = `Background ${s + 1}`;
    insertSong.run(
      id,
      title,
      nameKey(title),
      at0,
      at0,
      durations[s],
      at0,
      DEFAULT_PRESET.name,
      at0,
      INVARIANT_INDEX.name,
    );
  }
  // A super admin who signs in with a password (role and admin record as onSignIn() gives SUPER_ADMIN_EMAIL).
  const superId = makeId(rand, "z", 0);
  db.prepare(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at, username, username_key, role, off_waitlist)
     values (?, 'scale-super', ?, 1, ?, ?, 'scale-super', 'scale-super', 'super_admin', 1)`,
  ).run(superId, SUPER_EMAIL, at0, at0);
  db.prepare(
    `insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
     values (?, ?, 'credential', ?, ?, ?, ?)`,
  ).run(makeId(rand, "c", 0), superId, superId, await hashPassword(SUPER_PASSWORD), at0, at0);
  db.prepare("insert into admin (user_id, permissions, added_by, added_at) values (?, ?, null, ?)").run(
    superId,
    JSON.stringify(Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, true]))),
    at0,
  );
  // Members who identify in bench:identify-load: verified, off the waitlist, one password hash for all.
  const memberHash = await hashPassword(MEMBER_PASSWORD);
  const insertMember = db.prepare(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at, username, username_key, role, off_waitlist)
     values (?, ?, ?, 1, ?, ?, ?, ?, 'user', 1)`,
  );
  const insertAccount = db.prepare(
    `insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
     values (?, ?, 'credential', ?, ?, ?, ?)`,
  );
  for (let i = 0; i < MEMBERS; i++) {
    const id = makeId(rand, "m", i);
    const handle = `scale-member-${i + 1}`;
    insertMember.run(id, handle, memberEmail(i), at0, at0, handle, nameKey(handle));
    insertAccount.run(makeId(rand, "c", i + 1), id, id, memberHash, at0, at0);
  }
  phase("songs");

  // Fingerprint rows through multi-row prepared INSERTs.
  const values = (n: number) => Array.from({ length: n }, () => "(?, ?, ?)").join(", ");
  const bulk = db.prepare(`insert into fingerprint (hash, song_id, "offset") values ${values(ROWS_PER_INSERT)}`);
  const one = db.prepare(`insert into fingerprint (hash, song_id, "offset") values (?, ?, ?)`);
  const params: (number | string)[] = new Array(3 * ROWS_PER_INSERT);
  let fill = 0;
  let written = 0;
  const total = catalogue.rows + R;
  let lastLog = performance.now();
  const push = (hash: number, songId: string, offset: number) => {
    params[fill++] = hash;
    params[fill++] = songId;
    params[fill++] = offset;
    if (fill === params.length) {
      bulk.run(params);
      fill = 0;
      written += ROWS_PER_INSERT;
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        const secs = (lastLog - phaseStart) / 1000;
        log(
          `    ${written.toLocaleString("en")}/${total.toLocaleString("en")} rows, ${secs.toFixed(0)} s, ${Math.round(written / secs).toLocaleString("en")} rows/s`,
        );
      }
    }
  };
  const flush = () => {
    for (let i = 0; i < fill; i += 3) one.run(params[i], params[i + 1], params[i + 2]);
    written += fill / 3;
    fill = 0;
  };
  const bgOffset = (s: number, k: number) => {
    const n = (rowStart[s + 1] as number) - (rowStart[s] as number);
    return Math.floor((k * (durations[s] as number) * FRAMES_PER_SECOND) / n);
  };
  // Song by song, as the indexer writes them: the catalogue first, then the background.
  for (const [i, t] of corpus.tracks.entries()) {
    const id = trackSongIds[i];
    if (id === null || id === undefined) continue;
    for (let k = 0; k < t.hashes.length; k++) push(t.hashes[k] as number, id, t.offsets[k] as number);
  }
  for (let s = 0; s < S; s++) {
    const id = bgIds[s] as string;
    const base = rowStart[s] as number;
    const n = (rowStart[s + 1] as number) - base;
    for (let k = 0; k < n; k++) push(bgHash[base + k] as number, id, bgOffset(s, k));
  }
  flush();
  phase("fingerprint rows");
  for (const ix of indexes) {
    db.exec(ix.sql);
    phase(`index ${ix.name}`);
  }
  db.exec("delete from fingerprint_hash");
  db.exec("insert into fingerprint_hash (hash, n) select hash, count(*) from fingerprint group by hash");
  phase("hash counts");
  db.exec("delete from fingerprint_triplet_key");
  const inv = writeInvariantIndex(db, {
    catalogue: catalogue.indexes.map((i) => ({
      songId: trackSongIds[i] as string,
      seconds: (corpus.tracks[i] as Corpus["tracks"][number]).seconds,
      entries: invariant.tracks[i] as CorpusInvariant["tracks"][number],
    })),
    filler: { songIds: bgIds, seconds: durations },
    createdAt: at0,
    seed: 0x1a7 ^ hours,
    log,
  });
  log(
    `    ${inv.rows.toLocaleString("en")} invariant rows (${inv.catalogueRows.toLocaleString("en")} real, ${inv.fillerRows.toLocaleString("en")} filler, ${inv.duplicates} duplicates left out), ${inv.keys.toLocaleString("en")} keys`,
  );
  phase("invariant rows");
  for (const tr of triggers) db.exec(tr.sql);
  db.exec("commit");
  phase("commit");
  const tables = Object.keys(STORE_TABLES);
  const objects = (
    db
      .prepare(
        `select d.name, m.tbl_name as tbl, sum(d.pgsize) as bytes from dbstat d join sqlite_master m on m.name = d.name
         where m.tbl_name in (${tables.map(() => "?").join(", ")}) group by d.name order by m.tbl_name, d.name`,
      )
      .all(...tables) as { name: string; tbl: string; bytes: number }[]
  ).map((o) => ({ name: o.name, group: STORE_TABLES[o.tbl] as StoreGroup, bytes: Number(o.bytes) }));
  phase("dbstat");
  // As the server leaves it: WAL (it sets this itself too). No ANALYZE: the app never runs it.
  db.pragma("journal_mode = WAL");
  db.close();
  return {
    hours,
    catalogueSongs: catalogue.indexes.length,
    backgroundSongs: S,
    rows: catalogue.rows + R,
    invariant: inv,
    trackSongIds,
    heldOut: [...held].map((i) => corpus.tracks[i]?.name ?? String(i)),
    catalogueHours: catalogue.seconds / 3600,
    layout,
    build: {
      seconds: (performance.now() - started) / 1000,
      phases,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    },
    objects,
  };
}

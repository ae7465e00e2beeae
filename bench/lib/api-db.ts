// The databases of `npm run bench:api`: a seeded catalogue cached between runs (keyed by dialect, size, seed
// version and the app's migrations), a pristine copy of it per run, and plain SQL access for the orchestrator.
import { createHash } from "node:crypto";
import {
  chmodSync,
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
import { adminQuery, type Cluster, findPgBin, startCluster } from "./api-postgres.js";
import { SEED_VERSION, type SeedResult, type SeedSize, seedPostgres, seedSqlite } from "./api-seed.js";
import { ROOT } from "./web-server.js";

export type Dialect = "sqlite" | "postgres";

/** Plain SQL on the run's database (no parameters: the orchestrator only embeds ids it read itself). */
export type Sql = { query<T = Record<string, unknown>>(text: string): Promise<T[]>; close(): Promise<void> };

/** A run's database: a fresh copy of the cached seed. */
export type RunDatabase = {
  dialect: Dialect;
  /** DATA_DIR for the server (holds unheard.db on SQLite). */
  dataDir: string;
  databaseUrl?: string;
  seed: SeedResult & { reused: boolean; where: string };
  open(): Promise<Sql>;
  dispose(): Promise<void>;
};

export const CACHE_ROOT = path.join(os.tmpdir(), "unheard-bench-cache");

/** Changes to the app's migrations make a cached seed (or scale database) stale. */
export function migrationsHash(): string {
  const dir = path.join(ROOT, "apps/server/src/db/migrations");
  const hash = createHash("sha1");
  for (const f of readdirSync(dir).sort()) {
    hash.update(f);
    hash.update(readFileSync(path.join(dir, f)));
  }
  return hash.digest("hex").slice(0, 8);
}

function cacheKey(dialect: string, size: SeedSize): string {
  return `${dialect}-${size.songs}s-${size.users}u-${size.artists}a-${size.favorites}f-${size.votes}v-seed${SEED_VERSION}-m${migrationsHash()}`;
}

/** A literal for embedding ids and short strings in SQL. */
export const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

export function sqliteSql(file: string): Sql {
  const db = new SQLite(file);
  return {
    query: async <T>(text: string) => db.prepare(text).all() as T[],
    close: async () => void db.close(),
  };
}

export async function pgSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <T>(text: string) => (await client.query(text)).rows as T[],
    close: () => client.end(),
  };
}

type Meta = SeedResult & { key: string; size: SeedSize; at: string };

/** Remove cached seeds of the same dialect and catalogue size made by another seed version or migration set. */
function pruneSuperseded(dir: string): void {
  const name = path.basename(dir);
  const prefix = /^.*?-\d+s-/.exec(name)?.[0];
  if (!prefix) return;
  for (const other of readdirSync(CACHE_ROOT))
    if (other !== name && other.startsWith(prefix) && other.includes("-seed"))
      rmSync(path.join(CACHE_ROOT, other), { recursive: true, force: true });
}

/** Seed (or reuse) SQLite and copy it for this run. */
async function sqliteRun(size: SeedSize, fresh: boolean): Promise<RunDatabase> {
  const dir = path.join(CACHE_ROOT, cacheKey("sqlite", size));
  const metaFile = path.join(dir, "meta.json");
  let meta: Meta | undefined;
  let reused = false;
  if (!fresh && existsSync(metaFile)) {
    meta = JSON.parse(readFileSync(metaFile, "utf8")) as Meta;
    reused = true;
  } else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    pruneSuperseded(dir);
    process.stderr.write(`seeding SQLite: ${describe(size)}\n`);
    const result = await seedSqlite(path.join(dir, "seed.db.tmp"), size);
    renameSync(path.join(dir, "seed.db.tmp"), path.join(dir, "seed.db"));
    meta = { ...result, key: path.basename(dir), size, at: new Date().toISOString() };
    // Written last: a seed cut short is never reused.
    writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "unheard-bench-run-"));
  const file = path.join(dataDir, "unheard.db");
  copyFileSync(path.join(dir, "seed.db"), file);
  return {
    dialect: "sqlite",
    dataDir,
    seed: { counts: meta.counts, seconds: meta.seconds, reused, where: dir },
    open: async () => sqliteSql(file),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

const MARKER = "unheard-bench";

/**
 * PostgreSQL. With BENCH_DATABASE_URL: that database is seeded when it is empty (or holds another bench seed, or
 * with --fresh) and runs use it as it is (writes accumulate; they keep every counter consistent). Without it: a
 * cluster of our own whose data directory is the cache; each run gets `CREATE DATABASE ... TEMPLATE seed`.
 */
async function postgresRun(size: SeedSize, fresh: boolean): Promise<RunDatabase> {
  const key = cacheKey("postgres", size);
  const given = process.env.BENCH_DATABASE_URL;
  if (given) {
    const sql = await pgSql(given);
    let marker: string | undefined;
    try {
      const tables = await sql.query<{ n: string }>(
        "select count(*) as n from information_schema.tables where table_schema = current_schema()",
      );
      const comment = await sql.query<{ c: string | null }>(
        "select obj_description(to_regclass('song'), 'pg_class') as c",
      );
      marker = comment[0]?.c ?? undefined;
      if (Number(tables[0]?.n ?? 0) > 0 && !marker?.startsWith(MARKER))
        throw new Error(
          "BENCH_DATABASE_URL holds tables that are not a bench seed: give the benchmark an empty database",
        );
      if (fresh || (marker && marker !== `${MARKER} ${key}`)) {
        await sql.query("drop schema public cascade");
        await sql.query("create schema public");
        marker = undefined;
      }
    } finally {
      await sql.close();
    }
    let seed: RunDatabase["seed"];
    if (marker)
      seed = {
        ...(JSON.parse(marker.slice(marker.indexOf("{"))) as SeedResult),
        reused: true,
        where: "BENCH_DATABASE_URL",
      };
    else {
      process.stderr.write(`seeding PostgreSQL (BENCH_DATABASE_URL): ${describe(size)}\n`);
      const result = await seedPostgres(given, size);
      await adminQuery(given, [`comment on table song is ${lit(`${MARKER} ${key} ${JSON.stringify(result)}`)}`]);
      seed = { ...result, reused: false, where: "BENCH_DATABASE_URL" };
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "unheard-bench-run-"));
    return {
      dialect: "postgres",
      dataDir,
      databaseUrl: given,
      seed,
      open: () => pgSql(given),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }

  const version = path.basename(path.dirname(findPgBin() ?? "pg"));
  const dir = path.join(CACHE_ROOT, `pg${version}-${key}`);
  const metaFile = path.join(dir, "meta.json");
  mkdirSync(CACHE_ROOT, { recursive: true });
  chmodSync(CACHE_ROOT, 0o755);
  if (fresh || !existsSync(metaFile)) {
    rmSync(dir, { recursive: true, force: true });
    pruneSuperseded(dir);
  }
  const reused = existsSync(metaFile);
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster(dir);
    let meta: Meta;
    if (reused) meta = JSON.parse(readFileSync(metaFile, "utf8")) as Meta;
    else {
      await adminQuery(cluster.url("postgres"), ["drop database if exists seed", "create database seed"]);
      process.stderr.write(`seeding PostgreSQL ${version} (own cluster in ${dir}): ${describe(size)}\n`);
      const result = await seedPostgres(cluster.url("seed"), size);
      await adminQuery(cluster.url("postgres"), ["checkpoint"]);
      meta = { ...result, key, size, at: new Date().toISOString() };
      writeFileSync(metaFile, JSON.stringify(meta, null, 2));
    }
    const run = `run_${process.pid}`;
    await adminQuery(cluster.url("postgres"), [
      `drop database if exists ${run}`,
      `create database ${run} template seed`,
    ]);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "unheard-bench-run-"));
    const owned = cluster;
    const url = owned.url(run);
    return {
      dialect: "postgres",
      dataDir,
      databaseUrl: url,
      seed: { counts: meta.counts, seconds: meta.seconds, reused, where: dir },
      open: () => pgSql(url),
      dispose: async () => {
        rmSync(dataDir, { recursive: true, force: true });
        try {
          await adminQuery(owned.url("postgres"), [`drop database if exists ${run} with (force)`]);
        } finally {
          owned.stop();
        }
      },
    };
  } catch (err) {
    cluster?.stop();
    throw err;
  }
}

export function describe(size: SeedSize): string {
  const f = (n: number) => n.toLocaleString("en");
  return `${f(size.songs)} songs, ${f(size.users)} members, ${f(size.artists)} artists, ${f(size.favorites)} favourites, ${f(size.votes)} votes`;
}

/** The run's database, seeded or taken from the cache. */
export function prepareDatabase(dialect: Dialect, size: SeedSize, fresh: boolean): Promise<RunDatabase> {
  return dialect === "sqlite" ? sqliteRun(size, fresh) : postgresRun(size, fresh);
}

// Processes and databases of `npm run bench:api`: the seeded database (cached between runs), the production
// server and the hello-world as child processes (with RSS sampling), and the load generator's process.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import pg from "pg";
import type { LoadResult, LoadSpec } from "./api-load.js";
import { type SeedSize, seedPostgres, seedSqlite } from "./api-seed.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SEED_VERSION = 1;
export const AUTH_SECRET = "bench-secret-bench-secret-bench-secret-42";

/** The database a run serves: a copy of the seeded SQLite file, or a PostgreSQL database made from its template. */
export type Db = { dialect: "sqlite" | "postgres"; dataDir: string; file?: string; url?: string };

/** Rows of a query against the run's database ($1, $2 placeholders on both). */
export async function sqlOf(db: Db, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (db.dialect === "sqlite") {
    const conn = new SQLite(db.file ?? "");
    try {
      const text = sql.replace(/\$\d+/g, "?");
      const stmt = conn.prepare(text);
      if (stmt.reader) return stmt.all(...params) as Record<string, unknown>[];
      stmt.run(...params);
      return [];
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Seed (or reuse) a database of this size, give `fn` a fresh copy of it, then remove the copy. */
export async function withDatabase(
  dialect: "sqlite" | "postgres",
  size: SeedSize,
  fresh: boolean,
  fn: (db: Db) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "unheard-bench-run-"));
  try {
    if (dialect === "sqlite") {
      const cacheDir = path.join(os.tmpdir(), "unheard-bench-cache");
      mkdirSync(cacheDir, { recursive: true });
      const cached = path.join(cacheDir, `sqlite-v${SEED_VERSION}-${size.songs}.db`);
      if (fresh || !existsSync(cached)) {
        rmSync(cached, { force: true });
        const started = performance.now();
        process.stderr.write(`seeding SQLite with ${size.songs.toLocaleString("en")} songs…\n`);
        await seedSqlite(`${cached}.tmp`, size);
        copyFileSync(`${cached}.tmp`, cached);
        for (const ext of ["", "-wal", "-shm"]) rmSync(`${cached}.tmp${ext}`, { force: true });
        process.stderr.write(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      } else process.stderr.write(`using the seeded copy ${cached}\n`);
      const file = path.join(dataDir, "unheard.db");
      copyFileSync(cached, file);
      await fn({ dialect, dataDir, file });
      return;
    }
    const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("no PostgreSQL: run through scripts/with-postgres.mjs or set BENCH_DATABASE_URL");
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const template = `unheard_bench_v${SEED_VERSION}_${size.songs}`;
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [template])).rowCount;
    if (fresh || !exists) {
      await admin.query(`drop database if exists ${template}`);
      await admin.query(`create database ${template}`);
      const started = performance.now();
      process.stderr.write(`seeding PostgreSQL with ${size.songs.toLocaleString("en")} songs…\n`);
      await seedPostgres(withDbName(adminUrl, template), size);
      process.stderr.write(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    const run = `unheard_bench_run_${process.pid}`;
    await admin.query(`drop database if exists ${run}`);
    await admin.query(`create database ${run} template ${template}`);
    try {
      await fn({ dialect, dataDir, url: withDbName(adminUrl, run) });
    } finally {
      await admin.query(`drop database if exists ${run} with (force)`);
      await admin.end();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const withDbName = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** A child process serving HTTP, with its RSS sampled while it runs. */
export type ServerProcess = {
  url: string;
  command: string;
  pid: number;
  peakRssMb(): number;
  /** Start sampling RSS (during a load); returns the stop function. */
  sample(): () => void;
  stop(): Promise<void>;
};

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function waitForPort(child: ChildProcess, pattern: RegExp, label: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.once("exit", (code) => reject(new Error(`${label} exited (${code}) before listening:\n${out}`)));
  });
}

function wrap(child: ChildProcess, url: string, command: string): ServerProcess {
  let peak = 0;
  return {
    url,
    command,
    pid: child.pid ?? 0,
    peakRssMb: () => peak,
    sample() {
      const timer = setInterval(() => {
        peak = Math.max(peak, rssMb(child.pid ?? 0));
      }, 100);
      return () => clearInterval(timer);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The production server (the bundle `npm start` runs, built first if stale) on the run's database. */
export async function startServer(db: Db): Promise<ServerProcess> {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "--if-stale"], { cwd: ROOT, stdio: "inherit" });
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: "http://127.0.0.1",
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.url ?? "",
    AUTH_SECRET,
    SEED_DEMO: "false",
    LOG_LEVEL: "info",
    WAITLIST_GATE: "false",
    VOTES_PER_MINUTE: "100000000",
    AUTH_LIMIT_SCALE: "1000",
    SMTP_URL: "",
  };
  const args = ["--enable-source-maps", "apps/server/dist/main.js"];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  // PORT=0: Fastify logs the address it got.
  const port = await waitForPort(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/, "server");
  return wrap(child, `http://127.0.0.1:${port}`, `node ${args.join(" ")}`);
}

/** The bare Fastify hello-world in its own process. */
export async function startHelloWorld(): Promise<ServerProcess> {
  const args = ["--import", "tsx", "bench/hello-world.ts"];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const port = await waitForPort(child, /listening (\d+)/, "hello-world");
  return wrap(child, `http://127.0.0.1:${port}`, `node ${args.join(" ")}`);
}

/** One scenario, driven by autocannon in a process of its own, while the server's RSS is sampled. */
export async function runLoad(
  name: string,
  requests: LoadSpec["requests"],
  url: string,
  opts: { connections: number; seconds: number; trackKeys?: string[] | undefined },
  server: ServerProcess,
): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "unheard-load-"));
  const specFile = path.join(dir, "spec.json");
  const spec: LoadSpec = {
    url,
    connections: opts.connections,
    seconds: opts.seconds,
    requests,
    ...(opts.trackKeys ? { trackKeys: opts.trackKeys } : {}),
  };
  writeFileSync(specFile, JSON.stringify(spec));
  process.stderr.write(`  ${name.padEnd(44)} `);
  const stopSampling = server.sample();
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/api-load.ts", specFile], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      child.stdout.on("data", (d: Buffer) => {
        text += d.toString();
      });
      child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`load generator exited ${code}`))));
    });
    const result = JSON.parse(out.trim().split("\n").pop() ?? "{}") as LoadResult;
    process.stderr.write(
      `${Math.round(result.rps).toLocaleString("en").padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}\n`,
    );
    return result;
  } finally {
    stopSampling();
    rmSync(dir, { recursive: true, force: true });
  }
}

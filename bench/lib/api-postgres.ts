// A PostgreSQL cluster for the load benchmark, started the way scripts/with-postgres.mjs starts its test cluster
// (initdb + pg_ctl, as the `postgres` user when run as root), but with durable settings: fsync and
// synchronous_commit stay on, so writes are measured as production would do them.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort } from "./web-server.js";

/** The newest PostgreSQL server binaries installed, or PG_BIN. */
export function findPgBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join(root, v, "bin");
    if (existsSync(path.join(bin, "initdb"))) return bin;
  }
  return undefined;
}

export type Cluster = { port: number; url: (database: string) => string; stop: () => void };

/** Run a server tool; as root PostgreSQL refuses to run, so it runs as `postgres`. */
function pgExec(bin: string, tool: string, args: string[]): void {
  const full = path.join(bin, tool);
  if (process.getuid?.() === 0) {
    const quoted = [full, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", quoted], { stdio: ["ignore", "ignore", "inherit"] });
  } else {
    execFileSync(full, args, { stdio: ["ignore", "ignore", "inherit"] });
  }
}

/**
 * Start a cluster whose files live in `dir` (created with initdb when `dir/data` is missing). The sockets and the
 * log stay in `dir` too. Settings: shared_buffers 256MB; durability as PostgreSQL ships it.
 */
export async function startCluster(dir: string): Promise<Cluster> {
  const bin = findPgBin();
  if (!bin)
    throw new Error(
      "PostgreSQL server binaries not found (looked in /usr/lib/postgresql/*/bin). Install them (apt-get install -y postgresql) or set BENCH_DATABASE_URL=postgres://...",
    );
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, "data");
  if (!existsSync(dataDir))
    pgExec(bin, "initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c shared_buffers=256MB",
    "-c max_connections=100",
    "-c max_wal_size=2GB",
  ].join(" ");
  pgExec(bin, "pg_ctl", ["-D", dataDir, "-o", opts, "-l", path.join(dir, "server.log"), "-w", "-t", "120", "start"]);
  let stopped = false;
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      if (stopped) return;
      stopped = true;
      // A clean shutdown: the data directory may be kept as the seed cache.
      pgExec(bin, "pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "120", "stop"]);
    },
  };
}

/** Run statements on one database of the cluster (CREATE/DROP DATABASE cannot run in a transaction). */
export async function adminQuery(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

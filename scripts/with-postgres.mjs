#!/usr/bin/env node
// Run a command with TEST_DATABASE_URL pointing at a real PostgreSQL server.
// Uses TEST_DATABASE_URL when set; otherwise starts a throwaway cluster (initdb + pg_ctl, as the
// `postgres` user when run as root) in a temp directory on a free port, and removes it afterwards.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: with-postgres.mjs <command> [args...]");
  process.exit(2);
}

function findBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, "bin");
    if (existsSync(path.join(bin, "initdb"))) return bin;
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

function run(command, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env, shell: process.platform === "win32" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.env.TEST_DATABASE_URL) {
  process.exit(await run(cmd, { ...process.env, TEST_DIALECTS: "postgres" }));
}

const bin = findBin();
if (!bin) {
  console.error(
    "PostgreSQL server binaries not found (looked in /usr/lib/postgresql/*/bin). " +
      "Install them (apt-get install -y postgresql) or set TEST_DATABASE_URL=postgres://...",
  );
  process.exit(1);
}

const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(path.join(tmpdir(), "unheard-pg-"));
chmodSync(dir, 0o777);
const dataDir = path.join(dir, "data");
const port = await freePort();
// As root, PostgreSQL refuses to run: use the postgres user for the server's own commands.
const pgExec = (tool, toolArgs) => {
  const full = path.join(bin, tool);
  if (asRoot) {
    const quoted = [full, ...toolArgs].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", quoted], { stdio: ["ignore", "ignore", "inherit"] });
  } else {
    execFileSync(full, toolArgs, { stdio: ["ignore", "ignore", "inherit"] });
  }
};

let code = 1;
try {
  pgExec("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  // Durability off: this cluster lives for one test run.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  pgExec("pg_ctl", ["-D", dataDir, "-o", opts, "-l", path.join(dir, "server.log"), "-w", "start"]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  console.log(`PostgreSQL test cluster on port ${port}`);
  code = await run(cmd, { ...process.env, TEST_DATABASE_URL: url, TEST_DIALECTS: "postgres" });
} catch (err) {
  console.error(`Could not start PostgreSQL: ${err.message}`);
} finally {
  try {
    pgExec("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
  } catch {}
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);

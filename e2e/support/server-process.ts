// Child server processes: shared by the browser tests' global setup and the benchmarks (bench/lib/web-server.ts,
// bench/lib/api-processes.ts). Node only, no Playwright.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

/** Ask the OS for a port nobody listens on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Spawn `node …args` from `cwd` as a server on 127.0.0.1:`port` (PORT and HOST over the environment and `env`). */
export function spawnServer(args: string[], opts: { cwd: string; port: number; env: Record<string, string> }) {
  return spawn(process.execPath, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env, PORT: String(opts.port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Environment of a throwaway server with the demo data over a fresh `dataDir`: SQLite, no SMTP, warnings only. */
export function demoServerEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO: "true",
    // A smaller catalogue than `npm start`'s 300 (the 16 hand-written songs and 44 more) keeps a first run's
    // background audio rendering short; rendered audio outlives each run's data folder in this cache.
    DEMO_SONGS: "60",
    DEMO_CACHE_DIR: path.resolve(import.meta.dirname, "../../node_modules/.cache/unheard-demo-audio"),
    LOG_LEVEL: "warn",
    SMTP_URL: "",
    DATABASE_URL: "",
  };
}

/** Poll `url` until it answers 2xx (true), or until `child` exits or `timeoutMs` pass (false). */
export async function waitUntilOk(
  url: string,
  child: ChildProcess,
  opts: { timeoutMs: number; intervalMs: number },
): Promise<boolean> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
  return false;
}

/** Stop `child` with SIGTERM (SIGKILL after `killAfterMs`) and wait for it to exit; nothing if it already has. */
export async function stopProcess(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}

/** Collect what `child` prints on stdout and stderr (the last `maxChars` of it); returns a reader. */
export function keepOutput(child: ChildProcess, maxChars = Number.POSITIVE_INFINITY): () => string {
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-maxChars);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => output;
}

// Child processes of the load benchmark: the production server and a bare Fastify hello-world, each in a
// process of its own (the load generator runs in a third one), and a sampler of the server's resident memory.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { keepOutput, spawnServer, stopProcess, waitUntilOk } from "../../e2e/support/server-process.js";
import { freePort, ROOT } from "./web-server.js";

/**
 * How to run the production server: the esbuild bundle when it exists and was built from the current sources
 * (the stamp scripts/build.mjs keeps); otherwise the TypeScript sources through tsx, so a stale bundle is never
 * measured in place of the code in the tree.
 */
export function serverCommand(): { args: string[]; label: string } {
  const built = path.join(ROOT, "apps/server/dist/main.js");
  if (existsSync(built)) {
    let current = false;
    try {
      const stamp = JSON.parse(readFileSync(path.join(ROOT, ".build-stamp.json"), "utf8")) as { server?: string };
      const hash = execFileSync(
        process.execPath,
        ["--input-type=module", "-e", 'console.log((await import("./scripts/build.mjs")).sourceHash("server"))'],
        { cwd: ROOT, encoding: "utf8" },
      ).trim();
      current = stamp.server === hash;
    } catch {
      current = false;
    }
    if (current) return { args: [built], label: "apps/server/dist/main.js (bundle, current)" };
    return {
      args: ["--import", "tsx", "apps/server/src/main.ts"],
      label: "apps/server/src/main.ts via tsx (the bundle in dist is older than the sources)",
    };
  }
  return { args: ["--import", "tsx", "apps/server/src/main.ts"], label: "apps/server/src/main.ts via tsx" };
}

export type Child = { pid: number; base: string; output: () => string; stop: () => Promise<void> };

/** Spawn `node args` with env, wait until `probe` answers 200 (at most `timeoutMs`). */
async function startChild(
  args: string[],
  env: Record<string, string>,
  port: number,
  probe: string,
  timeoutMs = 120_000,
): Promise<Child> {
  const base = `http://127.0.0.1:${port}`;
  const child = spawnServer(args, { cwd: ROOT, port, env });
  const output = keepOutput(child, 20_000);
  const stop = () => stopProcess(child, 15_000);
  if (await waitUntilOk(`${base}${probe}`, child, { timeoutMs, intervalMs: 200 })) {
    return { pid: child.pid ?? 0, base, output, stop };
  }
  await stop();
  throw new Error(`${args.join(" ")} did not answer ${probe}.\n--- output ---\n${output()}`);
}

export const AUTH_SECRET = "unheard-bench-secret-0123456789abcdef0123456789";

/**
 * The production server on a free port over DATA_DIR (SQLite there) or DATABASE_URL. `nodeFlags` go before the
 * script (e.g. --cpu-prof, which NODE_OPTIONS does not take); `startTimeoutMs` leaves time for migrations a large
 * cached database lacks, which run before the server listens.
 */
export async function startServer(opts: {
  dataDir: string;
  databaseUrl?: string;
  nodeFlags?: string[];
  startTimeoutMs?: number;
}): Promise<Child & { label: string }> {
  const port = await freePort();
  const { args, label } = serverCommand();
  const flags = opts.nodeFlags ?? [];
  const child = await startChild(
    [...flags, ...args],
    {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: opts.dataDir,
      DATABASE_URL: opts.databaseUrl ?? "",
      SEED_DEMO: "false",
      AUTH_SECRET,
      VOTES_PER_MINUTE: "100000000",
      // The vote scenario's accounts are minutes old: let their votes count and leave them uncapped (decisions 014, 015).
      VOTE_MIN_ACCOUNT_DAYS: "0",
      VOTE_MIN_RECORD: "0",
      DAILY_CAPS: "false",
      // The load comes from one address: the public API's per-address limits would answer most of it 429.
      PUBLIC_RATE_LIMIT: "0",
      EXPORT_RATE_LIMIT: "0",
      AUTH_LIMIT_SCALE: "1000",
      WAITLIST_GATE: "false",
      SUPER_ADMIN_EMAIL: "",
      SMTP_URL: "",
      S3_BUCKET: "",
      S3_ENDPOINT: "",
      S3_ACCESS_KEY_ID: "",
      S3_SECRET_ACCESS_KEY: "",
    },
    port,
    "/api/health",
    opts.startTimeoutMs,
  );
  return { ...child, label: flags.length ? `${label} with ${flags.map((f) => f.split("=")[0]).join(" ")}` : label };
}

/** bench/hello-world.ts on a free port. */
export async function startHelloWorld(): Promise<Child> {
  return startChild(["--import", "tsx", "bench/hello-world.ts"], { NODE_ENV: "production" }, await freePort(), "/");
}

/** Resident memory of a process in MB (VmRSS), or 0 once it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms; `peak()` since the last `reset()`. */
export function rssSampler(pid: number) {
  let peak = rssMb(pid);
  let overall = peak;
  const timer = setInterval(() => {
    const v = rssMb(pid);
    if (v > peak) peak = v;
    if (v > overall) overall = v;
  }, 100);
  timer.unref();
  return {
    reset: () => {
      peak = rssMb(pid);
    },
    peak: () => Math.max(peak, rssMb(pid)),
    overall: () => overall,
    stop: () => clearInterval(timer),
  };
}

import { type ChildProcess, execFileSync, execSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { request } from "@playwright/test";
import { RULES_OFF_ENV } from "../../apps/server/src/test/rules-off";
import { DEMO, type DemoRole, storageStatePath } from "./env";
import { demoServerEnv, freePort, spawnServer, stopProcess, waitUntilOk } from "./server-process";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Wait for the server's /api/health; throws with its log when it exits or does not answer within a minute. */
async function waitForHealth(baseURL: string, server: ChildProcess, logFile: string): Promise<void> {
  if (await waitUntilOk(`${baseURL}/api/health`, server, { timeoutMs: 60_000, intervalMs: 250 })) return;
  const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
  throw new Error(`The server did not become healthy at ${baseURL}.\n--- server log ---\n${log}`);
}

/**
 * Render the demo catalogue's audio into the shared cache first (the seed script, on a throwaway data folder), so
 * the server seeds it at once instead of rendering it in the background while the first tests run.
 */
function prerenderDemoAudio(workDir: string, env: Record<string, string>): void {
  const scratch = path.join(workDir, "prerender");
  mkdirSync(scratch);
  execFileSync(process.execPath, ["apps/server/dist/seed.js"], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATA_DIR: scratch, LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
  rmSync(scratch, { recursive: true, force: true });
}

/** Wait until the server has fingerprinted the demo songs: tests then run on a quiet server. */
async function waitForJobs(baseURL: string): Promise<void> {
  const ctx = await request.newContext({ baseURL, storageState: storageStatePath("admin") });
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const res = await ctx.get("/api/admin/jobs");
      const { items } = (await res.json()) as { items: { status: string }[] };
      if (res.ok() && !items.some((j) => j.status === "queued" || j.status === "running")) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error("The demo songs were not fingerprinted within two minutes");
  } finally {
    await ctx.dispose();
  }
}

/**
 * Build the web app and the server (what is out of date; E2E_SKIP_BUILD=1: nothing), start the production
 * bundle on a free port with a fresh data directory, sign in the demo accounts once (saved as storage states),
 * and return the teardown that stops the server.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    try {
      execSync("node scripts/build.mjs --if-stale", { cwd: ROOT, stdio: "pipe" });
    } catch (err) {
      const e = err as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(`The build failed:\n${e.stdout?.toString() ?? ""}${e.stderr?.toString() ?? ""}`);
    }
  }
  for (const output of ["apps/web/dist/index.html", "apps/server/dist/main.js"]) {
    if (!existsSync(path.join(ROOT, output))) throw new Error(`${output} is missing: run npm run build`);
  }

  const workDir = mkdtempSync(path.join(tmpdir(), "unheard-e2e-"));
  const dataDir = path.join(workDir, "data");
  const authDir = path.join(workDir, "auth");
  mkdirSync(dataDir);
  mkdirSync(authDir);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = path.join(workDir, "server.log");
  const log = createWriteStream(logFile);

  prerenderDemoAudio(workDir, demoServerEnv(port, dataDir));
  const server = spawnServer(["--enable-source-maps", "apps/server/dist/main.js"], {
    cwd: ROOT,
    port,
    env: {
      ...demoServerEnv(port, dataDir),
      NODE_ENV: "test",
      // The suite tests the gate itself; a developer's shell must not switch it off.
      WAITLIST_GATE: "true",
      // The suite signs in many times from one IP; the limits themselves are covered by the API tests.
      AUTH_LIMIT_SCALE: "20",
      // Specs verify songs with accounts they have just made, and every spec browses from 127.0.0.1: the trust
      // rules (decision 014) and the public API limits (open-data.test.ts) are API-tested.
      ...RULES_OFF_ENV,
      // tracker-sync.spec.ts links a sheet its test serves on 127.0.0.1 over http (refused by default).
      SHEET_FETCH_ALLOW_HTTP: "true",
      SHEET_FETCH_ALLOW_NETWORKS: "127.0.0.1/32",
    },
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const stop = () => stopProcess(server, 10_000);

  try {
    await waitForHealth(baseURL, server, logFile);
    // Workers inherit the environment the setup leaves behind.
    process.env.E2E_BASE_URL = baseURL;
    process.env.E2E_DATA_DIR = dataDir;
    process.env.E2E_AUTH_DIR = authDir;

    // One API sign-in per demo role: tests reuse the cookies instead of spending the login rate limit.
    for (const role of Object.keys(DEMO) as DemoRole[]) {
      const ctx = await request.newContext({ baseURL });
      const res = await ctx.post("/api/auth/login", {
        data: { email: DEMO[role].email, password: DEMO[role].password },
      });
      if (!res.ok()) throw new Error(`Demo login for ${role} failed: ${res.status()} ${await res.text()}`);
      await ctx.storageState({ path: storageStatePath(role) });
      await ctx.dispose();
    }
    await waitForJobs(baseURL);
  } catch (err) {
    await stop();
    throw err;
  }

  return async () => {
    await stop();
    log.end();
    if (process.env.E2E_KEEP_DATA !== "1") rmSync(workDir, { recursive: true, force: true });
  };
}

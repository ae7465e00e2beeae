// The production server as a child process for bench:web and the soak: free port, fresh DATA_DIR, demo seed.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  demoServerEnv,
  freePort,
  keepOutput,
  spawnServer,
  stopProcess,
  waitUntilOk,
} from "../../e2e/support/server-process.js";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** Ask the OS for a port nobody listens on (also used by the API benchmark). */
export { freePort };

/** How to run the production server: its build when there is one, else the TypeScript sources through tsx. */
export function serverCommand(): { args: string[]; label: string } {
  const built = path.join(ROOT, "apps/server/dist/main.js");
  if (existsSync(built)) return { args: [built], label: "apps/server/dist/main.js" };
  return { args: ["--import", "tsx", "apps/server/src/main.ts"], label: "apps/server/src/main.ts (tsx)" };
}

export type RunningServer = { baseURL: string; label: string; stop: () => Promise<void> };

/** A server process over the demo data: its address, process, what it printed, and whether it became healthy. */
export type DemoServer = { baseURL: string; child: ChildProcess; output: () => string; healthy: boolean };

/**
 * Run `node …args` from the repository root as a server over the demo data in `dataDir` (`env` on top) on a free
 * port, and wait up to `timeoutMs` for /api/health; `output` keeps the last `maxOutput` characters it printed.
 */
export async function startDemoServer(
  args: string[],
  opts: { dataDir: string; env: Record<string, string>; timeoutMs: number; maxOutput?: number },
): Promise<DemoServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawnServer(args, { cwd: ROOT, port, env: { ...demoServerEnv(port, opts.dataDir), ...opts.env } });
  const output = keepOutput(child, opts.maxOutput);
  const healthy = await waitUntilOk(`${baseURL}/api/health`, child, { timeoutMs: opts.timeoutMs, intervalMs: 250 });
  return { baseURL, child, output, healthy };
}

/** Start the server with the demo data on a free port and wait for /api/health. */
export async function startServer(): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-bench-web-"));
  const { args, label } = serverCommand();
  const { baseURL, child, output, healthy } = await startDemoServer(args, {
    dataDir,
    env: { NODE_ENV: "production", S3_BUCKET: "" },
    timeoutMs: 90_000,
  });

  const stop = async () => {
    await stopProcess(child, 10_000);
    rmSync(dataDir, { recursive: true, force: true });
  };

  if (healthy) return { baseURL, label, stop };
  await stop();
  throw new Error(`The server did not become healthy at ${baseURL}.\n--- server output ---\n${output()}`);
}

/** Sign a demo account in through the API and return its session cookie ("name=value"). */
export async function signIn(baseURL: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`Sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter(Boolean)
    .join("; ");
}

/** Whether the server compresses a built asset for a client that accepts gzip and brotli. */
export async function servesCompressed(baseURL: string, assetPath: string): Promise<string | undefined> {
  const res = await fetch(`${baseURL}${assetPath}`, { headers: { "accept-encoding": "br, gzip" } });
  await res.arrayBuffer();
  return res.headers.get("content-encoding") ?? undefined;
}

// The production server as a child process for bench:web: free port, fresh DATA_DIR, demo seed.
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

/** Start the server with the demo data on a free port and wait for /api/health. */
export async function startServer(): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-bench-web-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const { args, label } = serverCommand();
  const child = spawnServer(args, {
    cwd: ROOT,
    port,
    env: { ...demoServerEnv(port, dataDir), NODE_ENV: "production", S3_BUCKET: "" },
  });
  const output = keepOutput(child);

  const stop = async () => {
    await stopProcess(child, 10_000);
    rmSync(dataDir, { recursive: true, force: true });
  };

  if (await waitUntilOk(`${baseURL}/api/health`, child, { timeoutMs: 90_000, intervalMs: 250 })) {
    return { baseURL, label, stop };
  }
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

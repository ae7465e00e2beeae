// The production server as a child process for bench:web: free port, fresh DATA_DIR, demo seed.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

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
  let output = "";
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      SEED_DEMO: "true",
      LOG_LEVEL: "warn",
      SMTP_URL: "",
      DATABASE_URL: "",
      S3_BUCKET: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return { baseURL, label, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`The server did not become healthy at ${baseURL}.\n--- server output ---\n${output}`);
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

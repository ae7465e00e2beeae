import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./test/net.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy");
}

describe("server process", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-main-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("migrates, seeds, serves, and shuts down cleanly on SIGTERM", async () => {
    const port = await freePort();
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        DATABASE_URL: "",
        // A small demo catalogue, its audio cached across test runs (seed.test.ts shares the folder).
        DEMO_SONGS: "24",
        DEMO_CACHE_DIR: path.join(tmpdir(), "unheard-demo-cache-test"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await waitForHealth(`http://127.0.0.1:${port}/api/health`, child);
    expect(await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()).toMatchObject({
      status: "ok",
      db: "sqlite",
    });
    // The first start prints the demo accounts.
    expect(output).toContain("listener@unheard.local");
    // One address, the one e-mailed links use (PUBLIC_URL's default), and not the interface it listens on.
    expect(new Set(output.match(/https?:\/\/[^\s"\\]+/g))).toEqual(new Set([`http://localhost:${port}`]));
    expect(output).not.toContain("127.0.0.1");
    const logInAsDemoAdmin = () =>
      fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@unheard.local", password: "admin123" }),
      });
    const login = await logInAsDemoAdmin();
    expect(login.status).toBe(200);
    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = logInAsDemoAdmin();
    await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    expect((await inFlight).status).toBe(200);
    expect(await exited).toBe(0);
    expect(output).toContain("shutting down");
  }, 120_000);

  it("prints one address to open on a terminal, also when listening on every interface (issue 25)", async () => {
    const port = await freePort();
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATA_DIR: mkdtempSync(path.join(dir, "pretty-")),
        PORT: String(port),
        HOST: "0.0.0.0",
        LOG_FORMAT: "pretty",
        LOG_LEVEL: "info",
        DATABASE_URL: "",
        PUBLIC_URL: "",
        DEMO_SONGS: "24",
        DEMO_CACHE_DIR: path.join(tmpdir(), "unheard-demo-cache-test"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await waitForHealth(`http://127.0.0.1:${port}/api/health`, child);
      await expect.poll(() => output, { timeout: 10_000 }).toContain("Unheard is ready");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(output).toContain(`Open http://localhost:${port}`);
    expect(new Set(output.match(/https?:\/\/[^\s"\\]+/g))).toEqual(new Set([`http://localhost:${port}`]));
    expect(output).not.toMatch(/127\.0\.0\.1|0\.0\.0\.0|Server listening/);
  }, 120_000);
});

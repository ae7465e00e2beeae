import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BUILD_TARGETS, SAY } from "../../../scripts/build.mjs";
import { freePort } from "./test/net.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const README = path.resolve(serverDir, "../../README.md");
const BUILD_SCRIPT = path.resolve(serverDir, "../../scripts/build.mjs");

/**
 * The server run as on a terminal: `script` gives it a pseudo-terminal (so it sees a TTY, as with `npm start` in a
 * shell), `interrupt()` types Ctrl-C into it, and `output()` is what the terminal received.
 */
function startInTerminal(env: Record<string, string>) {
  // `exec`, so the server is the terminal's foreground process: a shell left waiting (dash, when SHELL is unset)
  // would itself die of the Ctrl-C and report 130 whatever the server did.
  const command = `exec ${process.execPath} --import tsx src/main.ts`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: serverDir,
    env: {
      ...process.env,
      SHELL: "/bin/sh",
      LOG_FORMAT: "auto",
      LOG_LEVEL: "info",
      DATABASE_URL: "",
      PUBLIC_URL: "",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output, interrupt: () => child.stdin?.write("\x03") };
}

/** The lines a terminal shows for raw output: colours gone, each line as its last carriage return left it. */
function screenLines(raw: string): string[] {
  const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");
  return raw
    .replace(/\^C/g, "")
    .split(/\r?\n/)
    .map((l) => (l.split("\r").pop() ?? "").replace(ansi, ""));
}

/** A line with its times, counts and port made alike, so a run and the README compare. */
const shape = (line: string) =>
  line
    .replace(/^\[\d\d:\d\d:\d\d\]/, "[time]")
    .replace(/\d+(\.\d+)?/g, "N")
    .replace(/about N (min|s) left/, "about N left")
    .trimEnd();

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

  it("prints what a person needs on a first start at a terminal, and ends on a clean line (issue 38)", async () => {
    const port = await freePort();
    // A cache of its own, so demo audio renders before listening (the progress line) and after (its lines).
    const cache = mkdtempSync(path.join(dir, "cache-"));
    const run = startInTerminal({
      DATA_DIR: mkdtempSync(path.join(dir, "first-")),
      PORT: String(port),
      HOST: "127.0.0.1",
      DEMO_SONGS: "20",
      DEMO_CACHE_DIR: cache,
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}/api/health`, run.child);
      await expect.poll(run.output, { timeout: 90_000 }).toContain("demo audio ready");
    } finally {
      run.interrupt();
    }
    expect(await run.exited).toBe(0);
    const raw = run.output();
    const lines = screenLines(raw);
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    const shown = lines.filter((l) => l.trim() !== "");
    // A screenful: no asset lists, no log fields each on a line of their own, no very long line.
    expect(shown.length).toBeLessThanOrEqual(30);
    for (const l of shown) {
      expect(l.length, l).toBeLessThanOrEqual(120);
      expect(l, "one line per log record").not.toMatch(/^\s+[A-Za-z]+: /);
      expect(l).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN): |^ {2}\S/);
    }
    expect(shown[0]).toMatch(/INFO: database created \(\d+ migrations\)$/);
    // Ctrl-C: the last line says it stopped, and nothing (a progress line, a stray glyph) is left after it.
    expect(lines[lines.length - 1]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: stopped in [\d.]+ s$/);
    expect(raw.slice(raw.lastIndexOf("stopped in"))).toMatch(/^stopped in [\d.]+ s\r?\n$/);

    // The README's quick start shows this output: every line printed is there, and every line it shows is printed
    // (the progress at each tenth depends on the pace).
    const block = /## Quick start[\s\S]*?```sh\nnpm install && npm start\n```[\s\S]*?```\n([\s\S]*?)```/.exec(
      readFileSync(README, "utf8"),
    )?.[1];
    expect(block, "the README shows a first start's output").toBeDefined();
    const readme = (block ?? "").split("\n").map((l) => l.replace(/^\^C/, ""));
    const firstLog = readme.findIndex((l) => l.startsWith("["));
    const server = readme
      .slice(firstLog)
      .filter((l) => l !== "…")
      .map(shape);
    const printed = lines.slice(lines.findIndex((l) => l.startsWith("["))).map(shape);
    expect(printed.filter((l) => !server.includes(l))).toEqual([]);
    expect(server.filter((l) => !printed.includes(l) && !/INFO: demo audio: N of N songs/.test(l))).toEqual([]);
    // Above the server's lines: npm's, then the build's on a first start.
    const build = [
      SAY.checking,
      ...BUILD_TARGETS.flatMap((t) => [SAY.building(t.label, t.tool, "first build"), SAY.built(t.label, "0.5")]),
    ];
    expect(
      readme
        .slice(0, firstLog)
        .filter((l) => l && !l.startsWith("> "))
        .map(shape),
    ).toEqual(build.map(shape));
  }, 180_000);

  it("leaves on a clean line when stopped before it is ready (issue 38)", async () => {
    const run = startInTerminal({
      DATA_DIR: mkdtempSync(path.join(dir, "early-")),
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DEMO_SONGS: "20",
      DEMO_CACHE_DIR: mkdtempSync(path.join(dir, "cache-")),
    });
    // Ctrl-C while the demo songs' audio renders, before the server listens.
    await expect.poll(run.output, { timeout: 60_000 }).toContain("Generating demo audio");
    run.interrupt();
    expect(await run.exited).toBe(0);
    const lines = screenLines(run.output()).filter((l) => l.trim() !== "");
    expect(lines[lines.length - 1]).toBe("stopped before the server was ready; the next start picks up from there");
    expect(lines.join("\n")).not.toContain("Generating demo audio");
  }, 120_000);
});

describe("npm start's build steps", () => {
  /** Runs a build step as `npm start` does (quiet), in a process of its own; what that process printed. */
  const quietStep = (script: string) =>
    spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { run, BuildStopped } = await import(${JSON.stringify(BUILD_SCRIPT)});
         try { run(process.execPath, ["-e", ${JSON.stringify(script)}], { quiet: true }); console.log("ok"); }
         catch (err) { console.log(err instanceof BuildStopped ? "stopped" : "failed: " + err.message); }`,
      ],
      { encoding: "utf8" },
    );

  it("keeps a tool's output (Vite's list of assets) unless the step fails (issue 38)", () => {
    const assets = 'for (let i = 0; i < 127; i++) console.log("dist/assets/chunk-" + i + ".js  6.17 kB")';
    const ok = quietStep(assets);
    expect(ok.stdout).toBe("ok\n");
    expect(ok.stderr).toBe("");
    const failed = quietStep(
      `${assets}; console.error("[UNRESOLVED_IMPORT] Could not resolve './x'"); process.exit(1)`,
    );
    expect(failed.stdout).toMatch(/failed: .* failed \(exit 1\)\n$/);
    expect(failed.stderr).toContain("dist/assets/chunk-126.js");
    expect(failed.stderr).toContain("[UNRESOLVED_IMPORT] Could not resolve './x'");
  });

  it("tells a build stopped by Ctrl-C from a failed one, printing nothing of it (issue 38)", () => {
    const stopped = quietStep(`console.log("transforming (73) src/main.tsx"); process.kill(process.pid, "SIGINT")`);
    expect(stopped.stdout).toBe("stopped\n");
    expect(stopped.stderr).toBe("");
  });
});

// Real server processes (`node --import tsx src/main.ts`) on a data folder of the test's choosing, and the few
// HTTP calls the shutdown, crash and backup tests make against them. SQLite only: DATABASE_URL is never passed.
import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { multipart, wavFile } from "./fixtures.js";
import { lastLink } from "./harness.js";
import { freePort } from "./net.js";
import { RULES_OFF_ENV } from "./rules-off.js";

/** apps/server: where `src/main.ts` is run from. */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Fixed, so sessions made before a restart (or a restore) stay valid after it. */
export const TEST_AUTH_SECRET = "server-process-secret-server-process-secret";

/** A running server: its address, process and everything it printed. */
export type ServerProcess = {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string | null>;
};

/**
 * The environment of a test server on `port` and `dataDir`: only what the server needs, so nothing from the outer
 * environment leaks in (DATABASE_URL, S3_*, ...). No demo seed, the trust rules and caps off, limits raised: the
 * tests act as many fresh members from one address. `extra` adds or overrides.
 */
export function serverEnv(port: number, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: TEST_AUTH_SECRET,
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    LOG_FORMAT: "json",
    WAITLIST_GATE: "false",
    ...RULES_OFF_ENV,
    VOTES_PER_MINUTE: "100000",
    AUTH_LIMIT_SCALE: "1000",
    ...extra,
  };
}

/**
 * Start `src/main.ts` on `dataDir` (a fresh port unless given) and wait until /api/health answers. No demo seed,
 * the trust rules and caps off, limits raised: the tests act as many fresh members from one address.
 */
export async function startServer(
  dataDir: string,
  opts: { env?: Record<string, string>; port?: number; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const { child, output, exited } = spawnServerProcess(
    ["--import", "tsx", "src/main.ts"],
    serverEnv(port, dataDir, { LOG_LEVEL: "warn", ...opts.env }),
    20_000,
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (true) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}:\n${output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start in time:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, port, dataDir, child, output, exited };
}

/** Node running `args` from apps/server with `env`; the last `keepChars` of its output, and its exit code or signal. */
export function spawnServerProcess(args: string[], env: Record<string, string>, keepChars: number) {
  const child = spawn(process.execPath, args, { cwd: serverDir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-keepChars);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  return { child, output: () => output, exited };
}

/** SIGTERM, then SIGKILL if it has not exited after `killAfterMs`; the exit code (or signal) and seconds taken. */
export async function stopServer(
  server: ServerProcess,
  killAfterMs = 15_000,
): Promise<{ code: number | string | null; seconds: number }> {
  const started = performance.now();
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), killAfterMs);
  const code = await server.exited;
  clearTimeout(timer);
  return { code, seconds: (performance.now() - started) / 1000 };
}

/** The session cookie of a response, as a Cookie header value. */
export function cookieOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!cookie) throw new Error(`no session cookie (status ${res.status})`);
  return cookie.split(";")[0] ?? "";
}

/** JSON POST/PUT/DELETE with an optional cookie. */
export function send(base: string, method: string, url: string, body?: unknown, cookie?: string): Promise<Response> {
  return fetch(`${base}${url}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(cookie ? { cookie } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Register, confirm the e-mailed link (the file outbox in dataDir) and sign in; the cookie and user id. */
export async function signUpOverHttp(
  server: Pick<ServerProcess, "base" | "dataDir">,
  email: string,
  password = "secret123",
): Promise<{ cookie: string; id: string }> {
  const reg = await send(server.base, "POST", "/api/auth/register", { email, password, confirmPassword: password });
  if (reg.status !== 201) throw new Error(`register ${email}: ${reg.status} ${await reg.text()}`);
  const link = new URL(lastLink(server.dataDir, email, "/api/auth/verify-email"));
  const verified = await fetch(`${server.base}${link.pathname}${link.search}`, { redirect: "manual" });
  if (verified.status !== 302) throw new Error(`verify ${email}: ${verified.status}`);
  return logInOverHttp(server.base, email, password);
}

/** POST /api/auth/login; the cookie and user id. */
export async function logInOverHttp(
  base: string,
  email: string,
  password = "secret123",
): Promise<{ cookie: string; id: string }> {
  const login = await send(base, "POST", "/api/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${await login.text()}`);
  const { user } = (await login.json()) as { user: { id: string } };
  return { cookie: cookieOf(login), id: user.id };
}

/** A short WAV of its own per seed (so the duplicate-audio check never refuses it). */
export function smallWav(seed: string, seconds = 1): Buffer {
  return wavFile(seconds, seed, 8000);
}

/** POST /api/songs as multipart with a WAV; the raw response. */
export function uploadOverHttp(
  base: string,
  cookie: string,
  title: string,
  audio: Buffer,
  signal?: AbortSignal,
): Promise<Response> {
  const body = multipart({ title, artists: [`Artist ${title}`], genre: "Pop" }, { name: "song.wav", data: audio });
  return fetch(`${base}/api/songs`, {
    method: "POST",
    headers: { ...body.headers, cookie },
    body: new Uint8Array(body.payload),
    ...(signal ? { signal } : {}),
  });
}

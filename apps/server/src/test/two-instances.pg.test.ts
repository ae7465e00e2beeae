// Two real server processes on one PostgreSQL database and one S3 bucket, as behind a load balancer.
// Runs only in the PostgreSQL suite (`npm run test:pg`, vitest project "instances").
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/database.js";
import { dataFiles as filesIn, multipart, type User, wavFile } from "./fixtures.js";
import { createPgDatabase, dropPgDatabase, lastLink } from "./harness.js";
import { freePort } from "./net.js";
import { startS3 } from "./s3.js";
import { serverDir, serverEnv } from "./server-process.js";
import { openEventStream } from "./sse.js";

type Instance = { name: string; base: string; dataDir: string; child: ChildProcess; output: () => string };

/** `node --import tsx src/main.ts` with its own DATA_DIR and port; resolves once /api/health answers. */
async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `unheard-${name}-`));
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    // The test votes with fresh accounts: the trust rules (decisions 014, 015) are off, as in the harness.
    env: serverEnv(port, dataDir, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 40_000;
  while (true) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not start within 40 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { name, base, dataDir, child, output: () => output };
}

/** SIGTERM and wait for the graceful exit; the exit code. */
function stopInstance(instance: Instance): Promise<number | null> {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill("SIGTERM");
  });
}

const cookieOf = (res: Response): string => {
  const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!cookie) throw new Error("no session cookie");
  return cookie.split(";")[0] ?? "";
};

describe("two server instances on one PostgreSQL database and one bucket", () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const dbName = `unheard_2i_${randomBytes(6).toString("hex")}`;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let a: Instance;
  let b: Instance;
  let database: Database;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set: run this suite with `npm run test:pg`");
    const url = await createPgDatabase(adminUrl, dbName);
    s3 = await startS3("unheard-two-instances");
    // Started together: both migrate the fresh database at once (the migrator's lock serialises them).
    const env = { DATABASE_URL: url, ...s3.env };
    [a, b] = await Promise.all([startInstance("a", env), startInstance("b", env)]);
    database = openDatabase({ url, poolSize: 2 });
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all([a, b].filter(Boolean).map(stopInstance));
    await database?.close();
    await s3?.close();
    for (const i of [a, b]) if (i) rmSync(i.dataDir, { recursive: true, force: true });
    if (adminUrl) await dropPgDatabase(adminUrl, dbName);
    // Both shut down cleanly on SIGTERM.
    expect(codes).toEqual([0, 0]);
  }, 60_000);

  /** Register on A, confirm the e-mailed link on B, sign in on A; let the account in from the waitlist. */
  async function signUp(email: string): Promise<User> {
    const password = "secret123";
    const reg = await fetch(`${a.base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, confirmPassword: password }),
    });
    expect(reg.status, await reg.clone().text()).toBe(201);
    const link = new URL(lastLink(a.dataDir, email, "/api/auth/verify-email"));
    const verified = await fetch(`${b.base}${link.pathname}${link.search}`, { redirect: "manual" });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toContain("verify=ok");
    const login = await fetch(`${a.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const { user } = (await login.json()) as { user: { id: string } };
    await database.db.updateTable("user").set({ off_waitlist: true }).where("id", "=", user.id).execute();
    return { cookie: cookieOf(login), id: user.id };
  }

  function uploadTo(instance: Instance, cookie: string, title: string, data: Buffer) {
    const body = multipart({ title, artists: ["Twin Engines"], genre: "Pop" }, { name: "song.wav", data });
    return fetch(`${instance.base}/api/songs`, {
      method: "POST",
      headers: { ...body.headers, cookie },
      body: new Uint8Array(body.payload),
    });
  }

  it("keeps a session made on one instance valid on the other", async () => {
    alice = await signUp("alice-2i@example.com");
    bob = await signUp("bob-2i@example.com");
    for (const instance of [a, b]) {
      const me = await fetch(`${instance.base}/api/me`, { headers: { cookie: alice.cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: alice.id, email: "alice-2i@example.com" });
    }
    // Signing out on B ends the session on A too.
    const out = await fetch(`${b.base}/api/auth/logout`, { method: "POST", headers: { cookie: bob.cookie } });
    expect(out.status).toBe(200);
    expect((await fetch(`${a.base}/api/me`, { headers: { cookie: bob.cookie } })).status).toBe(401);
    bob = { ...bob, cookie: await loginOn(b, "bob-2i@example.com") };
  });

  async function loginOn(instance: Instance, email: string): Promise<string> {
    const res = await fetch(`${instance.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "secret123" }),
    });
    expect(res.status).toBe(200);
    return cookieOf(res);
  }

  let songId: string;
  let audioUrl: string;
  const wav = wavFile(2, "two instances");

  it("plays a song uploaded through one instance through the other, from the bucket", async () => {
    const res = await uploadTo(a, alice.cookie, "Shared Bucket", wav);
    expect(res.status, await res.clone().text()).toBe(201);
    ({ id: songId } = (await res.json()) as { id: string });
    // A pending song and its audio are for members (issue 24): read as Alice.
    const asAlice = { headers: { cookie: alice.cookie } };
    const song = (await (await fetch(`${b.base}/api/songs/${songId}`, asAlice)).json()) as { audio: { url: string } };
    audioUrl = song.audio.url;
    const whole = await fetch(`${b.base}${audioUrl}`, asAlice);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(wav);
    const part = await fetch(`${b.base}${audioUrl}`, { headers: { range: "bytes=44-1067", cookie: alice.cookie } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 44-1067/${wav.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(wav.subarray(44, 1068));
    const row = await database.db
      .selectFrom("song")
      .select("audio_key")
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(await s3.keys()).toEqual([`audio/${row.audio_key}`]);
    expect(filesIn(a.dataDir, "audio")).toEqual([]);
    expect(filesIn(b.dataDir, "audio")).toEqual([]);
  });

  it("delivers a vote cast on one instance to a live-events client of the other", async () => {
    const stream = await openEventStream(`${b.base}/api/events`, alice.cookie);
    try {
      expect((await stream.next("ready")).data).toEqual({ signedIn: true });
      const vote = await fetch(`${a.base}/api/songs/${songId}/vote`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie: bob.cookie },
        body: JSON.stringify({ value: "up" }),
      });
      expect(vote.status, await vote.clone().text()).toBe(200);
      const event = await stream.next("song", 10_000);
      expect(event.data).toMatchObject({ id: songId, upvotes: 1, status: "pending" });
    } finally {
      stream.close();
    }
  });

  it("runs each upload's fingerprint job exactly once with both job loops polling", async () => {
    // More uploads through both instances, so both loops have work to race for.
    const uploads = await Promise.all([
      uploadTo(a, alice.cookie, "Race One", wavFile(2, "race one")),
      uploadTo(b, alice.cookie, "Race Two", wavFile(2, "race two")),
      uploadTo(a, bob.cookie, "Race Three", wavFile(2, "race three")),
      uploadTo(b, bob.cookie, "Race Four", wavFile(2, "race four")),
    ]);
    for (const res of uploads) expect(res.status, await res.clone().text()).toBe(201);
    const deadline = Date.now() + 30_000;
    let jobs = await database.db.selectFrom("job").selectAll().execute();
    while (jobs.some((j) => j.status !== "done") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      jobs = await database.db.selectFrom("job").selectAll().execute();
    }
    expect(jobs).toHaveLength(5);
    // One claim each (a claim counts an attempt), none failed or retried.
    expect(jobs.map((j) => [j.status, Number(j.attempts), j.last_error])).toEqual(
      Array.from({ length: 5 }, () => ["done", 1, null]),
    );
    const songs = await database.db.selectFrom("song").select(["id", "fingerprinted_at"]).execute();
    expect(songs).toHaveLength(5);
    expect(songs.every((s) => s.fingerprinted_at !== null)).toBe(true);
    const hashes = await database.db
      .selectFrom("fingerprint")
      .select((eb) => ["song_id", eb.fn.countAll().as("n")])
      .groupBy("song_id")
      .execute();
    expect(hashes).toHaveLength(5);
    // Everything in the bucket, nothing on either instance's disk (the job's downloaded copies are gone too).
    expect(await s3.keys()).toHaveLength(5);
    for (const i of [a, b]) {
      expect(filesIn(i.dataDir, "audio")).toEqual([]);
      expect(filesIn(i.dataDir, "tmp"), `${i.name} tmp`).toEqual([]);
    }
  });
});

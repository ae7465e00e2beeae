import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { seededRandom } from "@unheard/shared";
import SQLite from "better-sqlite3";
import { build } from "esbuild";
import { multipart, wavFile } from "./fixtures.js";
import { lastLink } from "./harness.js";
import { freePort } from "./net.js";
import { serverDir, serverEnv, spawnServerProcess } from "./server-process.js";

const KILLS = Number(process.env.CRASH_KILLS ?? 50);
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const KEEP = process.env.CRASH_KEEP === "1";
/** Writers at once: enough to have several transactions and an upload in flight at each kill. */
const WORKERS = 6;
/** Every this many kills, the kill lands during start-up (migrations, the sweep) instead of under load. */
const STARTUP_KILL_EVERY = 10;

const random = seededRandom(SEED);
const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
const between = (min: number, max: number) => min + Math.floor(random() * (max - min));

type Member = { email: string; id?: string; cookie?: string; verified: boolean };
type Song = { id: string; by: Member; artistIds: string[] };
/**
 * A (member, target) pair: its last known state, and the states of later writes left unanswered by a kill (each
 * may or may not have committed). After each restart the stored state becomes the known one.
 */
type Pair = { state: number; maybe: Set<number> };
const newPair = (): Pair => ({ state: 0, maybe: new Set() });

const members: Member[] = [];
const songs: Song[] = [];
const favorites = new Map<string, Pair>();
const votes = new Map<string, Pair>();
const follows = new Map<string, Pair>();
/** Reports answered 201 (must exist), and those left unanswered (may exist). */
const reports = new Set<string>();
const reportsMaybe = new Set<string>();
const busy = new Set<string>();
const acked: Record<string, number> = {};
let unanswered = 0;
let orphansSwept = 0;
let tempsSwept = 0;

const key = (a: string, b: string) => `${a}|${b}`;
const ack = (kind: string) => {
  acked[kind] = (acked[kind] ?? 0) + 1;
};

/** Bundle src/main.ts as scripts/build-server.mjs does, into a folder whose node_modules resolve as the repo's. */
async function bundleServer(): Promise<string> {
  const outdir = path.join(serverDir, "node_modules/.cache/unheard-crash-server");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: path.resolve(serverDir, "../.."),
    // The audio pool's worker is its own entry, as in the production build: without it every upload fails.
    entryPoints: {
      main: path.join(serverDir, "src/main.ts"),
      "audio-pool-worker": path.join(serverDir, "src/lib/audio-pool-worker.ts"),
    },
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [
      {
        name: "external-dependencies",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@unheard/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return path.join(outdir, "main.js");
}

type Server = { base: string } & ReturnType<typeof spawnServerProcess>;

function spawnServer(entry: string, dataDir: string, port: number): Server {
  // Info, for the start-up sweep's line; requests are not logged at info.
  const proc = spawnServerProcess([entry], serverEnv(port, dataDir, { LOG_LEVEL: "info" }), 50_000);
  return { base: `http://127.0.0.1:${port}`, ...proc };
}

async function waitHealthy(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited at start:\n${server.output()}`);
    try {
      if ((await fetch(`${server.base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

/** A request whose answer decides what must be stored: the status and body, or undefined when none came. */
async function call(
  base: string,
  method: string,
  url: string,
  opts: {
    json?: unknown;
    cookie?: string | undefined;
    body?: { payload: Buffer; headers: Record<string, string> };
  } = {},
): Promise<{ status: number; body: unknown } | undefined> {
  let status: number;
  let text: string;
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      redirect: "manual",
      headers: {
        ...(opts.json !== undefined ? { "content-type": "application/json" } : {}),
        ...(opts.body?.headers ?? {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
      },
      ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
      ...(opts.body ? { body: new Uint8Array(opts.body.payload) } : {}),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (process.env.CRASH_DEBUG) console.error(method, url, err);
    // Killed before it answered (or while it answered): either outcome may be stored.
    unanswered++;
    return undefined;
  }
  // A server error is a bug here, not an effect of the kills.
  if (status >= 500) throw new Error(`${method} ${url}: ${status} ${text.slice(0, 300)}`);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status, body };
}

let emailCounter = 0;

/** One write of a random kind; returns when it is answered or the server is gone. */
async function oneWrite(base: string, dataDir: string): Promise<void> {
  const ready = members.filter((m) => m.cookie);
  const roll = random();
  // A new member until there are a few, then now and then.
  if (ready.length < 4 || roll < 0.08) {
    const m: Member = { email: `m${SEED}-${emailCounter++}@crash.test`, verified: false };
    const res = await call(base, "POST", "/api/auth/register", {
      json: { email: m.email, password: "secret123", confirmPassword: "secret123" },
    });
    if (res?.status !== 201) return;
    members.push(m);
    ack("register");
    return finishMember(base, dataDir, m);
  }
  const unfinished = members.find((m) => !m.cookie && !busy.has(m.email));
  if (unfinished && roll < 0.12) return finishMember(base, dataDir, unfinished);
  const me = pick(ready);
  if (!me?.cookie || !me.id) return;
  if (roll < 0.34 || songs.length < 3) {
    const title = `Crash ${SEED} ${emailCounter++}`;
    const body = multipart(
      { title, artists: [`Band ${emailCounter % 7}`, `Solo ${title}`], genre: "Pop" },
      { name: "song.wav", data: wavFile(1, title, 8000) },
    );
    const res = await call(base, "POST", "/api/songs", { body, cookie: me.cookie });
    if (res?.status === 201) {
      const song = res.body as { id: string; artists: { id: string }[] };
      songs.push({ id: song.id, by: me, artistIds: song.artists.map((a) => a.id) });
      ack("upload");
    }
    return;
  }
  const song = pick(songs);
  if (!song) return;
  if (roll < 0.5) {
    const k = key(me.id, song.id);
    if (busy.has(`f${k}`)) return;
    busy.add(`f${k}`);
    const pair = favorites.get(k) ?? newPair();
    favorites.set(k, pair);
    const want = pair.state === 1 ? 0 : 1;
    const res = await call(base, want ? "PUT" : "DELETE", `/api/songs/${song.id}/favorite`, { cookie: me.cookie });
    settle(pair, res, want, "favorite");
    busy.delete(`f${k}`);
    return;
  }
  if (roll < 0.72) {
    if (song.by === me) return;
    const k = key(me.id, song.id);
    if (busy.has(`v${k}`)) return;
    busy.add(`v${k}`);
    const pair = votes.get(k) ?? newPair();
    votes.set(k, pair);
    const want = pick([1, -1, 0].filter((v) => v !== pair.state)) ?? 0;
    const value = want === 1 ? "up" : want === -1 ? "down" : "none";
    const res = await call(base, "PUT", `/api/songs/${song.id}/vote`, {
      cookie: me.cookie,
      json: { value, ...(want === -1 ? { reason: "fake_leak" } : {}) },
    });
    settle(pair, res, want, "vote");
    busy.delete(`v${k}`);
    return;
  }
  if (roll < 0.82) {
    const k = key(me.id, song.id);
    if (reports.has(k) || reportsMaybe.has(k) || busy.has(`r${k}`)) return;
    busy.add(`r${k}`);
    const res = await call(base, "POST", `/api/songs/${song.id}/reports`, {
      cookie: me.cookie,
      json: { reason: "wrong_title", details: "crash test" },
    });
    if (res === undefined) reportsMaybe.add(k);
    else if (res.status === 201) {
      reports.add(k);
      ack("report");
    }
    busy.delete(`r${k}`);
    return;
  }
  const artist = pick(song.artistIds);
  if (!artist) return;
  const k = key(me.id, artist);
  if (busy.has(`o${k}`)) return;
  busy.add(`o${k}`);
  const pair = follows.get(k) ?? newPair();
  follows.set(k, pair);
  const want = pair.state === 1 ? 0 : 1;
  const res = await call(base, want ? "PUT" : "DELETE", `/api/artists/${artist}/follow`, { cookie: me.cookie });
  settle(pair, res, want, "follow");
  busy.delete(`o${k}`);
}

/** Record a toggle's outcome: answered 2xx moves the state; unanswered leaves either state possible. */
function settle(pair: Pair, res: { status: number } | undefined, want: number, kind: string): void {
  if (res === undefined) {
    pair.maybe.add(want);
    return;
  }
  if (res.status >= 200 && res.status < 300) {
    pair.state = want;
    pair.maybe.clear();
    ack(kind);
  }
}

/** Confirm the e-mailed link and sign in; each step that was answered is recorded. */
async function finishMember(base: string, dataDir: string, m: Member): Promise<void> {
  busy.add(m.email);
  try {
    if (!m.verified) {
      let link: URL;
      try {
        link = new URL(lastLink(dataDir, m.email, "/api/auth/verify-email"));
      } catch {
        return; // the mail was not written before the kill: this member stays unverified
      }
      const res = await call(base, "GET", `${link.pathname}${link.search}`);
      if (res?.status !== 302) return;
      m.verified = true;
      ack("verify");
    }
    const res = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: m.email, password: "secret123" }),
    }).catch(() => undefined);
    if (res?.status !== 200) {
      if (res === undefined) unanswered++;
      return;
    }
    const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
    const { user } = (await res.json().catch(() => ({ user: undefined }))) as { user?: { id: string } };
    if (!cookie || !user) return;
    m.cookie = cookie.split(";")[0];
    m.id = user.id;
    ack("login");
  } finally {
    busy.delete(m.email);
  }
}

/** Everything that must hold after a restart; the list of what does not. */
function check(dataDir: string): string[] {
  const db = new SQLite(path.join(dataDir, "unheard.db"), { readonly: true, fileMustExist: true });
  const problems: string[] = [];
  try {
    const one = <T>(q: string, ...params: unknown[]) => db.prepare(q).get(...params) as T;
    const count = (q: string) => one<{ n: number }>(q).n;
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") problems.push(`integrity_check: ${String(integrity)}`);
    const counters: [string, string][] = [
      ["foreign keys", "select count(*) as n from pragma_foreign_key_check"],
      [
        "song.upvotes/downvotes = counted votes",
        "select count(*) as n from song s where s.upvotes != (select count(*) from vote v where v.song_id = s.id and v.value = 1 and v.counted = 1) or s.downvotes != (select count(*) from vote v where v.song_id = s.id and v.value = -1 and v.counted = 1)",
      ],
      [
        "song.favorite_count = favourites",
        "select count(*) as n from song s where s.favorite_count != (select count(*) from favorite f where f.song_id = s.id)",
      ],
      [
        // Every like of this run is younger than a week.
        "song.week_likes = favourites",
        "select count(*) as n from song s where s.week_likes != (select count(*) from favorite f where f.song_id = s.id)",
      ],
      [
        "song.report_count = reports",
        "select count(*) as n from song s where s.report_count != (select count(*) from report r where r.song_id = s.id)",
      ],
      [
        "user.points = points ledger",
        'select count(*) as n from "user" u where u.points != coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)',
      ],
      [
        "user.follower_count = follows",
        'select count(*) as n from "user" u where u.follower_count != (select count(*) from follow f where f.artist_id = u.id)',
      ],
      [
        "song_verified paid once per song",
        "select count(*) as n from (select ref from points_ledger where reason = 'song_verified' group by ref having count(*) > 1)",
      ],
    ];
    for (const [name, q] of counters) {
      const n = count(q);
      if (n !== 0) problems.push(`${name}: ${n} rows wrong`);
    }
    // Acknowledged writes.
    const userByEmail = db.prepare('select id, email_verified from "user" where email = ?');
    for (const m of members) {
      const row = userByEmail.get(m.email) as { id: string; email_verified: number } | undefined;
      if (!row) problems.push(`registered member ${m.email} missing`);
      else if (m.verified && !row.email_verified) problems.push(`verified member ${m.email} not verified`);
    }
    const songRow = db.prepare("select audio_key, audio_size from song where id = ?");
    for (const s of songs) {
      const row = songRow.get(s.id) as { audio_key: string | null } | undefined;
      if (!row) problems.push(`uploaded song ${s.id} missing`);
      else if (!row.audio_key) problems.push(`uploaded song ${s.id} has no audio`);
    }
    const pairs = (
      name: string,
      map: Map<string, Pair>,
      q: string,
      value: (row: Record<string, number> | undefined) => number,
    ) => {
      const stmt = db.prepare(q);
      for (const [k, p] of map) {
        const [a, b] = k.split("|");
        const actual = value(stmt.get(a, b) as Record<string, number> | undefined);
        if (actual !== p.state && !p.maybe.has(actual))
          problems.push(
            `${name} ${k}: stored ${actual}, acknowledged ${p.state}${p.maybe.size ? ` (unanswered: ${[...p.maybe].join(", ")})` : ""}`,
          );
        // Nothing is in flight now: what is stored is the known state from here on.
        p.state = actual;
        p.maybe.clear();
      }
    };
    pairs("favourite", favorites, "select 1 as v from favorite where user_id = ? and song_id = ?", (r) => (r ? 1 : 0));
    pairs("vote", votes, "select value as v from vote where user_id = ? and song_id = ?", (r) => r?.v ?? 0);
    pairs("follow", follows, "select 1 as v from follow where follower_id = ? and artist_id = ?", (r) => (r ? 1 : 0));
    const reportRow = db.prepare("select 1 from report where user_id = ? and song_id = ?");
    for (const k of reports) if (!reportRow.get(...k.split("|"))) problems.push(`report ${k} missing`);
    // Once seen stored, an unanswered report is known; either way it may not be written twice.
    for (const k of reportsMaybe) {
      if (reportRow.get(...k.split("|"))) {
        reportsMaybe.delete(k);
        reports.add(k);
      }
    }
    // The audio folder holds exactly the files the rows name, each whole.
    const rows = db.prepare("select audio_key, audio_size from song where audio_key is not null").all() as {
      audio_key: string;
      audio_size: number;
    }[];
    const audioDir = path.join(dataDir, "audio");
    const files = new Set(existsSync(audioDir) ? readdirSync(audioDir) : []);
    for (const r of rows) {
      if (!files.has(r.audio_key)) problems.push(`audio file ${r.audio_key} missing`);
      else if (statSync(path.join(audioDir, r.audio_key)).size !== r.audio_size)
        problems.push(`audio file ${r.audio_key} has the wrong size`);
      files.delete(r.audio_key);
    }
    for (const f of files) problems.push(`orphan audio file ${f}`);
    const temps = existsSync(path.join(dataDir, "tmp")) ? readdirSync(path.join(dataDir, "tmp")) : [];
    if (temps.length > 0) problems.push(`temp files left: ${temps.join(", ")}`);
  } finally {
    db.close();
  }
  return problems;
}

/** The start-up sweep's line, if the server printed one. */
function countSweep(output: string): void {
  for (const line of output.split("\n")) {
    if (!line.includes("orphanAudio")) continue;
    try {
      const entry = JSON.parse(line) as { orphanAudio?: string[]; tempFiles?: number };
      orphansSwept += entry.orphanAudio?.length ?? 0;
      tempsSwept += entry.tempFiles ?? 0;
    } catch {}
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const entry = await bundleServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-crash-"));
  const port = await freePort();
  console.log(`crash run: ${KILLS} kills, seed ${SEED}, data in ${dataDir}`);
  let failed = false;
  let startSeconds = 0;
  let starts = 0;
  try {
    // Members and songs to act on before the first kill (a sign-up hashes a password: slow on a busy machine).
    {
      const server = spawnServer(entry, dataDir, port);
      await waitHealthy(server);
      // Bounded: a server that cannot take uploads (say, a worker missing from the bundle) fails the run, not hangs it.
      const deadline = performance.now() + 120_000;
      while (members.filter((m) => m.cookie).length < WORKERS || songs.length < 4) {
        if (performance.now() > deadline)
          throw new Error(
            `no ${WORKERS} members and 4 songs after 120 s (${members.length} members, ${songs.length} songs); server output:\n${server.output().slice(-3000)}`,
          );
        await Promise.all(Array.from({ length: 3 }, () => oneWrite(server.base, dataDir)));
      }
      server.child.kill("SIGKILL");
      await server.exited;
    }
    for (let round = 1; round <= KILLS; round++) {
      const t0 = performance.now();
      const server = spawnServer(entry, dataDir, port);
      if (round % STARTUP_KILL_EVERY === 0) {
        // Killed while starting: migrating, sweeping, or just listening.
        await new Promise((r) => setTimeout(r, between(50, 600)));
        server.child.kill("SIGKILL");
        await server.exited;
        continue;
      }
      await waitHealthy(server);
      startSeconds += (performance.now() - t0) / 1000;
      starts++;
      countSweep(server.output());
      const problems = check(dataDir);
      if (problems.length > 0) {
        console.error(`after kill ${round - 1}:\n  ${problems.slice(0, 30).join("\n  ")}`);
        failed = true;
        server.child.kill("SIGKILL");
        await server.exited;
        break;
      }
      // The load, and a kill at a random moment in it.
      let stop = false;
      const workers = Array.from({ length: WORKERS }, async () => {
        while (!stop) await oneWrite(server.base, dataDir);
      });
      await new Promise((r) => setTimeout(r, between(250, 1800)));
      server.child.kill("SIGKILL");
      await server.exited;
      stop = true;
      await Promise.all(workers);
      if (round % 10 === 1 || round === KILLS)
        console.log(
          `  kill ${round}/${KILLS}: ${members.length} members, ${songs.length} songs, ${Object.values(acked).reduce((a, b) => a + b, 0)} writes acknowledged`,
        );
    }
    if (!failed) {
      // The last restart: checked, then stopped cleanly.
      const server = spawnServer(entry, dataDir, port);
      await waitHealthy(server);
      countSweep(server.output());
      const problems = check(dataDir);
      server.child.kill("SIGTERM");
      await server.exited;
      if (server.child.exitCode !== 0) problems.push(`final SIGTERM exit code ${server.child.exitCode}`);
      if (problems.length > 0) {
        console.error(`after the last kill:\n  ${problems.slice(0, 30).join("\n  ")}`);
        failed = true;
      }
    }
  } catch (err) {
    console.error(err);
    failed = true;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `crash run ${failed ? "FAILED" : "passed"} in ${seconds.toFixed(1)} s: ${KILLS} SIGKILLs (${Math.floor(KILLS / STARTUP_KILL_EVERY)} during start-up), ` +
      `acknowledged ${JSON.stringify(acked)}, ${unanswered} writes unanswered at a kill, ` +
      `${orphansSwept} orphan audio files and ${tempsSwept} temp files swept at start, ` +
      `mean start ${(startSeconds / Math.max(starts, 1)).toFixed(2)} s (seed ${SEED})`,
  );
  if (!failed || !KEEP) rmSync(path.dirname(entry), { recursive: true, force: true });
  if (failed && KEEP) console.log(`data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

void main();

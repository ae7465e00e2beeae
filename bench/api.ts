// npm run bench:api: the production server (its own process) on a large seeded catalogue, a bare Fastify
// hello-world (another process) and autocannon in this one, which does nothing else while a scenario runs.
// Prints requests/s, p50/p99, errors and the share of hello-world per scenario with the server's peak RSS, then,
// with the server stopped, checks every counter against its rows and every acknowledged write.
// Traffic goes to 127.0.0.1 only; every scenario is bounded in time.
//   --pg              PostgreSQL: BENCH_DATABASE_URL, else a cluster of our own (initdb/pg_ctl, durable settings)
//   --growth          latency of the read paths at 10,000 and 1,000,000 songs, and the ratio (target: within 2x)
//   --seconds=N       per scenario (default 8; growth: 5)
//   --fresh           seed again even when a seeded copy of this size is cached
//   --songs=N         catalogue size (default 100000); --growth-sizes=A,B overrides the growth sizes
//   --profile=DIR     run the server with --cpu-prof, its profile left in DIR (summarise: tsx bench/profile.ts FILE)
//   --connections=N   (default 50; growth: 10)   --sessions=N   members signed in for the writes (default 200)
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GENRES } from "@unheard/shared";
import { type Check, checkCounters, checkWrites, heldRows } from "./lib/api-check.js";
import { type Dialect, describe, lit, prepareDatabase, type RunDatabase, type Sql } from "./lib/api-db.js";
import { cycle, type LoadResult, load, type Pair, type Req, toggles } from "./lib/api-load.js";
import { type Child, rssSampler, startHelloWorld, startServer } from "./lib/api-processes.js";
import {
  checkLines,
  consoleTable,
  type GrowthRow,
  growthTable,
  machine,
  markdownTable,
  type Row,
  RSS_TARGET_MB,
  TARGETS,
  type Target,
} from "./lib/api-report.js";
import { ADMIN_EMAIL, BENCH_PASSWORD, benchEmail, type SeedSize, seedSize } from "./lib/api-seed.js";
import { createRandom, shuffled } from "./lib/random.js";
import { ROOT, signIn } from "./lib/web-server.js";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const dialect: Dialect = process.argv.includes("--pg") ? "postgres" : "sqlite";
const growth = process.argv.includes("--growth");
const fresh = process.argv.includes("--fresh");
const profileDir = arg("profile");
const nodeFlags = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
const seconds = Number(arg("seconds") ?? (growth ? 5 : 8));
const connections = Number(arg("connections") ?? (growth ? 10 : 50));
const sessionsWanted = Number(arg("sessions") ?? 200);
const dbLabel = dialect === "postgres" ? "PostgreSQL" : "SQLite";
const rand = createRandom(20261123);

// ---------------------------------------------------------------------------------------------------------
// Inputs read from the database before the server starts.

/** A misspelling: one letter dropped, doubled, swapped with the next or replaced, in a word of 4+ letters. */
function typo(text: string): string {
  const words = text.toLowerCase().replace(/[()]/g, "").split(/\s+/).filter(Boolean);
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 4 && /^[a-z]+$/.test(w));
  const picked = long[rand.int(Math.max(1, long.length))];
  if (!picked) return words.join(" ");
  const [w, i] = picked;
  const at = 1 + rand.int(w.length - 2);
  const kind = rand.int(4);
  const near = "aeiou".includes(w[at] ?? "") ? "aeiou" : "bcdfghklmnprstvz";
  words[i] =
    kind === 0
      ? w.slice(0, at) + w.slice(at + 1)
      : kind === 1
        ? w.slice(0, at) + (w[at] ?? "") + w.slice(at)
        : kind === 2
          ? w.slice(0, at) + (w[at + 1] ?? "") + (w[at] ?? "") + w.slice(at + 2)
          : w.slice(0, at) + (near[rand.int(near.length)] ?? "e") + w.slice(at + 1);
  return words.join(" ");
}

type Inputs = {
  songs: { id: string; submittedBy: string | null }[];
  queries: string[];
  members: { index: number; id: string }[];
};

async function readInputs(sql: Sql, size: SeedSize, members: number): Promise<Inputs> {
  const songs = (
    await sql.query<{ id: string; submitted_by: string | null }>(
      "select id, submitted_by from song where status = 'verified' and is_hidden = " +
        (dialect === "postgres" ? "false" : "0") +
        " order by random() limit 20000",
    )
  ).map((r) => ({ id: r.id, submittedBy: r.submitted_by }));
  // Typo queries: titles, artist names and a title word with an artist's, each misspelt once.
  const named = await sql.query<{ title: string; artist: string }>(
    `select s.title, u.username as artist from song s join song_artist sa on sa.song_id = s.id and sa.position = 0
       join "user" u on u.id = sa.artist_id where s.status = 'verified' order by random() limit 3000`,
  );
  const queries = new Set<string>();
  for (const [i, r] of named.entries()) {
    const title = r.title.replace(/\s*\(.*\)\s*|\s+Pt\. 2$/g, "");
    const q =
      i % 3 === 0
        ? typo(title)
        : i % 3 === 1
          ? typo(r.artist)
          : typo(`${title.split(" ").sort((a, b) => b.length - a.length)[0] ?? ""} ${r.artist.split(" ")[0] ?? ""}`);
    if (q.trim().length >= 3) queries.add(q.trim().slice(0, 100));
  }
  const step = Math.max(1, Math.floor(size.users / members));
  const indexes = Array.from({ length: Math.min(members, size.users) }, (_, i) => i * step);
  const emails = indexes.map((i) => lit(benchEmail(i))).join(", ");
  const ids = new Map(
    (await sql.query<{ id: string; email: string }>(`select id, email from "user" where email in (${emails})`)).map(
      (r) => [r.email, r.id],
    ),
  );
  return {
    songs,
    queries: shuffled([...queries], rand),
    members: indexes.map((index) => ({ index, id: ids.get(benchEmail(index)) ?? "" })),
  };
}

/**
 * Pairs for the write scenarios, alternating a pair that holds the state (a favourite / an up vote, so the
 * request removes it) and one that does not (the request adds it): PUT/DELETE and up/none take turns.
 */
async function writePairs(sql: Sql, kind: "favorite" | "vote", inputs: Inputs): Promise<Pair[]> {
  const session = new Map(inputs.members.map((m, i) => [m.id, i]));
  const held = await heldRows(
    sql,
    kind,
    inputs.members.map((m) => m.id),
  );
  const taken = new Set(held.map((r) => `${r.user_id}|${r.song_id}`));
  const on: Pair[] = shuffled(
    held
      .filter((r) => !("value" in r) || Number(r.value) === 1)
      .map((r) => ({
        session: session.get(r.user_id) ?? 0,
        userId: r.user_id,
        songId: r.song_id,
        state: 1,
        inFlight: false,
        acknowledged: 0,
      })),
    rand,
  ).slice(0, 10_000);
  const off: Pair[] = [];
  while (off.length < Math.max(on.length, 2000)) {
    const s = inputs.members.length ? rand.int(inputs.members.length) : 0;
    const m = inputs.members[s];
    const song = inputs.songs[rand.int(inputs.songs.length)];
    if (!m || !song) break;
    const key = `${m.id}|${song.id}`;
    // A member cannot vote on a song they submitted (403): not a pair the app would accept.
    if (taken.has(key) || (kind === "vote" && song.submittedBy === m.id)) continue;
    taken.add(key);
    off.push({ session: s, userId: m.id, songId: song.id, state: 0, inFlight: false, acknowledged: 0 });
  }
  const out: Pair[] = [];
  for (let i = 0; i < Math.max(on.length, off.length); i++) {
    const a = on[i];
    const b = off[i];
    if (a) out.push(a);
    if (b) out.push(b);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Running scenarios.

async function signInMany(base: string, emails: string[], parallel = 4): Promise<string[]> {
  const cookies: string[] = new Array(emails.length);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < emails.length) {
        const i = next++;
        cookies[i] = await signIn(base, emails[i] ?? "", BENCH_PASSWORD);
        if (i % 20 === 0)
          process.stderr.write(`\r  signing in through POST /api/auth/login: ${i + 1}/${emails.length}`);
      }
    }),
  );
  process.stderr.write(
    `\r  signed in ${emails.length} members through POST /api/auth/login in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return cookies;
}

async function scenario(
  name: string,
  base: string,
  server: Child | undefined,
  next: (ctx: { tag?: unknown }) => Req,
  opts: { target?: Target; done?: (status: number, ctx: { tag?: unknown }) => void; connections?: number } = {},
): Promise<Row> {
  const sampler = server ? rssSampler(server.pid) : undefined;
  process.stderr.write(`  ${name.padEnd(52)} `);
  let result: LoadResult;
  try {
    result = await load(base, { connections: opts.connections ?? connections, seconds }, next, opts.done);
  } finally {
    sampler?.stop();
  }
  const rssMb = sampler?.peak() ?? 0;
  // Requests still queued in the server when the load stopped would slow the next scenario down: wait them out.
  const drained = server ? await drain(base) : 0;
  process.stderr.write(
    `${Math.round(result.rps).toLocaleString("en").padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}${server ? `  RSS ${rssMb.toFixed(0)} MB` : ""}${drained >= 0.5 ? `  (${drained.toFixed(1)} s to finish the queued requests)` : ""}\n`,
  );
  return { name, ...result, rssMb, drainedSec: drained, ...(opts.target ? { target: opts.target } : {}) };
}

/** Seconds until /api/health answers within 50 ms (the server has caught up), at most 120. */
async function drain(base: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 120_000) {
    const t = performance.now();
    try {
      await (await fetch(`${base}/api/health`)).arrayBuffer();
    } catch {
      // Keep waiting.
    }
    if (performance.now() - t < 50) break;
  }
  return (performance.now() - started) / 1000;
}

const get = (p: string, cookie?: string): Req => ({
  method: "GET",
  path: p,
  ...(cookie ? { headers: { cookie } } : {}),
});

async function mainRun(): Promise<void> {
  const size = seedSize(Number(arg("songs") ?? 100_000));
  const db = await prepareDatabase(dialect, size, fresh);
  let server: (Child & { label: string }) | undefined;
  let hello: Child | undefined;
  const rows: Row[] = [];
  const extra: Row[] = [];
  let favPairs: Pair[] = [];
  let votePairs: Pair[] = [];
  const writeStats: string[] = [];
  let sampleQueries: string[] = [];
  let queryCount = 0;
  let checks: Check[] = [];
  let serverStartedAt = Date.now();
  try {
    const sql = await db.open();
    const inputs = await readInputs(sql, size, sessionsWanted);
    favPairs = await writePairs(sql, "favorite", inputs);
    votePairs = await writePairs(sql, "vote", inputs);
    sampleQueries = inputs.queries.slice(0, 6);
    queryCount = inputs.queries.length;
    await sql.close();

    serverStartedAt = Date.now();
    server = await startServer({
      dataDir: db.dataDir,
      ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}),
      nodeFlags,
    });
    hello = await startHelloWorld();
    const base = server.base;
    const origin = { origin: base };
    process.stderr.write(`server: ${server.label} (pid ${server.pid}); hello-world pid ${hello.pid}\n`);

    const cookies = await signInMany(
      base,
      inputs.members.map((m) => benchEmail(m.index)),
    );
    const [adminCookie] = await signInMany(base, [ADMIN_EMAIL], 1);

    // The 6th page of the newest feed: follow nextCursor 5 times, then load that URL.
    let pageUrl = "/api/songs?feed=newest";
    for (let i = 0; i < 5; i++) {
      const page = (await (await fetch(`${base}${pageUrl}`)).json()) as { nextCursor: string | null };
      if (!page.nextCursor) break;
      pageUrl = `/api/songs?feed=newest&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    const ids = shuffled(
      inputs.songs.map((s) => s.id),
      rand,
    );
    const helloBefore = await scenario("hello-world (before)", hello.base, undefined, () => get("/"));
    const feed = TARGETS.feed;
    rows.push(
      await scenario("home feed: trending", base, server, () => get("/api/songs?feed=trending"), { target: feed }),
    );
    rows.push(await scenario("home feed: newest", base, server, () => get("/api/songs?feed=newest"), { target: feed }));
    rows.push(await scenario("home feed: 6th page (cursor)", base, server, () => get(pageUrl), { target: feed }));
    const genres = cycle(GENRES.map((g) => `/api/songs?feed=trending&genre=${g}`));
    rows.push(await scenario("home feed: trending, genre filter", base, server, () => get(genres()), { target: feed }));
    const idCycle = cycle(ids);
    rows.push(
      await scenario("song page, visitor", base, server, () => get(`/api/songs/${idCycle()}`), {
        target: TARGETS.detail,
      }),
    );
    const cookieCycle = cycle(cookies);
    rows.push(
      await scenario("song page, signed in", base, server, () => get(`/api/songs/${idCycle()}`, cookieCycle()), {
        target: TARGETS.detail,
      }),
    );
    rows.push(
      await scenario("home feed: newest, signed in", base, server, () => get("/api/songs?feed=newest", cookieCycle()), {
        target: TARGETS.member,
      }),
    );
    // Server-rendered pages (issue 28), as a browser asks for them (compressed). Every song page is a render of its
    // own (the cycle never repeats within the shared pages' few seconds); the popular ones share their renders.
    const page = (p: string): Req => ({ method: "GET", path: p, headers: { "accept-encoding": "br, gzip" } });
    rows.push(await scenario("page HTML: home, visitor", base, server, () => page("/"), { target: TARGETS.pages }));
    const popular = cycle(ids.slice(0, 100));
    rows.push(
      await scenario("page HTML: 100 popular songs, visitor", base, server, () => page(`/song/${popular()}`), {
        target: TARGETS.pages,
      }),
    );
    rows.push(
      await scenario("page HTML: any song, visitor", base, server, () => page(`/song/${idCycle()}`), {
        target: TARGETS.pages,
      }),
    );
    const queries = cycle(inputs.queries);
    rows.push(
      await scenario("search with a typo", base, server, () => get(`/api/search?q=${encodeURIComponent(queries())}`), {
        target: TARGETS.search,
      }),
    );

    const fav = toggles(favPairs, cookies, (p, want) => ({
      method: want ? "PUT" : "DELETE",
      path: `/api/songs/${p.songId}/favorite`,
      headers: { cookie: cookies[p.session] ?? "", ...origin },
    }));
    rows.push(
      await scenario("favourite toggle (PUT/DELETE)", base, server, (ctx) => fav.next(ctx), {
        target: TARGETS.writes,
        done: fav.done,
      }),
    );
    const favStats = fav.finish();
    const vote = toggles(votePairs, cookies, (p, want) => ({
      method: "PUT",
      path: `/api/songs/${p.songId}/vote`,
      headers: { cookie: cookies[p.session] ?? "", ...origin },
      body: JSON.stringify({ value: want ? "up" : "none" }),
    }));
    rows.push(
      await scenario("vote toggle (up/none)", base, server, (ctx) => vote.next(ctx), {
        target: TARGETS.writes,
        done: vote.done,
      }),
    );
    const voteStats = vote.finish();
    writeStats.push(
      `favourites: ${favStats.sent.toLocaleString("en")} sent over ${favPairs.length.toLocaleString("en")} pairs of ${cookies.length} members, ${favStats.acknowledged.toLocaleString("en")} acknowledged (2xx), ${favStats.unanswered} unanswered when the run ended`,
      `votes: ${voteStats.sent.toLocaleString("en")} sent over ${votePairs.length.toLocaleString("en")} pairs of ${cookies.length} members, ${voteStats.acknowledged.toLocaleString("en")} acknowledged (2xx), ${voteStats.unanswered} unanswered when the run ended`,
    );

    // The shared visitor answers live for 10 s: these rows show the feeds' full work (admins never get them).
    extra.push(
      await scenario("trending, no shared answer (admin)", base, server, () =>
        get("/api/songs?feed=trending", adminCookie),
      ),
    );
    extra.push(
      await scenario("newest, no shared answer (admin)", base, server, () =>
        get("/api/songs?feed=newest", adminCookie),
      ),
    );
    const helloAfter = await scenario("hello-world (after)", hello.base, undefined, () => get("/"));
    const helloRps = (helloBefore.rps + helloAfter.rps) / 2;
    for (const r of [...rows, ...extra]) r.share = (100 * r.rps) / helloRps;
    rows.unshift(helloBefore, helloAfter);
  } finally {
    await hello?.stop();
    await server?.stop();
  }
  const serverOutput = server?.output().trim() ?? "";
  const sql = await db.open();
  try {
    checks = await checkCounters(sql, dialect, serverStartedAt);
    checks.push(await checkWrites(sql, "favorite", favPairs));
    checks.push(await checkWrites(sql, "vote", votePairs));
  } finally {
    await sql.close();
    await db.dispose();
  }
  const peak = Math.max(...rows.map((r) => r.rssMb), ...extra.map((r) => r.rssMb));
  checks.push({
    name: `server peak RSS under load <= ${RSS_TARGET_MB} MB`,
    ok: peak <= RSS_TARGET_MB,
    detail: `${peak.toFixed(0)} MB`,
  });

  const counts = Object.entries(db.seed.counts)
    .map(([t, n]) => `${t} ${n.toLocaleString("en")}`)
    .join(", ");
  const md = [
    `# bench:api on ${dbLabel}`,
    "",
    `- Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `- Machine: ${machine()}`,
    `- Catalogue: ${describe(size)} (rows: ${counts}); seed ${db.seed.reused ? "reused from the cache, it took" : "took"} ${db.seed.seconds.toFixed(1)} s`,
    `- Load: autocannon, ${connections} connections, ${seconds} s per scenario, from the orchestrator's process; server: \`${server?.label}\` in its own process (NODE_ENV=production, LOG_LEVEL=warn); hello-world (\`bench/hello-world.ts\`) in a third`,
    `- Writes: ${writeStats.join("; ")}`,
    `- Typo queries (${queryCount.toLocaleString("en")} distinct, e.g.): ${sampleQueries.map((q) => `\`${q}\``).join(", ")}`,
    `- % of hello: requests/s against the mean of the two hello-world runs. Backlog s: seconds the server still needed after the load stopped to answer what was queued (the next scenario waits for it). URLs: distinct paths requested. Targets are the issue's (SQLite, 50 connections, 100,000 songs)${dialect === "postgres" || size.songs !== 100_000 || connections !== 50 ? "; this run differs from that setting, so pass/miss is indicative only" : ""}.`,
    "",
    markdownTable(rows),
    "",
    "Visitors' feeds, song pages and searches are shared answers kept 10 s by the server (any song change clears them): the feed rows above are mostly those; song pages and searches rotate over thousands of URLs, so most of their requests do the full work. Without the shared answer (admins always take the full path):",
    "",
    markdownTable(extra),
    "",
    "Afterwards, with the server stopped, straight in the database:",
    "",
    ...checkLines(checks).map((l) => `- ${l}`),
    "",
    "On a 2-core machine the server, the load generator and the hello-world share the cores: the hello-world figure is bounded by autocannon as much as by Fastify, so the shares are conservative.",
    "",
  ].join("\n");
  console.log(`\n${consoleTable(rows)}\n\n${consoleTable(extra)}\n\n${checkLines(checks).join("\n")}`);
  if (serverOutput) console.log(`\nserver output (warnings and errors):\n${summarizeLog(serverOutput)}`);
  // Only the issue's setting replaces the committed figures; other sizes and shapes go to the temp dir.
  const standard = size.songs === 100_000 && connections === 50 && seconds >= 5;
  const file = resultFile(standard, `api-${dialect}`, `api-${dialect}-${size.songs}-songs-${connections}c-${seconds}s`);
  writeFileSync(file, md);
  console.log(`\nWrote ${file.startsWith(ROOT) ? path.relative(ROOT, file) : file}`);
  if (checks.some((c) => !c.ok && !c.name.includes("RSS"))) process.exitCode = 1;
}

/** bench/results/<name>.md for a run in the issue's setting, else a file in the temp dir (dev runs). */
function resultFile(standard: boolean, name: string, devName: string): string {
  const dir = standard ? path.join(ROOT, "bench/results") : path.join(tmpdir(), "unheard-bench-results");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${standard ? name : devName}.md`);
}

/** The server's warnings: "slow request" lines counted per route, anything else as it is (last 40 lines). */
function summarizeLog(text: string): string {
  const slow = new Map<string, number>();
  const other: string[] = [];
  for (const line of text.split("\n")) {
    const m = /"url":"([^"?]+)[^"]*".*"msg":"slow request"/.exec(line);
    if (m) {
      const route = (m[1] ?? "").replace(/\/[a-z0-9]{16}(?=\/|$)/g, "/:id");
      slow.set(route, (slow.get(route) ?? 0) + 1);
    } else if (line.trim()) other.push(line);
  }
  return [...[...slow].map(([route, n]) => `${n} answers slower than 1 s on ${route}`), ...other.slice(-40)].join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Growth: the same read paths at two catalogue sizes.

async function growthRun(): Promise<void> {
  const sizes = (arg("growth-sizes") ?? "10000,1000000").split(",").map(Number) as [number, number];
  const measured: { size: SeedSize; seed: RunDatabase["seed"]; results: Record<string, LoadResult> }[] = [];
  for (const n of sizes) {
    const size = seedSize(n);
    const db = await prepareDatabase(dialect, size, fresh);
    let server: (Child & { label: string }) | undefined;
    const results: Record<string, LoadResult> = {};
    try {
      const sql = await db.open();
      const inputs = await readInputs(sql, size, 1);
      await sql.close();
      server = await startServer({ dataDir: db.dataDir, ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}) });
      const base = server.base;
      // As the admin: their answers are never the shared ones, so every request runs its queries.
      const [cookie] = await signInMany(base, [ADMIN_EMAIL], 1);
      const ids = cycle(
        shuffled(
          inputs.songs.map((s) => s.id),
          rand,
        ),
      );
      const queries = cycle(inputs.queries);
      process.stderr.write(`${n.toLocaleString("en")} songs (server ${server.label}):\n`);
      const paths: [string, () => string][] = [
        ["newest feed", () => "/api/songs?feed=newest"],
        ["trending feed", () => "/api/songs?feed=trending"],
        ["song page", () => `/api/songs/${ids()}`],
        ["search with a typo", () => `/api/search?q=${encodeURIComponent(queries())}`],
      ];
      for (const [name, p] of paths) results[name] = await scenario(name, base, server, () => get(p(), cookie));
    } finally {
      await server?.stop();
      await db.dispose();
    }
    measured.push({ size, seed: db.seed, results });
  }
  const [small, large] = measured;
  if (!small || !large) return;
  const rows: GrowthRow[] = Object.keys(small.results).map((name) => ({
    name,
    small: small.results[name] as LoadResult,
    large: large.results[name] as LoadResult,
  }));
  const label = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
  const md = [
    `# bench:api --growth on ${dbLabel}`,
    "",
    `- Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `- Machine: ${machine()}`,
    ...measured.map(
      (m) =>
        `- ${label(m.size.songs)}: ${describe(m.size)}; seed ${m.seed.reused ? "reused, it took" : "took"} ${m.seed.seconds.toFixed(1)} s`,
    ),
    `- Load: ${connections} connections, ${seconds} s per endpoint, signed in as an admin (never the shared 10 s answer: every request runs its queries); song pages and searches rotate over thousands of ids and typo queries.`,
    "",
    growthTable(rows, [label(sizes[0]), label(sizes[1])]),
    "",
  ].join("\n");
  console.log(`\n${md}`);
  const standard = sizes[0] === 10_000 && sizes[1] === 1_000_000;
  const file = resultFile(standard, `growth-${dialect}`, `growth-${dialect}-${sizes.join("-")}`);
  writeFileSync(file, md);
  console.log(`Wrote ${file.startsWith(ROOT) ? path.relative(ROOT, file) : file}`);
}

await (growth ? growthRun() : mainRun());

// npm run bench:search: relevance and latency of search over HTTP (issue 26). Builds a catalogue that looks like
// unreleased-song trackers (bench:api's bulk seed with tracker-like titles and names, lib/search-seed.ts), makes
// a seeded query set from it (lib/search-queries.ts: exact titles, a typo per word, partial last words, title and
// artist, featured artists, accents dropped; independent of the server's code), asks each query once of
// /api/search and /api/search/suggest as a visitor and prints recall@1 and @5 per kind; then loads the server
// (its own process) with thousands of distinct queries per kind from this process, beside a bare Fastify
// hello-world (a third process), and prints req/s, p50/p99 and the share of hello-world against the targets.
//   --songs=N          catalogue size (default 100000; 10000 and 1000000 are the growth sizes)
//   --pg               PostgreSQL (BENCH_DATABASE_URL, else bench:api's own cluster); SQLite's relevance is measured
//                      first on the same catalogue and queries, and PostgreSQL's compared with it (within 2 points)
//   --growth           10,000 then 1,000,000 songs: recall and search/suggest latency at both, and the ratio
//                      (target: 1M within 2x of 10k); --growth-sizes=A,B overrides the sizes
//   --seconds=N        per load scenario (default 8)     --connections=N   (default 50)
//   --queries=N        relevance queries per kind (default 200)
//   --relevance-only   no load scenarios                 --fresh           seed again even when cached
//   --profile=DIR      run the server with --cpu-prof and leave its profile in DIR (summarise with bench/profile.ts)
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Dialect, describe, type RunDatabase, type Sql } from "./lib/api-db.js";
import { cycle, type LoadResult, load, type Req } from "./lib/api-load.js";
import { type Child, rssSampler, startHelloWorld, startServer } from "./lib/api-processes.js";
import {
  consoleTable,
  type GrowthRow,
  growthTable,
  machine,
  markdownTable,
  type Row,
  type Target,
} from "./lib/api-report.js";
import { seedSize } from "./lib/api-seed.js";
import {
  baseTitle,
  type CatalogueSong,
  featuredInTitle,
  indexCatalogue,
  KIND_LABELS,
  loadQueries,
  MAX_MATCHES,
  QUERY_KINDS,
  type Query,
  type QueryKind,
  relevanceQueries,
  suggestPrefixes,
} from "./lib/search-queries.js";
import {
  askAll,
  ENDPOINTS,
  type Endpoint,
  endpointAvailable,
  missExamples,
  summarize,
} from "./lib/search-relevance.js";
import {
  dialectTable,
  growthRecallTable,
  LOAD_TARGETS,
  recallTable,
  resultFile,
  type Summary,
  sizeLabel,
} from "./lib/search-report.js";
import { prepareSearchDatabase, type SearchSeed } from "./lib/search-seed.js";
import { ROOT } from "./lib/web-server.js";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const usePg = process.argv.includes("--pg");
const growth = process.argv.includes("--growth");
const fresh = process.argv.includes("--fresh");
const relevanceOnly = process.argv.includes("--relevance-only");
const profileDir = arg("profile");
const seconds = Number(arg("seconds") ?? 8);
const connections = Number(arg("connections") ?? 50);
const perKind = Number(arg("queries") ?? 200);
const QUERY_SEED = 20261124;
// Distinct queries per load scenario: more than a scenario sends at several thousand per second for 8 s, so none
// is asked twice within the server's 10 s shared answer (small catalogues may not have that many of a kind).
const POOL = 100_000;
const startLoad = os.loadavg()[0] ?? 0;
const dbLabel = (d: Dialect) => (d === "postgres" ? "PostgreSQL" : "SQLite");

/** The songs a visitor may find (verified, not hidden) with their credited artists in order. */
async function readCatalogue(sql: Sql, dialect: Dialect): Promise<CatalogueSong[]> {
  const songs = await sql.query<{ id: string; title: string }>(
    `select id, title from song where status = 'verified' and is_hidden = ${dialect === "postgres" ? "false" : "0"}`,
  );
  const credits = await sql.query<{ song_id: string; id: string; name: string }>(
    `select sa.song_id, u.id, u.username as name from song_artist sa join "user" u on u.id = sa.artist_id
       order by sa.song_id, sa.position`,
  );
  const bySong = new Map<string, { id: string; name: string }[]>();
  for (const c of credits) {
    const list = bySong.get(c.song_id);
    if (list) list.push({ id: c.id, name: c.name });
    else bySong.set(c.song_id, [{ id: c.id, name: c.name }]);
  }
  // In id order whatever the database returns: the same catalogue gives the same queries on either dialect.
  return songs
    .map((s) => ({ id: s.id, title: s.title, artists: bySong.get(s.id) ?? [] }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What the catalogue looks like, for the report. */
function catalogueFacts(songs: CatalogueSong[]): string {
  const n = songs.length;
  const share = (k: number) => `${((100 * k) / Math.max(1, n)).toFixed(1)}%`;
  const accent = (s: string) => /[^\x20-\x7e]/.test(s);
  const titles = new Map<string, number>();
  for (const s of songs) {
    const t = baseTitle(s.title).toLowerCase();
    titles.set(t, (titles.get(t) ?? 0) + 1);
  }
  const unique = [...titles.values()].filter((c) => c === 1).length;
  const withWord = (w: string) => songs.filter((s) => baseTitle(s.title).toLowerCase().split(" ").includes(w)).length;
  const examples = songs
    .filter((_, i) => i % Math.max(1, Math.floor(n / 7)) === 3)
    .slice(0, 7)
    .map((s) => `"${s.title}" by ${s.artists.map((a) => a.name).join(", ")}`);
  return [
    `${n.toLocaleString("en")} songs visible to visitors (verified);`,
    `${share(songs.filter((s) => featuredInTitle(s.title)).length)} with "(feat. X)" in the title,`,
    `${share(songs.filter((s) => s.artists.length >= 2).length)} with 2-3 credited artists,`,
    `${share(songs.filter((s) => accent(s.title) || s.artists.some((a) => accent(a.name))).length)} with an accent in the title or an artist's name;`,
    `${share(unique)} of songs have a title (tags aside) no other song has;`,
    `"love" is in ${share(withWord("love"))} of titles, "the" in ${share(withWord("the"))}, "night" in ${share(withWord("night"))}.`,
    `E.g. ${examples.join("; ")}.`,
  ].join(" ");
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

async function scenario(
  name: string,
  base: string,
  server: Child | undefined,
  next: () => string,
  target?: Target,
): Promise<Row> {
  const sampler = server ? rssSampler(server.pid) : undefined;
  process.stderr.write(`  ${name.padEnd(52)} `);
  let result: LoadResult;
  try {
    result = await load(base, { connections, seconds }, (): Req => ({ method: "GET", path: next() }));
  } finally {
    sampler?.stop();
  }
  const rssMb = sampler?.peak() ?? 0;
  const drained = server ? await drain(base) : 0;
  process.stderr.write(
    `${Math.round(result.rps).toLocaleString("en").padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}${server ? `  RSS ${rssMb.toFixed(0)} MB` : ""}\n`,
  );
  return { name, ...result, rssMb, drainedSec: drained, ...(target ? { target } : {}) };
}

type LoadPool = { name: string; queries: string[]; target: Target; endpoint: Endpoint };

/**
 * The relevance queries and the load scenarios' pools, from the catalogue's rows. In a function of its own so the
 * catalogue (hundreds of MB at 1M songs) is gone before the server starts.
 */
async function makeQueries(
  db: RunDatabase,
  dialect: Dialect,
  mode: "full" | "growth" | "relevance",
): Promise<{ facts: string; queries: Query[]; loadPools: LoadPool[] }> {
  const sql = await db.open();
  const catalogue = await readCatalogue(sql, dialect);
  await sql.close();
  const index = indexCatalogue(catalogue);
  const queries = relevanceQueries(index, perKind, QUERY_SEED);
  const asked = new Set(queries.map((q) => q.q));
  const loadPools: LoadPool[] = [];
  if (mode !== "relevance") {
    const search = (name: string, kinds: readonly QueryKind[], seed: number): LoadPool => ({
      name,
      queries: loadQueries(index, kinds, POOL, seed, asked),
      target: LOAD_TARGETS.search,
      endpoint: "search",
    });
    loadPools.push(search("search: typo and partial queries", ["typo", "partial"], QUERY_SEED + 100));
    loadPools.push({
      name: "suggest: prefixes as typed",
      queries: suggestPrefixes(index, POOL, QUERY_SEED + 200, asked),
      target: LOAD_TARGETS.suggest,
      endpoint: "suggest",
    });
    if (mode === "full")
      for (const [k, kind] of QUERY_KINDS.entries())
        loadPools.push(search(`search: ${KIND_LABELS[kind]}`, [kind], QUERY_SEED + 300 + k));
  }
  return { facts: catalogueFacts(catalogue), queries, loadPools };
}

type Measured = {
  dialect: Dialect;
  songs: number;
  seed: SearchSeed;
  facts: string;
  serverLabel: string;
  readySec: number;
  endpoints: Endpoint[];
  queries: Query[];
  summary: Summary;
  misses: string[];
  rows: Row[];
  pools: string[];
  serverOutput: string;
};

/**
 * One catalogue: seed or reuse it, make the queries, start the server, ask the relevance queries, then (unless
 * `mode` is "relevance") the load scenarios: "full" all of them beside hello-world, "growth" search and suggest.
 */
async function measure(dialect: Dialect, songs: number, mode: "full" | "growth" | "relevance"): Promise<Measured> {
  const size = seedSize(songs);
  process.stderr.write(`\n${dbLabel(dialect)}, ${describe(size)}\n`);
  const { db, seed } = await prepareSearchDatabase(dialect, size, fresh);
  let server: (Child & { label: string }) | undefined;
  let hello: Child | undefined;
  const rows: Row[] = [];
  const pools: string[] = [];
  try {
    const { facts, queries, loadPools } = await makeQueries(db, dialect, mode);
    const started = performance.now();
    server = await startServer({
      dataDir: db.dataDir,
      ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}),
      startTimeoutMs: 900_000,
      nodeFlags: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [],
    });
    const readySec = (performance.now() - started) / 1000;
    process.stderr.write(`server: ${server.label} (pid ${server.pid}), answering after ${readySec.toFixed(1)} s\n`);
    const endpoints: Endpoint[] = [];
    for (const e of ENDPOINTS) if (await endpointAvailable(server.base, e)) endpoints.push(e);
    const outcomes = await askAll(server.base, queries, endpoints);

    if (mode !== "relevance") {
      const base = server.base;
      hello = mode === "full" ? await startHelloWorld() : undefined;
      const helloBefore = hello ? await scenario("hello-world (before)", hello.base, undefined, () => "/") : undefined;
      for (const pool of loadPools) {
        if (!endpoints.includes(pool.endpoint) || pool.queries.length === 0) continue;
        const prefix = pool.endpoint === "search" ? "/api/search?q=" : "/api/search/suggest?q=";
        const next = cycle(pool.queries.map((q) => `${prefix}${encodeURIComponent(q)}`));
        const row = await scenario(pool.name, base, server, next, pool.target);
        const rounds = row.total / pool.queries.length;
        // A pool asked more than once within the shared answers' 10 s is partly served from them: say so in the row.
        if (rounds > 1) row.name += ` (pool went round ${rounds.toFixed(1)}x)`;
        rows.push(row);
        const examples = pool.queries.slice(0, 4).map((q) => `\`${q}\``);
        pools.push(
          `${pool.name}: ${pool.queries.length.toLocaleString("en")} distinct queries, e.g. ${examples.join(", ")}${rounds > 1 ? ` (**went round ${rounds.toFixed(1)} times**: a repeat within 10 s may have been a shared answer)` : ""}`,
        );
      }
      const helloAfter = hello ? await scenario("hello-world (after)", hello.base, undefined, () => "/") : undefined;
      if (helloBefore && helloAfter) {
        const helloRps = (helloBefore.rps + helloAfter.rps) / 2;
        for (const r of rows) r.share = (100 * r.rps) / helloRps;
        rows.unshift(helloBefore, helloAfter);
      }
    }
    return {
      dialect,
      songs,
      seed,
      facts,
      serverLabel: server.label,
      readySec,
      endpoints,
      queries,
      summary: summarize(outcomes),
      misses: missExamples(outcomes),
      rows,
      pools,
      serverOutput: server.output().trim(),
    };
  } catch (err) {
    // A server that died mid-run (out of memory, a crash) says why in its output.
    const output = server?.output().trim();
    if (output) process.stderr.write(`\nserver output (last lines):\n${output.split("\n").slice(-40).join("\n")}\n`);
    throw err;
  } finally {
    await hello?.stop();
    await server?.stop();
    await db.dispose();
  }
}

const now = () => `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;

function seedLine(m: Measured): string {
  const s = m.seed;
  const how = s.reused ? "taken from the cache; making it took" : "made now:";
  return `${how} bench:api's bulk seed ${s.baseSeconds.toFixed(1)} s${s.baseReused ? " (itself cached)" : ""} + titles and names rewritten ${s.rewriteSeconds.toFixed(1)} s`;
}

function relevanceSection(m: Measured): string[] {
  return [
    `- Queries: up to ${perKind} per kind (seed ${QUERY_SEED}), each naming its song and kept only when at most ${MAX_MATCHES} songs (distinct title and artists) answer it; made by \`bench/lib/search-queries.ts\` from the catalogue's rows, without the server's code. Each asked once, as a visitor, of ${m.endpoints.map((e) => `\`/api/${e === "search" ? "search" : "search/suggest"}\``).join(" and ")}${m.endpoints.includes("suggest") ? "" : " (`/api/search/suggest` answered 404 on this server)"}; a hit at k when the song, or a duplicate of it (same title, tags aside, and same artists), is among the first k songs answered. Median ms: unloaded, 4 requests at a time.`,
    "",
    recallTable(m.summary, m.endpoints),
    "",
    ...(m.misses.length
      ? ["Misses on `/api/search` (up to 3 per kind):", "", ...m.misses.map((l) => `- ${l}`), ""]
      : []),
  ];
}

function loadSection(m: Measured): string[] {
  if (!m.rows.length) return [];
  return [
    `- Load: autocannon, ${connections} connections, ${seconds} s per scenario, from the orchestrator's process; the server in its own process (NODE_ENV=production), hello-world (\`bench/hello-world.ts\`) in a third. Each scenario rotates over its own distinct queries (none of the relevance ones), so the server's shared 10 s answers serve none of them unless a scenario goes round its whole pool. % of hello: req/s against the mean of the two hello-world runs. Targets are the issue's (SQLite, 100,000 songs, 50 connections)${m.dialect !== "sqlite" || m.songs !== 100_000 || connections !== 50 ? "; this run differs from that setting, so pass/miss is indicative only" : ""}.`,
    ...m.pools.map((p) => `- ${p}`),
    "",
    markdownTable(m.rows),
    "",
  ];
}

function header(m: Measured, title: string): string[] {
  const size = seedSize(m.songs);
  return [
    `# ${title}`,
    "",
    `- Date: ${now()}`,
    `- Machine: ${machine()}`,
    `- Catalogue: ${describe(size)}; ${m.facts}`,
    `- Seed: ${seedLine(m)}`,
    `- Server: \`${m.serverLabel}\`, answering ${m.readySec.toFixed(1)} s after it was started (migrations, an index built at start)`,
    // Other work on the machine moves the load figures (not the recall): a busy start shows here.
    `- Load average (1 min) before the run: ${startLoad.toFixed(2)}`,
  ];
}

function printServerOutput(m: Measured): void {
  if (m.serverOutput)
    console.log(
      `\nserver output (${dbLabel(m.dialect)}, last lines):\n${m.serverOutput.split("\n").slice(-30).join("\n")}`,
    );
}

function write(standard: boolean, name: string, devName: string, md: string): void {
  const file = resultFile(standard, name, devName);
  writeFileSync(file, md);
  console.log(`\nWrote ${file.startsWith(ROOT) ? path.relative(ROOT, file) : file}`);
}

async function mainRun(): Promise<void> {
  const songs = Number(arg("songs") ?? 100_000);
  const dialect: Dialect = usePg ? "postgres" : "sqlite";
  // On PostgreSQL the bar is SQLite's relevance on the same catalogue and queries: measured first, in this run.
  const reference = usePg ? await measure("sqlite", songs, "relevance") : undefined;
  const m = await measure(dialect, songs, relevanceOnly ? "relevance" : "full");
  const sameQueries =
    reference &&
    JSON.stringify(reference.queries.map((q) => [q.q, q.expected])) ===
      JSON.stringify(m.queries.map((q) => [q.q, q.expected]));
  const md = [
    ...header(m, `bench:search on ${dbLabel(dialect)}`),
    ...relevanceSection(m),
    ...(reference
      ? [
          `PostgreSQL against SQLite (relevance measured in this run on ${sameQueries ? "the same catalogue and the same queries" : "catalogues that differ: the query sets are not the same"}; target: within 2 points):`,
          "",
          dialectTable(reference.summary, m.summary, m.endpoints),
          "",
        ]
      : []),
    ...loadSection(m),
  ].join("\n");
  console.log(`\n${md}`);
  if (m.rows.length) console.log(consoleTable(m.rows));
  printServerOutput(m);
  const standard = songs === 100_000 && connections === 50 && seconds >= 5 && perKind === 200 && !relevanceOnly;
  write(standard, `search-${dialect}`, `search-${dialect}-${songs}-songs-${connections}c-${seconds}s`, md);
}

async function growthRun(): Promise<void> {
  const sizes = (arg("growth-sizes") ?? "10000,1000000").split(",").map(Number) as [number, number];
  const dialect: Dialect = usePg ? "postgres" : "sqlite";
  const small = await measure(dialect, sizes[0], "growth");
  const large = await measure(dialect, sizes[1], "growth");
  const labels: [string, string] = [sizeLabel(sizes[0]), sizeLabel(sizes[1])];
  // Rows whose pool went round carry a note in their name: match on the scenario's name before it.
  const scenarioOf = (r: Row) => r.name.replace(/ \(pool went round .*\)$/, "");
  const rows: GrowthRow[] = small.rows.flatMap((r) => {
    const other = large.rows.find((x) => scenarioOf(x) === scenarioOf(r));
    return other ? [{ name: scenarioOf(r), small: r, large: other }] : [];
  });
  const md = [
    `# bench:search --growth on ${dbLabel(dialect)}`,
    "",
    `- Date: ${now()}`,
    `- Machine: ${machine()}; load average (1 min) before the run: ${startLoad.toFixed(2)}`,
    ...[small, large].map(
      (m) =>
        `- ${sizeLabel(m.songs)}: ${describe(seedSize(m.songs))}; seed ${seedLine(m)}; server answering ${m.readySec.toFixed(1)} s after its start`,
    ),
    `- Load: ${connections} connections, ${seconds} s per endpoint, as a visitor, thousands of distinct queries per scenario (typo and partial-word searches; prefixes for suggestions). Target: p50 and p99 at ${labels[1]} within 2x of ${labels[0]}.`,
    "",
    growthTable(rows, labels),
    "",
    ...[small, large].flatMap((m) => m.pools.map((p) => `- ${sizeLabel(m.songs)}, ${p}`)),
    "",
    `Recall on the same kinds of queries at both sizes (up to ${perKind} per kind, at most ${MAX_MATCHES} songs answering each):`,
    "",
    ...small.endpoints.flatMap((e) => [growthRecallTable(small.summary, large.summary, labels, e), ""]),
  ].join("\n");
  console.log(`\n${md}`);
  printServerOutput(large);
  const standard = sizes[0] === 10_000 && sizes[1] === 1_000_000 && connections === 50;
  write(standard, `search-growth-${dialect}`, `search-growth-${dialect}-${sizes.join("-")}`, md);
}

await (growth ? growthRun() : mainRun());

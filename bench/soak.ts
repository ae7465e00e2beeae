// npm run test:soak: minutes of steady mixed load against the production bundle, then verdicts. Three processes:
// the server (apps/server/dist/main.js, demo catalogue with audio, SQLite in a fresh DATA_DIR), the load generator
// (bench/lib/soak-load.ts: reads, writes, uploads and live streams at a fixed request rate) and this one, which
// only prepares, samples the server's RSS from /proc every few seconds and judges:
//   - no 5xx and no unanswered request, and the generator kept the rate;
//   - p99 of the last third within 1.5x of the first third's (both lifted to a 25 ms floor);
//   - memory flat: the least-squares slope of RSS over the measured second half under a bound: 2 MB/min, at
//     least 12 MB over the window (40 MB in the first minutes, while V8 sizes its heap), plus twice the slope's
//     standard error (rssSlopeBound in bench/lib/soak-stats.ts);
//   - with the server stopped, the SQLite file opened read-only: every counter equals its rows
//     (apps/server/src/test/consistency.ts and bench:api's checks) and every acknowledged favourite and vote stored.
// Settings (environment): SOAK_SECONDS measured (default 600), after SOAK_WARMUP seconds of the same load that only
// the 5xx count sees (default 10% of the run, at most 30: the JIT, caches and SQLite's pages warm up there),
// SOAK_RATE requests/s (default 40), SOAK_MEMBERS (12), SOAK_STREAMS (4), SOAK_SAMPLE_MS (2000), SOAK_KEEP=1 keeps
// the data folder. `npm run test:soak` builds what is stale first: the soak always runs the bundle.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Song } from "@unheard/shared";
import { RULES_OFF_ENV } from "../apps/server/src/test/rules-off.js";
import { emlText } from "../e2e/support/mail.js";
import { demoServerEnv, stopProcess } from "../e2e/support/server-process.js";
import { type Check, checkWrites } from "./lib/api-check.js";
import { AUTH_SECRET, rssMb } from "./lib/api-processes.js";
import { checkLines } from "./lib/api-report.js";
import { readOnlySql, soakInvariants } from "./lib/soak-check.js";
import type { PlanMember, PlanSong, SoakPlan, SoakResult } from "./lib/soak-plan.js";
import { linearFit, p99Stable, quantile, rssSlopeBound, type Sample, thirds } from "./lib/soak-stats.js";
import { ROOT, signIn, startDemoServer } from "./lib/web-server.js";

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const SECONDS = num("SOAK_SECONDS", 600);
const RATE = num("SOAK_RATE", 40);
const MEMBERS = num("SOAK_MEMBERS", 12);
const STREAMS = num("SOAK_STREAMS", 4);
const SAMPLE_MS = num("SOAK_SAMPLE_MS", 2000);
const WARMUP = process.env.SOAK_WARMUP !== undefined ? Number(process.env.SOAK_WARMUP) : Math.min(30, SECONDS / 10);
const BUNDLE = path.join(ROOT, "apps/server/dist/main.js");
const PASSWORD = "soak-password-1";
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The production server over the demo catalogue, trust rules off for minutes-old accounts (as bench:api). */
async function startSoakServer(dataDir: string) {
  // The bundle as built, even when sources changed since (bench:api would fall back to tsx): the soak is about
  // the production build; `npm run test:soak` rebuilds what is stale before it starts.
  if (!existsSync(BUNDLE)) throw new Error("apps/server/dist/main.js is missing: run npm run build");
  const label = "apps/server/dist/main.js";
  const { baseURL, child, output, healthy } = await startDemoServer([BUNDLE], {
    dataDir,
    timeoutMs: 180_000,
    maxOutput: 50_000,
    env: {
      NODE_ENV: "production",
      AUTH_SECRET,
      // The soak's members are minutes old and vote, report and upload all run long: no trust rules, caps or gate.
      ...RULES_OFF_ENV,
      WAITLIST_GATE: "false",
      VOTES_PER_MINUTE: "100000000",
      AUTH_LIMIT_SCALE: "1000",
      SUPER_ADMIN_EMAIL: "",
      S3_BUCKET: "",
      S3_ENDPOINT: "",
    },
  });
  const stop = () => stopProcess(child, 15_000);
  if (!healthy) {
    await stop();
    throw new Error(`The server did not start.\n--- output ---\n${output()}`);
  }
  return { base: baseURL, pid: child.pid ?? 0, label, output, stop, exited: () => child.exitCode !== null };
}

/** Wait until the server's background jobs (fingerprinting the demo audio) are done: the soak starts quiet. */
async function waitForJobs(base: string, cookie: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/admin/jobs`, { headers: { cookie } });
    const { items } = (await res.json()) as { items: { status: string }[] };
    if (res.ok && !items.some((j) => j.status === "queued" || j.status === "running")) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error("The demo songs were not fingerprinted within five minutes");
}

/** Register, verify (link from the outbox in DATA_DIR/mail) and sign in a new member. */
async function newMember(base: string, dataDir: string, i: number): Promise<PlanMember> {
  const email = `soak-${i}-${Date.now().toString(36)}@example.com`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  let link: string | undefined;
  for (let tries = 0; tries < 100 && !link; tries++) {
    const file = readdirSync(path.join(dataDir, "mail"), { withFileTypes: true })
      .map((d) => d.name)
      .filter((f) => f.endsWith(`-${email}.eml`))
      .sort()
      .at(-1);
    const text = file ? emlText(readFileSync(path.join(dataDir, "mail", file), "utf8")) : "";
    link = /https?:\/\/\S*\/api\/auth\/verify-email\?token=[^\s"<>]+/.exec(text)?.[0];
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error(`no verification mail for ${email}`);
  const verified = await fetch(link, { headers: { accept: "application/json" } });
  if (!verified.ok) throw new Error(`verify ${email}: ${verified.status}`);
  const cookie = await signIn(base, email, PASSWORD);
  const me = (await (await fetch(`${base}/api/me`, { headers: { cookie } })).json()) as { id: string };
  return { id: me.id, cookie };
}

/** Every song the admin sees (verified pages and pending), and search queries from their titles and artists. */
async function catalogue(base: string, cookie: string): Promise<{ songs: PlanSong[]; queries: string[] }> {
  const all: Song[] = [];
  for (const feed of ["/api/songs?feed=newest&limit=48", "/api/songs/pending?limit=48"]) {
    let url: string | null = feed;
    while (url) {
      const page = (await (await fetch(`${base}${url}`, { headers: { cookie } })).json()) as {
        items: Song[];
        nextCursor: string | null;
      };
      all.push(...page.items);
      url = page.nextCursor ? `${feed}&cursor=${encodeURIComponent(page.nextCursor)}` : null;
    }
  }
  const songs = all.map((s) => ({
    id: s.id,
    submittedBy: s.submittedBy?.id ?? null,
    audioUrl: s.audio?.url ?? null,
    audioSize: s.audio?.size ?? 0,
    artistIds: s.artists.map((a) => a.id),
  }));
  const words = all.flatMap((s) => [s.title, ...s.artists.map((a) => a.name)]);
  // Whole names, a word of them and a prefix: what people type, hits and near-misses.
  const queries = [
    ...new Set(words.flatMap((w) => [w, w.split(" ")[0] ?? w, w.slice(0, 4)]).filter((q) => q.trim().length >= 2)),
  ];
  return { songs, queries };
}

/** Run the load generator as its own process and read back what it measured. */
function runLoad(plan: SoakPlan): Promise<SoakResult> {
  return new Promise((resolve, reject) => {
    const planFile = `${plan.out}.plan.json`;
    writeFileSync(planFile, JSON.stringify(plan));
    const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/soak-load.ts", planFile], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the load generator exited with ${code}`));
      else resolve(JSON.parse(readFileSync(plan.out, "utf8")) as SoakResult);
    });
  });
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), "unheard-soak-"));
  const dataDir = path.join(workDir, "data");
  mkdirSync(dataDir);
  // Prerender the demo audio into the shared cache first (as the browser tests' setup does): the server then
  // seeds at once instead of rendering in the background while the soak runs.
  execFileSync(process.execPath, ["apps/server/dist/seed.js"], {
    cwd: ROOT,
    env: { ...process.env, ...demoServerEnv(0, path.join(workDir, "prerender")), LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
  rmSync(path.join(workDir, "prerender"), { recursive: true, force: true });

  const serverStartedAt = Date.now();
  const server = await startSoakServer(dataDir);
  log(`server: ${server.label} (pid ${server.pid}) at ${server.base}; data ${dataDir}`);
  const rss: { t: number; mb: number }[] = [];
  let result: SoakResult | undefined;
  let loadStart = 0;
  try {
    const admin = await signIn(server.base, "admin@unheard.local", "admin123");
    await waitForJobs(server.base, admin);
    const members: PlanMember[] = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await newMember(server.base, dataDir, i));
    const uploader = await newMember(server.base, dataDir, MEMBERS);
    const { songs, queries } = await catalogue(server.base, admin);
    log(
      `catalogue: ${songs.length} songs (${songs.filter((s) => s.audioUrl).length} with audio), ${queries.length} search queries; ${members.length} members + 1 uploader; ${STREAMS} live streams`,
    );
    log(
      `load: ${RATE} requests/s for ${WARMUP} s of warm-up and ${SECONDS} s measured (${Math.round(RATE * (SECONDS + WARMUP)).toLocaleString("en")} requests)`,
    );

    loadStart = performance.now();
    rss.push({ t: 0, mb: rssMb(server.pid) });
    const sampler = setInterval(() => {
      const t = (performance.now() - loadStart) / 1000;
      rss.push({ t, mb: rssMb(server.pid) });
      const last = rss.at(-1)?.mb ?? 0;
      if (Math.round(t) % 30 < SAMPLE_MS / 1000) log(`  ${f0(t)} s: RSS ${f1(last)} MB`);
    }, SAMPLE_MS);
    try {
      result = await runLoad({
        base: server.base,
        seconds: SECONDS + WARMUP,
        rate: RATE,
        seed: 20261124,
        members,
        uploader,
        songs,
        queries,
        streams: STREAMS,
        out: path.join(workDir, "load.json"),
      });
    } finally {
      clearInterval(sampler);
    }
    rss.push({ t: (performance.now() - loadStart) / 1000, mb: rssMb(server.pid) });
  } finally {
    await server.stop();
  }

  if (!result) throw new Error("no load result");
  // Times from the end of the warm-up (negative: during it).
  const all: Sample[] = result.samples.map(([t, ms, status, k]) => ({
    t: t - WARMUP * 1000,
    ms,
    status,
    kind: result.kinds[k] ?? "?",
  }));
  const samples = all.filter((s) => s.t >= 0);
  const checks: Check[] = [];
  const fivexx = all.filter((s) => s.status >= 500).length;
  const unanswered = all.filter((s) => s.status === 0).length;
  checks.push({ name: "no 5xx answers (warm-up included)", ok: fivexx === 0, detail: `${fivexx} of ${all.length}` });
  checks.push({ name: "every request answered (no timeout, no reset)", ok: unanswered === 0, detail: `${unanswered}` });
  const achieved = result.sent / result.elapsed;
  checks.push({
    name: "the generator kept the rate (>= 95%, nothing skipped)",
    ok: achieved >= 0.95 * RATE && result.skipped === 0,
    detail: `${f1(achieved)} requests/s of ${RATE}, ${result.skipped} skipped`,
  });
  const parts = thirds(samples, SECONDS);
  const [first, , last] = parts;
  checks.push({
    name: "p99 stable: last third <= 1.5x the first (25 ms floor)",
    ok: p99Stable(first.p99, last.p99),
    detail: `first ${f1(first.p99)} ms, last ${f1(last.p99)} ms`,
  });
  const half = WARMUP + SECONDS / 2;
  const secondHalf = rss.filter((r) => r.t >= half).map((r) => ({ x: r.t / 60, y: r.mb }));
  const fit = linearFit(secondHalf);
  const bound = rssSlopeBound(SECONDS / 2 / 60, half, fit);
  checks.push({
    name: `memory flat: RSS slope over the second half <= ${f1(bound)} MB/min`,
    ok: fit.slope <= bound,
    detail: `${f1(fit.slope)} ± ${f1(fit.se)} MB/min over ${secondHalf.length} samples (residual sd ${f1(fit.sd)} MB)`,
  });

  const sql = readOnlySql(path.join(dataDir, "unheard.db"));
  try {
    checks.push(...(await soakInvariants(sql, serverStartedAt)));
    checks.push(await checkWrites(sql, "favorite", result.favorites));
    checks.push(await checkWrites(sql, "vote", result.votes));
  } finally {
    await sql.close();
  }

  // Figures.
  const byKind = new Map<string, Sample[]>();
  for (const s of all) {
    const list = byKind.get(s.kind) ?? [];
    list.push(s);
    byKind.set(s.kind, list);
  }
  const statusLine = (list: Sample[]) => {
    const counts = new Map<number, number>();
    for (const s of list) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => a[0] - b[0])
      .map(([k, n]) => `${k || "none"}:${n}`)
      .join(" ");
  };
  const lines = [
    "",
    `Soak: ${all.length.toLocaleString("en")} requests in ${f1(result.elapsed)} s (${f1(achieved)}/s, target ${RATE}/s), ${samples.length.toLocaleString("en")} of them in the ${SECONDS} s measured after ${WARMUP} s of warm-up; server ${server.label}`,
    "",
    "kind (all) count     p50 ms    p99 ms   statuses",
    ...[...byKind]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([kind, list]) => {
        const ms = list.map((s) => s.ms);
        return `${kind.padEnd(10)} ${String(list.length).padStart(6)} ${f1(quantile(ms, 0.5)).padStart(10)} ${f1(quantile(ms, 0.99)).padStart(9)}   ${statusLine(list)}`;
      }),
    "",
    "third (measured) requests   p50 ms    p99 ms",
    ...parts.map(
      (p) =>
        `${`${f0(p.from)}-${f0(p.to)} s`.padEnd(16)} ${String(p.count).padStart(8)} ${f1(p.p50).padStart(8)} ${f1(p.p99).padStart(9)}`,
    ),
    "",
    `RSS: start ${f1(rss[0]?.mb ?? 0)} MB, after the warm-up ${f1(rss.find((r) => r.t >= WARMUP)?.mb ?? 0)} MB, end ${f1(rss.at(-1)?.mb ?? 0)} MB, min ${f1(Math.min(...rss.map((r) => r.mb)))} MB, max ${f1(Math.max(...rss.map((r) => r.mb)))} MB over ${rss.length} samples every ${SAMPLE_MS / 1000} s; second-half slope ${f1(fit.slope)} MB/min (bound ${f1(bound)})`,
    `5xx: ${fivexx}; uploads ${result.uploads.length}; favourite pairs touched ${result.favorites.length}, vote pairs ${result.votes.length}; live events received ${result.events}`,
    ...(result.errors.length ? ["first errors:", ...result.errors.map((e) => `  ${e.slice(0, 300)}`)] : []),
    "",
    ...checkLines(checks),
  ];
  console.log(lines.join("\n"));
  const serverOutput = server.output().trim();
  if (serverOutput)
    console.log(
      `\nserver output (warnings and errors, last lines):\n${serverOutput.split("\n").slice(-30).join("\n")}`,
    );
  if (process.env.SOAK_KEEP === "1") console.log(`\nkept ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

await main();

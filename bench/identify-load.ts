/**
 * Identify under load (issue 39, part 4): `node --import tsx bench/identify-load.ts [--hours 10] [--seconds 60]
 * [--rate 100] [--connections 10] [--think 2000] [--clips 120] [--seed 39] [--out FILE]`.
 *
 * The server runs in a process of its own on bench:recognition-scale's database of `--hours` (cached; its 20
 * members sign in with passwords), the browsing load (autocannon at `--rate` requests a second: home feeds, song
 * pages, search) in a second and the identifying members in a third (bench/lib/identify-browse.ts,
 * identify-members.ts). Phases of `--seconds` each: browsing alone; one member identifying alone, one clip at a
 * time (the baseline of an answer's parts); 20 members identifying at once and then in a loop (a pause of `--think`
 * ms after each answer, a 503's or 429's Retry-After waited out); and both together. Clips: 5-10 s of the real
 * tracks, plain, sped up x1.15, slowed x0.85, pitch -2 semitones and unknown music in turn, white noise at 10 dB
 * SNR, 16-bit PCM at 11,025 Hz to POST /api/identify/pcm. Prints a Markdown section: browsing p50/p99 with and
 * without the identify load, identify p50/p95, the 503s, and the wait in the audio pool's queue; `--out FILE` puts
 * it in FILE, replacing the section of the same heading.
 *
 * The hourly Identify limits (30 per member, 60 per address: every member here shares 127.0.0.1) are raised to
 * 100,000 through IDENTIFY_PER_MEMBER_HOUR and IDENTIFY_PER_ADDRESS_HOUR, so they are still counted (a database
 * write each) but never refuse. Not part of `npm test`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { CACHE_ROOT } from "./lib/api-db.js";
import { rssSampler, startServer } from "./lib/api-processes.js";
import type { BrowseConfig, BrowseResult } from "./lib/identify-browse.js";
import type { ClipFile, IdentifyRecord, MembersConfig } from "./lib/identify-members.js";
import { writeSection } from "./lib/results-section.js";
import { loadCorpus } from "./lib/scale-corpus.js";
import { MEMBER_PASSWORD, MEMBERS, memberEmail, prepareScaleDb } from "./lib/scale-db.js";
import { loadCorpusInvariant } from "./lib/scale-invariant.js";
import { CLIP_KINDS, makeClips, percentile } from "./lib/scale-load.js";
import { ROOT, signIn } from "./lib/web-server.js";

const { values } = parseArgs({
  options: {
    hours: { type: "string", default: "10" },
    seconds: { type: "string", default: "60" },
    rate: { type: "string", default: "100" },
    connections: { type: "string", default: "10" },
    think: { type: "string", default: "2000" },
    clips: { type: "string", default: "120" },
    seed: { type: "string", default: "39" },
    out: { type: "string" },
  },
});
const hours = Number(values.hours);
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const connections = Number(values.connections);
const thinkMs = Number(values.think);
const clipCount = Number(values.clips);
const seed = Number(values.seed);
const LIMIT = "100000";
const SNR_DB = 10;
const TOLERANCE_SECONDS = 0.5;
/** Clips of the one-member baseline. */
const ALONE_CLIPS = 40;
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

const corpus = await loadCorpus(CACHE_ROOT, log);
const invariant = await loadCorpusInvariant(CACHE_ROOT, corpus, log);
const db = await prepareScaleDb({ cacheRoot: CACHE_ROOT, hours, corpus, invariant, fresh: false, keepOld: true, log });
log(`database: ${db.file} (${db.reused ? "cached" : "built"})`);

// Song pages and search words from the catalogue.
const read = new SQLite(db.file, { readonly: true });
const songIds = (read.prepare("select id from song order by id").all() as { id: string }[]).map((r) => r.id);
read.close();
const queries = [
  ...corpus.tracks.slice(0, 20).map((t) => t.name.replace(/\.ogg$/, "").replace(/_/g, " ")),
  "background 12",
  "backgrund",
  "battel",
  "theme",
  "northern",
];

// The identify clips: 5-10 s, the kinds in turn, written as PCM files for the members' process.
const tmp = mkdtempSync(path.join(os.tmpdir(), "unheard-identify-load-"));
const kinds = ["plain", "sped-up", "slowed", "pitch-down", "unknown"].map(
  (id) => CLIP_KINDS.find((k) => k.id === id) as (typeof CLIP_KINDS)[number],
);
const clips: ClipFile[] = [];
for (let i = 0; i < clipCount; i++) {
  const kind = kinds[i % kinds.length] as (typeof kinds)[number];
  const length = 5 + (i % 6);
  const [clip] = makeClips(
    corpus,
    [kind],
    { perKind: kind.unknown ? 0 : 1, unknown: kind.unknown ? 1 : 0, warmup: 0 },
    length,
    SNR_DB,
    seed * 1000 + i,
  );
  if (!clip) throw new Error("no clip");
  const file = path.join(tmp, `${i}.pcm`);
  writeFileSync(file, clip.body);
  clips.push({
    file,
    rate: 11_025,
    seconds: length,
    kind: kind.id,
    songId: kind.unknown ? null : (db.trackSongIds[clip.track] ?? null),
    startSeconds: clip.startSeconds,
  });
}
log(`${clips.length} clips in ${tmp}`);

/** Run a bench/lib script in a process of its own with a config file; resolves with what it wrote. */
function child<T>(script: string, config: unknown, name: string): Promise<T> {
  const configFile = path.join(tmp, `${name}.config.json`);
  const outFile = path.join(tmp, `${name}.out.json`);
  writeFileSync(configFile, JSON.stringify(config));
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", script, configFile, outFile], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
    });
    p.on("error", reject);
    p.on("exit", (code) => {
      if (code !== 0) reject(new Error(`${script} exited with ${code}`));
      else resolve(JSON.parse(readFileSync(outFile, "utf8")) as T);
    });
  });
}

// The limits raised for the run (the server reads them from its environment, spawnServer passes ours on).
process.env.IDENTIFY_PER_MEMBER_HOUR = LIMIT;
process.env.IDENTIFY_PER_ADDRESS_HOUR = LIMIT;
const server = await startServer({ dataDir: db.dir, startTimeoutMs: 600_000 });
const rss = rssSampler(server.pid);
type Phase = { name: string; load: string; browse?: BrowseResult; identify?: IdentifyRecord[]; rssMb: number };
const phases: Phase[] = [];
try {
  log(`server: ${server.label} at ${server.base}`);
  const cookies: string[] = [];
  for (let i = 0; i < MEMBERS; i++) cookies.push(await signIn(server.base, memberEmail(i), MEMBER_PASSWORD));
  const browseConfig = (s: number, name: string): BrowseConfig => ({
    base: server.base,
    seconds: s,
    connections,
    rate,
    songIds,
    queries,
    cookies,
    seed: seed + name.length,
  });
  const members = (mode: MembersConfig["mode"], list: ClipFile[]): MembersConfig => ({
    base: server.base,
    cookies,
    clips: list,
    mode,
    seconds,
    thinkMs,
    toleranceSeconds: TOLERANCE_SECONDS,
  });
  const phase = async (name: string, run: () => Promise<Omit<Phase, "name" | "load" | "rssMb">>) => {
    const load = loadavg();
    log(`${name} (load average ${load})`);
    rss.reset();
    const r = await run();
    phases.push({ name, load, rssMb: rss.peak(), ...r });
  };
  // Warm-up: the search index, the page caches, the pool's thread.
  await child<IdentifyRecord[]>("bench/lib/identify-members.ts", members("alone", clips.slice(0, 5)), "warm-identify");
  await child<BrowseResult>("bench/lib/identify-browse.ts", browseConfig(5, "warm"), "warm-browse");

  await phase("browsing alone", async () => ({
    browse: await child<BrowseResult>("bench/lib/identify-browse.ts", browseConfig(seconds, "alone"), "browse-alone"),
  }));
  await phase("one member identifying alone, one clip at a time", async () => ({
    identify: await child<IdentifyRecord[]>(
      "bench/lib/identify-members.ts",
      members("alone", clips.slice(0, ALONE_CLIPS)),
      "identify-alone",
    ),
  }));
  await phase(`${MEMBERS} members identifying, no browsing`, async () => ({
    identify: await child<IdentifyRecord[]>(
      "bench/lib/identify-members.ts",
      members("together", clips),
      "identify-together",
    ),
  }));
  await phase(`${MEMBERS} members identifying beside browsing`, async () => {
    const [browse, identify] = await Promise.all([
      child<BrowseResult>("bench/lib/identify-browse.ts", browseConfig(seconds, "with"), "browse-with"),
      child<IdentifyRecord[]>("bench/lib/identify-members.ts", members("together", clips), "identify-with"),
    ]);
    return { browse, identify };
  });
} catch (err) {
  log(`--- server output ---\n${server.output()}`);
  throw err;
} finally {
  rss.stop();
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "-");
const f0 = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en") : "-");
const p = (xs: number[], q: number) => percentile(xs, q);
const alone = phases.find((x) => x.name.startsWith("one member"))?.identify ?? [];
/** The first step's own time: the fingerprint part of the one-member baseline (no queue ahead of it). */
const fingerprintAlone = p(
  alone.map((r) => r.timing?.fingerprint ?? Number.NaN),
  50,
);
const partsOf = (r: IdentifyRecord) =>
  r.timing ? r.timing.fingerprint + r.timing.lookup + r.timing.match + r.timing.invariant + r.timing.warp : Number.NaN;

const browseRow = (x: Phase) => {
  const b = x.browse as BrowseResult;
  const non2xx = Object.entries(b.statuses)
    .filter(([s]) => !s.startsWith("2"))
    .reduce((a, [, n]) => a + n, 0);
  return `| ${x.name} | ${x.load} | ${f0(b.total)} | ${f1(b.rps)} | ${f1(b.p50)} | ${f1(b.p90)} | ${f1(b.p99)} | ${f1(b.max)} | ${non2xx + b.errors + b.timeouts} |`;
};
const identifyRow = (x: Phase) => {
  const rs = x.identify as IdentifyRecord[];
  const ok = rs.filter((r) => r.status === 200);
  const busy = rs.filter((r) => r.status === 503);
  const limited = rs.filter((r) => r.status === 429);
  const first = rs.slice(0, MEMBERS).filter((r) => r.status === 503).length;
  const waits = ok.map((r) => Math.max(0, (r.timing?.fingerprint ?? Number.NaN) - fingerprintAlone));
  const known = ok.filter((r) => r.kind !== "unknown");
  const unknown = ok.filter((r) => r.kind === "unknown");
  const count = (of: IdentifyRecord[], o: IdentifyRecord["outcome"]) => of.filter((r) => r.outcome === o).length;
  const together = !x.name.startsWith("one member");
  return `| ${x.name} | ${x.load} | ${rs.length} | ${ok.length} | ${busy.length}${together ? ` (${first} of the first ${MEMBERS}; ${new Set(busy.map((r) => r.member)).size} members)` : ""} | ${limited.length} | ${f0(
    p(
      ok.map((r) => r.totalMs),
      50,
    ),
  )} / ${f0(
    p(
      ok.map((r) => r.totalMs),
      95,
    ),
  )} / ${f0(Math.max(...ok.map((r) => r.totalMs)))} | ${f0(p(waits, 50))} / ${f0(p(waits, 95))} | ${f0(p(ok.map(partsOf), 50))} / ${f0(p(ok.map(partsOf), 95))} | ${count(known, "found")} / ${count(known, "wrong")} / ${count(known, "none")} | ${count(unknown, "none")} / ${unknown.length - count(unknown, "none")} |`;
};
const kindRow = (id: string) => {
  const cell = (x: Phase | undefined) => {
    const ok = (x?.identify ?? []).filter((r) => r.status === 200 && r.kind === id).map((r) => r.totalMs);
    return ok.length ? `${ok.length}: ${f0(p(ok, 50))} / ${f0(p(ok, 95))}` : "-";
  };
  return `| ${kinds.find((k) => k.id === id)?.label} | ${phases
    .filter((x) => x.identify)
    .map(cell)
    .join(" | ")} |`;
};
const workers = Math.max(1, Math.min(4, os.availableParallelism() - 1));
// Wrong answers, once per clip: the right song at another offset (a repeated passage) or another song.
const wrong = new Map<number, IdentifyRecord>();
for (const x of phases) for (const r of x.identify ?? []) if (r.outcome === "wrong") wrong.set(r.clip, r);
const wrongText = [...wrong.values()]
  .map((r) => {
    const c = clips[r.clip] as ClipFile;
    const name = corpus.tracks[db.trackSongIds.indexOf(c.songId)]?.name ?? c.songId;
    return `clip ${r.clip} (${r.kind}, ${name}): ${r.offsetError === null ? "another song" : `the right song ${f1(r.offsetError)} s off`}`;
  })
  .join("; ");
const markdown = [
  `## Identify under load: ${MEMBERS} members beside browsing, ${hours.toLocaleString("en")} h catalogue`,
  "",
  `Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim()}, Node ${process.version}; load average (1, 5, 15 min) at the start of each phase in the tables. Server: ${server.label}, SQLite, its own process, AUDIO_WORKERS default (${workers} thread on this machine), AUDIO_QUEUE default (8): a recognition's first step is refused with 503 + Retry-After 30 s when the running and waiting interactive steps reach ${workers + 8}. Identify limits raised to ${Number(LIMIT).toLocaleString("en")} an hour per member and per address (IDENTIFY_PER_MEMBER_HOUR, IDENTIFY_PER_ADDRESS_HOUR; still counted). Peak server RSS over the phases: ${f0(Math.max(...phases.map((x) => x.rssMb)))} MB.`,
  "",
  `### Browsing (autocannon in its own process, ${rate} requests/s over ${connections} connections, ${seconds} s, latency corrected for coordinated omission)`,
  "",
  "Home feed newest 25%, trending 15%, song pages 45%, search 15%; half the requests signed in as one of the members.",
  "",
  "| phase | load average | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors and non-2xx |",
  "|---|---|---|---|---|---|---|---|---|",
  ...phases.filter((x) => x.browse).map(browseRow),
  "",
  `### Identify (POST /api/identify/pcm from its own process; ${seconds} s per phase with ${MEMBERS} members; ${thinkMs / 1000} s to read an answer; a 503 waited out for its Retry-After)`,
  "",
  `Queue wait: the first step's Server-Timing (fingerprint: the wait for the pool's thread plus the fingerprint) less the one-member baseline's p50 fingerprint (${f1(fingerprintAlone)} ms). Later steps wait behind other recognitions' steps too (FIFO on the one thread); "server parts" is the sum of Server-Timing's parts, so its growth over the baseline is the whole wait.`,
  "",
  "| phase | load average | requests | 200 | 503 busy | 429 | p50 / p95 / max ms (200s) | queue wait p50 / p95 ms | server parts p50 / p95 ms | known music: found / wrong / no match | unknown music: no match / false positive |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
  ...phases.filter((x) => x.identify).map(identifyRow),
  "",
  "Answers' p50 / p95 ms per kind of clip (count: p50 / p95):",
  "",
  `| kind | ${phases
    .filter((x) => x.identify)
    .map((x) => x.name)
    .join(" | ")} |`,
  `|---|${phases
    .filter((x) => x.identify)
    .map(() => "---")
    .join("|")}|`,
  ...kinds.map((k) => kindRow(k.id)),
  "",
  wrong.size ? `Wrong answers (each clip once): ${wrongText}.` : "No wrong answer.",
  "",
  `Clips: ${clips.length} of 5-10 s (plain, sped up x1.15, slowed x0.85, pitch -2 st, unknown music in turn), white noise at ${SNR_DB} dB SNR, 16-bit PCM at 11,025 Hz; found: the right song within ${TOLERANCE_SECONDS} s of the clip's start. The catalogue: bench:recognition-scale's ${hours} h database (the wesnoth tracks and synthesized filler, both indexes).`,
].join("\n");
console.log(markdown);
if (values.out) {
  writeSection(values.out, "bench:identify-load", markdown);
  log(`written to ${values.out}`);
}

/**
 * Recognition at scale (issue 39, part 4): `node --import tsx bench/recognition-scale.ts [--hours 100] [--clips 40]
 * [--unknown 40] [--kinds plain,sped-up,...] [--warmup 10] [--seed 17] [--send-rate 11025] [--fresh] [--keep-old]
 * [--build-only] [--profile DIR] [--out FILE]`.
 *
 * Builds (or reuses) a SQLite database with the server's schema holding the real wesnoth-1.16-music catalogue (less
 * a few held-out tracks) and synthesized songs up to `--hours` of audio, in both the plain index and the invariant
 * index (bench/lib/scale-db.ts, scale-invariant.ts), cached in $TMPDIR/unheard-bench-cache; starts the server on it
 * and a bare Fastify hello-world, each in a process of its own; signs in as a super admin and sends 5 s noisy clips
 * one at a time to POST /api/recognition/pcm from this process, in a seeded random order: `--clips` of each kind
 * (plain, sped up x1.15, slowed x0.85, pitch -2 and +2 semitones, slowed x0.85 + reverb) and `--unknown` of the
 * held-out tracks (unknown music, whose right answer is no match). Prints a Markdown section: issue 39's targets
 * beside the measured figures, the answers and latency per kind and per part (the Server-Timing header), which pass
 * named each song, the store per hour of audio of both indexes, the build's time and memory, and the hello-world
 * baseline. `--send-rate` resamples the clips to another PCM rate (the page sends 11,025 Hz). `--out FILE` puts the
 * section in FILE, replacing the one of the same heading (size and rate). `--profile DIR` runs the server with
 * `--cpu-prof` and leaves the profile in DIR. Not part of `npm test`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CACHE_ROOT } from "./lib/api-db.js";
import { rssMb, startHelloWorld, startServer } from "./lib/api-processes.js";
import { writeSection } from "./lib/results-section.js";
import { CLIP_RATE, catalogueOf, loadCorpus } from "./lib/scale-corpus.js";
import { prepareScaleDb, SUPER_EMAIL, SUPER_PASSWORD } from "./lib/scale-db.js";
import { loadCorpusInvariant } from "./lib/scale-invariant.js";
import { helloAll, kindsOf, makeClips, recognizeAll } from "./lib/scale-load.js";
import { report } from "./lib/scale-report.js";
import { signIn } from "./lib/web-server.js";

const { values } = parseArgs({
  options: {
    hours: { type: "string", default: "100" },
    clips: { type: "string", default: "40" },
    unknown: { type: "string", default: "40" },
    kinds: { type: "string", default: "" },
    warmup: { type: "string", default: "10" },
    "send-rate": { type: "string", default: String(CLIP_RATE) },
    seed: { type: "string", default: "17" },
    fresh: { type: "boolean", default: false },
    "keep-old": { type: "boolean", default: false },
    "build-only": { type: "boolean", default: false },
    profile: { type: "string" },
    out: { type: "string" },
  },
});

const runStart = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");
const loadAtStart = loadavg();
const hours = Number(values.hours);
const perKind = Number(values.clips);
const unknownCount = Number(values.unknown);
const warmup = Number(values.warmup);
const seed = Number(values.seed);
const kinds = kindsOf(values.kinds ?? "");
// The recognition page sends 11,025 Hz; another rate shows what the clip's band does to the invariant pass.
const sendRate = Number(values["send-rate"]);
if (!(hours > 0) || !(perKind >= 0) || !(unknownCount >= 0) || !(warmup >= 0))
  throw new Error("--hours, --clips, --unknown and --warmup are numbers");
const SNR_DB = 10;
const CLIP_SECONDS = 5;
const TOLERANCE_SECONDS = 0.5;

log("corpus: wesnoth-1.16-music, fingerprinted with the default preset");
const corpus = await loadCorpus(CACHE_ROOT, log);
log(
  `  ${corpus.tracks.length} tracks, ${(corpus.seconds / 3600).toFixed(2)} h, ${corpus.rows.toLocaleString("en")} rows${corpus.reused ? " (cached)" : ` in ${corpus.buildSeconds.toFixed(0)} s`}`,
);
const invariant = await loadCorpusInvariant(CACHE_ROOT, corpus, log);
log(
  `  invariant entries: ${invariant.tracks.reduce((a, t) => a + t.count, 0).toLocaleString("en")}${invariant.reused ? " (cached)" : ` in ${invariant.buildSeconds.toFixed(0)} s`}`,
);
const catalogue = catalogueOf(corpus);
if (hours * 3600 < catalogue.seconds)
  throw new Error(`--hours must be at least the catalogue's ${(catalogue.seconds / 3600).toFixed(2)} h`);
log(`database: ${hours} h of audio`);
const db = await prepareScaleDb({
  cacheRoot: CACHE_ROOT,
  hours,
  corpus,
  invariant,
  fresh: values.fresh ?? false,
  keepOld: values["keep-old"] ?? false,
  log,
});
log(
  `  ${db.reused ? "reused" : "built"} ${db.file}: ${db.rows.toLocaleString("en")} plain rows, ${db.invariant.rows.toLocaleString("en")} invariant rows, ${(db.fileBytes / 2 ** 20).toFixed(0)} MB, built in ${db.build.seconds.toFixed(0)} s (peak RSS ${db.build.peakRssMb.toFixed(0)} MB)`,
);
if (values["build-only"]) process.exit(0);

log(`clips: ${perKind} of each of ${kinds.filter((k) => !k.unknown).length} known kinds, ${unknownCount} unknown`);
const clips = makeClips(
  corpus,
  kinds,
  { perKind, unknown: kinds.some((k) => k.unknown) ? unknownCount : 0, warmup },
  CLIP_SECONDS,
  SNR_DB,
  seed,
  sendRate,
);
if (clips.length === warmup) throw new Error("no queries to send");
const hello = await startHelloWorld();
const server = await startServer({
  dataDir: db.dir,
  nodeFlags: values.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(values.profile)}`] : [],
  // Migrations a cached database lacks run before the server listens: on 320 M rows an index rebuild takes minutes.
  startTimeoutMs: 1_800_000,
});
let markdown: string;
try {
  log(`server: ${server.label} at ${server.base}; hello-world at ${hello.base}`);
  const cookie = await signIn(server.base, SUPER_EMAIL, SUPER_PASSWORD);
  const loadBefore = loadavg();
  log(`${clips.length - warmup} queries (+${warmup} warm-up), one at a time; load average ${loadBefore}`);
  const samples = await recognizeAll({
    base: server.base,
    cookie,
    clips,
    warmup,
    trackSongIds: db.trackSongIds,
    toleranceSeconds: TOLERANCE_SECONDS,
    log,
  });
  const serverRssMb = rssMb(server.pid);
  const loadAfter = loadavg();
  const helloMs = await helloAll(hello.base, Math.max(200, samples.length), 20);
  markdown = report({
    db,
    samples,
    kinds,
    hello: helloMs,
    server: server.label,
    serverRssMb,
    warmup,
    trackNames: corpus.tracks.map((t) => t.name),
    toleranceSeconds: TOLERANCE_SECONDS,
    snrDb: SNR_DB,
    clipSeconds: CLIP_SECONDS,
    sendRate,
    loadAtStart,
    loadBefore,
    loadAfter,
    runSeconds: (performance.now() - runStart) / 1000,
  });
} catch (err) {
  log(`--- server output ---\n${server.output()}`);
  throw err;
} finally {
  await server.stop();
  await hello.stop();
}
console.log(markdown);
if (values.out) {
  writeSection(values.out, "bench:recognition-scale", markdown);
  log(`written to ${values.out}`);
}

/**
 * Recognition at scale (issue 17, part 4; issue 30's targets): `node --import tsx bench/recognition-scale.ts
 * [--hours 1000] [--queries 200] [--warped 50] [--unknown 50] [--warmup 10] [--seed 17] [--fresh] [--keep-old]
 * [--build-only] [--profile DIR] [--out FILE]`.
 *
 * Builds (or reuses) a SQLite database with the server's schema holding the real wesnoth-1.16-music catalogue (less
 * a few held-out tracks) and synthesized songs up to `--hours` of audio (bench/lib/scale-db.ts), cached in
 * $TMPDIR/unheard-bench-cache; starts the server on it and a bare Fastify hello-world, each in a process of its own;
 * signs in as a super admin and sends 5 s noisy clips one at a time to POST /api/recognition/pcm from this process,
 * in a seeded random order: `--queries` plain clips of catalogue tracks, `--warped` of them sped up x1.10 or slowed
 * x0.90, and `--unknown` of the held-out tracks (unknown music, whose right answer is no match). Prints a Markdown
 * section: index size per hour of audio, latency end to end per kind and per part (the Server-Timing header), the
 * answers, the hello-world baseline, and issue 30's targets at the run's size.
 * `--profile DIR` runs the server with `--cpu-prof` and leaves the profile in DIR. Not part of `npm test`.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CACHE_ROOT } from "./lib/api-db.js";
import { rssMb, startHelloWorld, startServer } from "./lib/api-processes.js";
import { catalogueOf, loadCorpus } from "./lib/scale-corpus.js";
import { prepareScaleDb, SUPER_EMAIL, SUPER_PASSWORD } from "./lib/scale-db.js";
import { helloAll, makeClips, recognizeAll } from "./lib/scale-load.js";
import { report } from "./lib/scale-report.js";
import { signIn } from "./lib/web-server.js";

const { values } = parseArgs({
  options: {
    hours: { type: "string", default: "1000" },
    queries: { type: "string", default: "200" },
    warped: { type: "string", default: "50" },
    unknown: { type: "string", default: "50" },
    warmup: { type: "string", default: "10" },
    seed: { type: "string", default: "17" },
    fresh: { type: "boolean", default: false },
    "keep-old": { type: "boolean", default: false },
    "build-only": { type: "boolean", default: false },
    profile: { type: "string" },
    out: { type: "string" },
  },
});

const log = (line: string) => process.stderr.write(`${line}\n`);
const hours = Number(values.hours);
const queries = Number(values.queries);
const warmup = Number(values.warmup);
const seed = Number(values.seed);
const counts = { plain: queries, warped: Number(values.warped), unknown: Number(values.unknown) };
if (!(hours > 0) || !(queries >= 0) || !(counts.warped >= 0) || !(counts.unknown >= 0) || !(warmup >= 0))
  throw new Error("--hours, --queries, --warped, --unknown and --warmup are numbers");
if (queries + counts.warped + counts.unknown === 0) throw new Error("no queries to send");
const SNR_DB = 10;
const TOLERANCE_SECONDS = 0.5;

log("corpus: wesnoth-1.16-music, fingerprinted with the default preset");
const corpus = await loadCorpus(CACHE_ROOT, log);
log(
  `  ${corpus.tracks.length} tracks, ${(corpus.seconds / 3600).toFixed(2)} h, ${corpus.rows.toLocaleString("en")} rows${corpus.reused ? " (cached)" : ` in ${corpus.buildSeconds.toFixed(0)} s`}`,
);
const catalogue = catalogueOf(corpus);
if (hours * 3600 < catalogue.seconds)
  throw new Error(`--hours must be at least the catalogue's ${(catalogue.seconds / 3600).toFixed(2)} h`);
log(`database: ${hours} h of audio`);
const db = await prepareScaleDb({
  cacheRoot: CACHE_ROOT,
  hours,
  corpus,
  fresh: values.fresh ?? false,
  keepOld: values["keep-old"] ?? false,
  log,
});
log(
  `  ${db.reused ? "reused" : "built"} ${db.file}: ${db.rows.toLocaleString("en")} rows, ${(db.fileBytes / 2 ** 20).toFixed(0)} MB, built in ${db.build.seconds.toFixed(0)} s`,
);
if (values["build-only"]) process.exit(0);

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
  const clips = makeClips(corpus, counts, warmup, 5, SNR_DB, seed);
  log(
    `${queries} plain + ${counts.warped} warped + ${counts.unknown} unknown queries (+${warmup} warm-up), one at a time`,
  );
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
  const helloMs = await helloAll(hello.base, Math.max(200, samples.length), 20);
  markdown = report({
    db,
    samples,
    hello: helloMs,
    server: server.label,
    serverRssMb,
    counts,
    warmup,
    trackNames: corpus.tracks.map((t) => t.name),
    toleranceSeconds: TOLERANCE_SECONDS,
    snrDb: SNR_DB,
  });
} catch (err) {
  log(`--- server output ---\n${server.output()}`);
  throw err;
} finally {
  await server.stop();
  await hello.stop();
}
console.log(markdown);
if (values.out) writeFileSync(values.out, `${markdown}\n`);

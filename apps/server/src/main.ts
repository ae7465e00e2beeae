import { existsSync } from "node:fs";
import { buildApp } from "./app.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { migrateToLatest } from "./db/migrate.js";
import { openConfiguredDatabase } from "./db/open.js";
import { sweepDataDir } from "./lib/audio-sweep.js";
import { boundOpenRequests } from "./lib/open-requests.js";
import { setDemoAudioStatus } from "./seed/demo-audio-status.js";
import { fillDemoAudio, type SeedResult, seedDemo } from "./seed/seed.js";
import {
  chooseLogFormat,
  demoAudioProgressText,
  isVerbose,
  type LogRecord,
  migrationsText,
  progressLine,
  progressSteps,
  readyBanner,
  terminalLogStream,
} from "./terminal.js";

/** How long a shutdown lets requests being answered finish, after background work has stopped. */
const REQUEST_GRACE_MS = 3_000;

/** Read config, open and migrate the database, seed a demo on an empty one, listen; close cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // A .env file in the working directory is read if present; real environment variables win.
  if (existsSync(".env")) process.loadEnvFile(".env");
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`unheard: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // People at a terminal get one readable line per record, written synchronously so they interleave with the
  // progress line in order; pipes and files get JSON lines.
  const pretty = chooseLogFormat(config.logFormat, process.stdout.isTTY) === "pretty";
  const color = pretty && Boolean(process.stdout.isTTY);
  const verbose = isVerbose(config.logLevel);
  const line = progressLine(process.stdout);
  // Until the server listens, a stop (Ctrl-C) leaves at once: the demo catalogue is written in one transaction, so
  // nothing half-done stays (its stored audio files are swept at the next start). The line it ends is a clean one.
  let shutdown: ((signal: NodeJS.Signals) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown) return shutdown(signal);
    line.clear();
    const msg = "stopped before the server was ready; the next start picks up from there";
    process.stdout.write(pretty ? `${msg}\n` : `${JSON.stringify({ level: 30, time: Date.now(), signal, msg })}\n`);
    process.exit(0);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // While the background demo audio takes the cores, slow answers are expected (the banner says so).
  let demoAudioRunning = false;
  const database = openConfiguredDatabase(config);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp({
    config,
    database,
    background: true,
    logger: pretty
      ? {
          level: config.logLevel,
          stream: terminalLogStream({
            out: process.stdout,
            verbose,
            color,
            demote: (rec: LogRecord) => demoAudioRunning && rec.msg === "slow request",
            before: () => line.clear(),
          }),
        }
      : { level: config.logLevel },
  });
  // Facts for log collectors ride along in JSON; a person reads the message alone.
  const note = (fields: object, msg: string) => (pretty ? app.log.info(msg) : app.log.info(fields, msg));
  if (applied.length > 0) note({ applied }, migrationsText(applied));
  // What a killed process left half-done: an audio file whose song row never committed, upload temp files.
  const swept = await sweepDataDir(database, config.dataDir, { localAudio: !config.s3 });
  if (swept.orphanAudio.length > 0 || swept.tempFiles > 0)
    note(
      { orphanAudio: swept.orphanAudio, tempFiles: swept.tempFiles },
      `removed ${swept.orphanAudio.length} audio files without a song and ${swept.tempFiles} temp files left by an earlier stop`,
    );

  let seeded: SeedResult | undefined;
  if (config.seedDemo) {
    const started = performance.now();
    seeded = await seedDemo({
      database,
      config,
      onlyIfEmpty: true,
      // The 16 demo songs (and whatever the audio cache holds) before listening; the rest right after.
      audio: "background",
      onProgress: (p) => {
        if (!pretty) return;
        if (p.phase === "audio")
          line.update(
            `  Generating demo audio ${p.done}/${p.total}${p.cached ? ` (${p.cached} from the cache)` : ""}…`,
          );
        else if (p.phase === "data") line.update(`  Writing the demo catalogue: ${p.songs} songs…`);
      },
    });
    line.clear();
    if (seeded) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      note(
        {
          songs: seeded.created,
          withAudio: seeded.songs,
          audioRendered: seeded.rendered,
          audioPending: seeded.audioPending,
          seconds: Number(seconds),
        },
        `demo catalogue seeded: ${seeded.created} songs in ${seconds} s` +
          (seeded.audioPending > 0 ? ` (audio for ${seeded.audioPending} more follows in the background)` : ""),
      );
      // Pages opened at once say the audio is coming, before the background run has counted its songs.
      if (seeded.audioPending > 0) setDemoAudioStatus(database, { done: 0, total: seeded.audioPending });
    }
  }

  // Registered after buildApp's hooks, so its grace starts once event streams, imports and jobs have stopped.
  const openRequests = boundOpenRequests(app, REQUEST_GRACE_MS);
  // Named in the timeout's message, so a hung shutdown says what it was waiting for.
  let phase = "ending event streams, imports and background jobs";
  app.addHook("preClose", async () => {
    phase = "finishing in-flight requests";
  });

  const background = new AbortController();
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    background.abort(new Error(`shutting down (${signal})`));
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const started = performance.now();
    const timer = setTimeout(() => {
      app.log.error(
        { phase, requests: openRequests.describe(), resources: process.getActiveResourcesInfo() },
        `shutdown timed out while ${phase}; exiting`,
      );
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      // preClose hooks end the event streams; then in-flight requests finish and the database closes.
      await app.close();
      phase = "closing the database";
      await database.close();
      const seconds = Number(((performance.now() - started) / 1000).toFixed(2));
      note({ seconds }, `stopped in ${seconds} s`);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "error during shutdown");
      process.exit(1);
    }
  };
  shutdown = (signal) => void stop(signal);

  // Fastify would log "Server listening at" each address it bound (127.0.0.1, or every interface for 0.0.0.0):
  // the lines below name the one address to open instead, the one e-mailed links use (PUBLIC_URL).
  const level = app.log.level;
  if (["info", "debug", "trace"].includes(level)) app.log.level = "warn";
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
  // The search index is built from the database in slices, beside the first requests (decision 024).
  const indexing = performance.now();
  app.warmSearch().then(
    () => app.log.debug({ seconds: (performance.now() - indexing) / 1000 }, "search index built"),
    (err: unknown) => app.log.warn({ err }, "search index not built; the first search builds it"),
  );
  // performance.now() counts from the start of this process (with `npm start`, the build check included).
  const startup = performance.now() / 1000;
  if (pretty) {
    process.stdout.write(
      `${readyBanner({
        url: config.publicUrl,
        seconds: startup,
        database: database.dialect,
        ...(seeded ? { accounts: seeded.accounts } : {}),
        ...(seeded?.audioPending
          ? {
              note: `Audio for ${seeded.audioPending} more songs is being generated in the background; pages answer slower until it is done.`,
            }
          : {}),
        color,
      })}\n`,
    );
  } else {
    app.log.info(
      {
        url: config.publicUrl,
        database: database.dialect,
        readySeconds: Number(startup.toFixed(2)),
        ...(seeded ? { demoAccounts: seeded.accounts } : {}),
      },
      `Unheard is running at ${config.publicUrl} (database: ${database.dialect}, ready in ${startup.toFixed(2)} s)`,
    );
  }
  if (config.seedDemo) {
    demoAudioRunning = true;
    void finishDemoAudio(note, app.log, config, database, background.signal).finally(() => {
      demoAudioRunning = false;
    });
  }
}

/** Render and attach the demo audio still missing (first start, or a start stopped before it finished). */
async function finishDemoAudio(
  note: (fields: object, msg: string) => void,
  log: { error(obj: object, msg: string): void },
  config: Config,
  database: ReturnType<typeof openConfiguredDatabase>,
  signal: AbortSignal,
): Promise<void> {
  const started = performance.now();
  let worthALine: ((done: number) => boolean) | undefined;
  try {
    const filled = await fillDemoAudio({
      database,
      config,
      signal,
      // A line to start, one at each tenth (a few seconds apart at least), one at the end: the same lines on a
      // terminal and in JSON logs, so a log file hears of it a dozen times at most.
      onProgress: ({ done, total }) => {
        if (!worthALine) {
          worthALine = progressSteps(total);
          note({ songs: total }, `generating audio for ${total} more demo songs in the background`);
        } else if (worthALine(done))
          note({ done, total }, demoAudioProgressText(done, total, performance.now() - started));
      },
    });
    if (filled > 0) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      note({ songs: filled, seconds: Number(seconds) }, `demo audio ready: ${filled} more songs in ${seconds} s`);
    }
  } catch (err) {
    if (!signal.aborted) log.error({ err }, "demo audio failed");
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});

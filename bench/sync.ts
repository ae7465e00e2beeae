// npm run bench:sync (issue 37, item 5): a linked tracker sheet kept in sync, timed end to end over HTTP. This
// process serves a 2,000-row tracker in the community layout (lib/sync-sheet.ts) as CSV and as XLSX from a local
// HTTP server with ETags; the production server runs in its own process over a fresh SQLite data dir (no demo
// catalogue, its job loop running) and is driven by an admin account through the API, as the admin page does:
//   - first sync: link the sheet, wait for the dry run, approve it, wait for the batch to finish;
//   - unchanged sync: "Sync now" answered 304 by ETag, with ETags off (the same bytes), and with only the
//     "Last updated" row changed; every table of the SQLite file (opened read-only here) read whole before and
//     after, so the rows written are counted, not assumed;
//   - a 10-row change (availability and quality upgrades, 2 new songs, a rename, a removal, a notes edit) with
//     followers following the artist: time to applied, changelog entries, notifications per follower;
//   - the job loop's poll: a sync job written into the database from outside, as another instance would.
// Each step runs --runs times (default 3; the first sync on as many artists per format); completion is seen by
// reading the SQLite file every 5 ms (no load on the server), then confirmed through the API. The server's peak
// RSS is sampled throughout. Results: bench/results/sync.md (lib/sync-results.ts).
//   --runs=N          repetitions of each step (default 3)      --formats=csv,xlsx   (default both)
//   --songs=N         song rows in the tracker (default 2000)   --eras=N             (default 40)
//   --followers=N     accounts following the artist (default 3)
//   --profile=DIR     run the server with --cpu-prof (profiles left in DIR) and show each phase's busiest functions
//   --keep            keep the server's data dir (its SQLite file) for a look afterwards
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppNotification, ChangePage, ImportBatch, ImportBatchDetail, TrackerLink } from "@unheard/shared";
import { type Child, rssMb, rssSampler } from "./lib/api-processes.js";
import { diffSnapshots, hashChanged, insertSyncJob, openReadOnly, type ReadOnlyDb } from "./lib/sync-db.js";
import { monoMicros, profileByPhase, profileLines, type Windows } from "./lib/sync-profile.js";
import { medianRange, resultFile } from "./lib/sync-report.js";
import {
  type Check,
  checksOf,
  codeState,
  type FirstSync,
  type Format,
  type FormatResult,
  report,
  type Settings,
  type SyncTimes,
  summarizeLog,
  type TenRow,
  type Unchanged,
  type Unwoken,
} from "./lib/sync-results.js";
import {
  type Client,
  followerEmail,
  prepareDataDir,
  ROOT,
  type ServedSheet,
  type SheetHost,
  SYNC_ADMIN,
  signedIn,
  startSheetHost,
  startSyncServer,
} from "./lib/sync-servers.js";
import {
  makeTracker,
  songCount,
  type Tracker,
  tenRowChange,
  touchUpdated,
  trackerCsv,
  trackerXlsx,
} from "./lib/sync-sheet.js";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const runs = Number(arg("runs") ?? 3);
const formats = (arg("formats") ?? "csv,xlsx").split(",") as Format[];
const songs = Number(arg("songs") ?? 2000);
const eraCount = Number(arg("eras") ?? 40);
const followerCount = Number(arg("followers") ?? 3);
const profileDir = arg("profile");
const keep = process.argv.includes("--keep");
const settings: Settings = { runs, songs, eraCount, followerCount };

const CONTENT_TYPES: Record<Format, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};
const render = (t: Tracker, format: Format) => (format === "csv" ? trackerCsv(t) : trackerXlsx(t));
const SYNC_JOB = "tracker.sync";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
/** A time of this process's clock as milliseconds since the epoch (to set against the server's timestamps). */
const epoch = (t: number) => performance.timeOrigin + t;

type Ctx = {
  base: string;
  admin: Client;
  fans: Client[];
  ro: ReadOnlyDb;
  host: SheetHost;
  rss: ReturnType<typeof rssSampler>;
  /** The moments each phase was timed, on the profiles' clock (for --profile). */
  windows: Windows;
};

/** Note that `phase` ran from `start` until now (monotonic microseconds). */
function timed(ctx: Ctx, phase: string, start: number): void {
  ctx.windows.set(phase, [...(ctx.windows.get(phase) ?? []), [start, monoMicros()]]);
}

/** Wait until `probe` gives a value, checked every 5 ms (reads of the SQLite file: no load on the server). */
async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 180_000): Promise<T> {
  const deadline = now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(5);
  }
}

type LinkState = {
  last_checked_at: string | null;
  last_changed_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
};
const linkState = (ro: ReadOnlyDb, id: string) =>
  ro.row<LinkState>(
    "select last_checked_at, last_changed_at, last_error, last_error_at from tracker_link where id = ?",
    id,
  ) as LinkState;

/** A sync job of the link still queued or running ("Sync now" is folded into it until it is marked done). */
const jobPending = (ro: ReadOnlyDb, linkId: string) =>
  ro.value<number>(
    "select count(*) from job where kind = ? and payload = ? and status in ('queued', 'running')",
    SYNC_JOB,
    JSON.stringify({ linkId }),
  ) !== 0;

// ---------------------------------------------------------------------------------------------------------
// First sync: link, dry run, approve, apply.

async function firstSync(ctx: Ctx, t: Tracker, sheet: ServedSheet, format: Format): Promise<FirstSync> {
  const { admin, ro } = ctx;
  const F = format.toUpperCase();
  ctx.rss.reset();
  const arrivals = sheet.arrivals.length;
  let mark = monoMicros();
  const t0 = now();
  const link = (await admin(
    "POST",
    "/api/tracker-links",
    { artist: t.artist, url: sheet.url, asVerified: true },
    201,
  )) as TrackerLink;
  const batchId = await until("the first sync's dry run", () => {
    const state = linkState(ro, link.id);
    if (state.last_error) throw new Error(`The first sync of ${t.artist} failed: ${state.last_error}`);
    return ro.value<string>("select id from import_batch where link_id = ? and status = 'awaiting_approval'", link.id);
  });
  const tDry = now();
  timed(ctx, `${F} first sync: link → dry run ready`, mark);
  const seen = (await admin("GET", `/api/tracker-links/${link.id}`)) as TrackerLink;
  if (seen.pendingBatch?.id !== batchId) throw new Error(`GET /api/tracker-links/${link.id} shows no pending batch`);
  const detail = (await admin("GET", `/api/imports/${batchId}`)) as ImportBatchDetail;

  mark = monoMicros();
  const t1 = now();
  await admin("POST", `/api/imports/${batchId}/approve`);
  const tAnswered = now();
  const status = await until("the approved first sync to finish", () => {
    const s = ro.value<string>("select status from import_batch where id = ?", batchId);
    return s && s !== "running" ? s : undefined;
  });
  const tDone = now();
  timed(ctx, `${F} first sync: approve → batch done`, mark);
  if (status !== "done") throw new Error(`The approved first sync of ${t.artist} ended ${status}`);
  // The link records the check once the batch is done: wait for it, so the next sync starts from a quiet link.
  await until("the first sync's check to be recorded", () => linkState(ro, link.id).last_changed_at);
  const batch = (await admin("GET", `/api/imports/${batchId}`)) as ImportBatch;
  return {
    artist: t.artist,
    linkId: link.id,
    artistId: link.artist.id,
    dryMs: tDry - t0,
    applyMs: tDone - t1,
    approveAnswerMs: tAnswered - t1,
    queueMs: (sheet.arrivals[arrivals] ?? Number.NaN) - t0,
    preview: detail.preview,
    batch,
    erasStored: ro.value<number>("select count(*) from era where artist_id = ?", link.artist.id) ?? 0,
    rssMb: ctx.rss.peak(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// "Sync now" and what it took.

async function syncNow(
  ctx: Ctx,
  phase: string,
  linkId: string,
  sheet: ServedSheet,
  changes: boolean,
): Promise<SyncTimes> {
  const { admin, ro } = ctx;
  const before = linkState(ro, linkId);
  const arrivals = sheet.arrivals.length;
  const notModified = sheet.notModified;
  const mark = monoMicros();
  const t0 = now();
  await admin("POST", `/api/tracker-links/${linkId}/sync`);
  const tAnswered = now();
  const after = await until("the sync", () => {
    const state = linkState(ro, linkId);
    if (state.last_error_at !== before.last_error_at) throw new Error(`The sync failed: ${state.last_error}`);
    const moved = changes
      ? state.last_changed_at !== before.last_changed_at
      : state.last_checked_at !== before.last_checked_at;
    return moved ? state : undefined;
  });
  const tDone = now();
  timed(ctx, phase, mark);
  await until("the sync job to be marked done", () => !jobPending(ro, linkId));
  const tJob = now();
  const fetchedAt = sheet.arrivals[arrivals] ?? Number.NaN;
  const jobCreated = ro.value<string>(
    "select created_at from job where kind = ? and payload = ? order by created_at desc limit 1",
    SYNC_JOB,
    JSON.stringify({ linkId }),
  );
  return {
    ms: tDone - t0,
    stampMs: Date.parse(after.last_checked_at ?? "") - epoch(t0),
    answerMs: tAnswered - t0,
    queueMs: fetchedAt - t0,
    jobToFetchMs: epoch(fetchedAt) - Date.parse(jobCreated ?? ""),
    jobDoneMs: tJob - t0,
    status: sheet.notModified > notModified ? "304" : "200",
  };
}

/** "Sync now" `runs` times per kind of unchanged sheet; the database read whole before and after each kind. */
async function unchangedSyncs(ctx: Ctx, t: Tracker, format: Format, linkId: string, sheet: ServedSheet) {
  const kinds: Unchanged[] = [];
  let rssMb = 0;
  let before = ctx.ro.snapshot();
  const measure = async (name: string, prepare: () => void) => {
    ctx.rss.reset();
    const times: SyncTimes[] = [];
    for (let i = 0; i < runs; i++) {
      prepare();
      times.push(await syncNow(ctx, `${format.toUpperCase()} unchanged sync: ${name}`, linkId, sheet, false));
    }
    rssMb = Math.max(rssMb, ctx.rss.peak());
    const after = ctx.ro.snapshot();
    kinds.push({ name, times, diffs: diffSnapshots(before, after), hashChanged: hashChanged(before, after) });
    before = after;
  };
  await measure("304 by ETag", () => {});
  sheet.etags = false;
  await measure("ETags off, same bytes", () => {});
  sheet.etags = true;
  let round = 0;
  await measure("only Last updated changed", () => {
    touchUpdated(t, round++);
    sheet.body = render(t, format);
  });
  return { kinds, rssMb };
}

// ---------------------------------------------------------------------------------------------------------
// A 10-row change with followers.

async function tenRowChanges(ctx: Ctx, t: Tracker, format: Format, first: FirstSync, sheet: ServedSheet) {
  const out: TenRow[] = [];
  const used = new Set<number>();
  let before = ctx.ro.snapshot();
  for (let round = 1; round <= runs; round++) {
    ctx.rss.reset();
    const edits = tenRowChange(t, round, used);
    sheet.body = render(t, format);
    const since = Date.now();
    const times = await syncNow(ctx, `${format.toUpperCase()} 10-row change`, first.linkId, sheet, true);
    const after = ctx.ro.snapshot();
    const diffs = diffSnapshots(before, after);
    before = after;
    const link = (await ctx.admin("GET", `/api/tracker-links/${first.linkId}`)) as TrackerLink;
    const page = (await ctx.admin("GET", `/api/artists/${first.artistId}/changes?limit=100`)) as ChangePage;
    const changes = page.items
      .filter((c) => Date.parse(c.createdAt) >= since - 1)
      .map((c) => ({ kind: c.kind, summary: c.summary }));
    const notes = await Promise.all(
      ctx.fans.map(async (fan) => {
        const mine = ((await fan("GET", "/api/notifications?limit=50")) as { items: AppNotification[] }).items.filter(
          (n: AppNotification) => Date.parse(n.createdAt) >= since - 1,
        );
        const told = mine.filter((n) => n.kind === "tracker_update");
        return {
          total: mine.length,
          trackerUpdates: told.length,
          kinds: mine.map((n) => n.kind),
          summary: String(told[0]?.payload.summary ?? ""),
        };
      }),
    );
    out.push({ ...times, edits, batch: link.lastBatch, changes, notes, diffs, rssMb: ctx.rss.peak() });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The job loop's poll: a sync queued by another process (as another instance would) wakes nothing here.

/**
 * A sync job written straight into the database, `runs` times, each a step further into the loop's 2 s sleep
 * (which starts as the previous sync's job ends): what the poll adds when nothing wakes the loop.
 */
async function enqueuedElsewhere(ctx: Ctx, file: string, r: FormatResult): Promise<Unwoken[]> {
  const out: Unwoken[] = [];
  // A woken sync first: the loop's sleep then starts as its job ends, the moment the delays count from.
  await syncNow(ctx, "job loop: a woken sync before", r.edited.linkId, r.sheet, false);
  for (let i = 0; i < runs; i++) {
    const delayMs = Math.round((i * 2000) / runs);
    await sleep(delayMs);
    const before = linkState(ctx.ro, r.edited.linkId);
    const arrivals = r.sheet.arrivals.length;
    const t0 = now();
    insertSyncJob(file, r.edited.linkId, `benchsyncjob${String(i).padStart(4, "0")}`);
    await until("the sync queued from outside", () => {
      const state = linkState(ctx.ro, r.edited.linkId);
      return state.last_checked_at !== before.last_checked_at;
    });
    const tDone = now();
    await until("the sync job to be marked done", () => !jobPending(ctx.ro, r.edited.linkId));
    out.push({ fetchMs: (r.sheet.arrivals[arrivals] ?? Number.NaN) - t0, doneMs: tDone - t0, delayMs });
  }
  return out;
}

async function runFormat(ctx: Ctx, format: Format, seedBase: number, artists: Set<string>): Promise<FormatResult> {
  const first: FirstSync[] = [];
  let last: { t: Tracker; sheet: ServedSheet } | undefined;
  let seed = seedBase;
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    let t = makeTracker({ seed: seed++, songs, eras: eraCount });
    while (artists.has(t.artist)) t = makeTracker({ seed: seed++, songs, eras: eraCount });
    artists.add(t.artist);
    const body = render(t, format);
    bytes = body.length;
    const sheet = ctx.host.add(`${t.slug}.${format}`, body, CONTENT_TYPES[format]);
    process.stderr.write(`  ${format}: first sync of ${t.artist} (${songCount(t)} rows) … `);
    const result = await firstSync(ctx, t, sheet, format);
    first.push(result);
    process.stderr.write(
      `dry run ${(result.dryMs / 1000).toFixed(2)} s, apply ${(result.applyMs / 1000).toFixed(2)} s, ${result.batch.createdCount} songs\n`,
    );
    last = { t, sheet };
  }
  if (!last) throw new Error("--runs must be at least 1");
  const edited = first[first.length - 1] as FirstSync;
  for (const fan of ctx.fans) await fan("PUT", `/api/artists/${edited.artistId}/follow`);
  process.stderr.write(`  ${format}: unchanged syncs of ${edited.artist} … `);
  const { kinds, rssMb } = await unchangedSyncs(ctx, last.t, format, edited.linkId, last.sheet);
  process.stderr.write(
    `${kinds
      .map(
        (k) =>
          `${k.name} ${medianRange(
            k.times.map((x) => x.ms),
            "ms",
          )}`,
      )
      .join("; ")}\n`,
  );
  process.stderr.write(`  ${format}: 10-row changes … `);
  const tenRow = await tenRowChanges(ctx, last.t, format, edited, last.sheet);
  process.stderr.write(
    `${medianRange(
      tenRow.map((x) => x.ms),
      "ms",
    )}\n`,
  );
  return {
    format,
    bytes,
    first,
    unchanged: kinds,
    unchangedRss: rssMb,
    fetches: { fetched: last.sheet.fetched, notModified: last.sheet.notModified },
    tenRow,
    edited,
    sheet: last.sheet,
  };
}

async function main(): Promise<void> {
  const started = now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const { dataDir, file } = await prepareDataDir(followerCount);
  const host = await startSheetHost();
  let server: (Child & { label: string }) | undefined;
  let ro: ReadOnlyDb | undefined;
  const results: FormatResult[] = [];
  // Each run's profiles in a directory of their own: the phases are cut from this run's files only.
  const profiles = profileDir
    ? path.resolve(profileDir, `sync-${new Date().toISOString().replace(/[:.]/g, "-")}`)
    : null;
  const windows: Windows = new Map();
  let rss: ReturnType<typeof rssSampler> | undefined;
  let md = "";
  let checks: Check[] = [];
  try {
    server = await startSyncServer({
      dataDir,
      nodeFlags: profiles ? ["--cpu-prof", `--cpu-prof-dir=${profiles}`] : [],
    });
    process.stderr.write(`server: ${server.label} (pid ${server.pid}) at ${server.base}\n`);
    rss = rssSampler(server.pid);
    const startRss = rssMb(server.pid);
    ro = openReadOnly(file);
    const admin = await signedIn(server.base, SYNC_ADMIN);
    const fans = await Promise.all(
      Array.from({ length: followerCount }, (_, i) => signedIn(server?.base ?? "", followerEmail(i))),
    );
    const ctx: Ctx = { base: server.base, admin, fans, ro, host, rss, windows };
    const artists = new Set<string>();
    const sizes: string[] = [];
    for (const [i, format] of formats.entries()) {
      const r = await runFormat(ctx, format, 37_000 + 100 * i, artists);
      results.push(r);
      sizes.push(`${format.toUpperCase()} ${(r.bytes / 1024).toFixed(0)} KB`);
    }
    process.stderr.write("  a sync queued from outside the server (the job loop's poll) … ");
    const unwoken = results[0] ? await enqueuedElsewhere(ctx, file, results[0]) : [];
    process.stderr.write(
      `${medianRange(
        unwoken.map((u) => u.fetchMs),
        "ms",
      )}\n`,
    );
    checks = checksOf(results, settings);
    const peakRss = rss.overall();
    md = report({
      settings,
      results,
      checks,
      serverLabel: server.label,
      peakRss,
      startRss,
      sizes: sizes.join(", "),
      load: `${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] ?? 0).toFixed(2)} at its end`,
      code: codeState(),
      unwoken,
    });
  } catch (err) {
    const output = server?.output().trim();
    if (output) process.stderr.write(`\nserver output (last lines):\n${output.split("\n").slice(-40).join("\n")}\n`);
    throw err;
  } finally {
    rss?.stop();
    ro?.close();
    await server?.stop();
    await host.close();
    if (keep) process.stderr.write(`kept the data dir ${dataDir}\n`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
  const log = server?.output().trim() ?? "";
  const total = (now() - started) / 1000;
  if (profiles)
    md += [
      "",
      "## Where the server's time went (--cpu-prof)",
      "",
      "Each phase's windows cut from the server's profiles (its main thread and the audio pool's workers): the time each thread was busy, the functions it was in (self time, ms) and the server's own functions on the stack (inclusive, ms). A profiled server runs slower than the figures above would be without it.",
      "",
      ...profileLines(profileByPhase(profiles, windows)),
      "",
      `Profiles: ${profiles} (whole-run summary: npx tsx bench/profile.ts FILE).`,
      "",
    ].join("\n");
  md += `\nWhole run: ${total.toFixed(0)} s.${log ? `\n\nServer output (warnings and errors):\n\n\`\`\`\n${summarizeLog(log)}\n\`\`\`\n` : ""}`;
  console.log(`\n${md}`);
  // Only the issue's setting, unprofiled, replaces the committed figures; other runs go to the temp dir.
  const standard =
    runs === 3 &&
    songs === 2000 &&
    eraCount === 40 &&
    formats.join(",") === "csv,xlsx" &&
    followerCount === 3 &&
    !profiles;
  const out = resultFile(
    standard,
    `sync-${formats.join("-")}-${songs}-rows-${runs}-runs${profiles ? "-profiled" : ""}`,
  );
  writeFileSync(out, md);
  console.log(`\nWrote ${out.startsWith(ROOT) ? path.relative(ROOT, out) : out}`);
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

await main();

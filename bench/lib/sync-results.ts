// bench:sync's results: what each step measured, the checks the run must pass, and the report written to
// bench/results/sync.md (the issue's targets first, then each kind of sync in detail).
import { execFileSync } from "node:child_process";
import type { ImportBatch, ImportBatchDetail } from "@unheard/shared";
import { machine } from "./api-report.js";
import { CATALOGUE_TABLES, type TableDiff, written } from "./sync-db.js";
import { bookkeepingLines, medianRange, SYNC_TARGETS, spread, table, writesTable } from "./sync-report.js";
import { ROOT, type ServedSheet } from "./sync-servers.js";
import type { Edit } from "./sync-sheet.js";

export type Format = "csv" | "xlsx";

/** The run's shape (the command line's settings). */
export type Settings = { runs: number; songs: number; eraCount: number; followerCount: number };

/** A first sync: link to dry run, approval to the batch done. */
export type FirstSync = {
  artist: string;
  linkId: string;
  artistId: string;
  dryMs: number;
  applyMs: number;
  approveAnswerMs: number;
  queueMs: number;
  preview: ImportBatchDetail["preview"];
  batch: ImportBatch;
  erasStored: number;
  rssMb: number;
};

/** One "Sync now" and what it took. */
export type SyncTimes = {
  /** Request sent to the link's lastCheckedAt (or lastChangedAt) moving, as seen in the database. */
  ms: number;
  /** The same by the server's own timestamp: its lastCheckedAt less the time the request was sent. */
  stampMs: number;
  /** The POST's answer. */
  answerMs: number;
  /** Request sent to the sheet's server being asked (the job queued, woken, claimed, the lease taken). */
  queueMs: number;
  /** The job row's created_at to the sheet's server being asked. */
  jobToFetchMs: number;
  /** Request sent to the job marked done. */
  jobDoneMs: number;
  status: "304" | "200";
};

/** The syncs of one kind of unchanged sheet, and what they wrote. */
export type Unchanged = { name: string; times: SyncTimes[]; diffs: TableDiff[]; hashChanged: string[] };

/** One 10-row change: its time, batch, changelog entries, each follower's new notifications, rows written. */
export type TenRow = SyncTimes & {
  edits: Edit[];
  batch: ImportBatch | null;
  changes: { kind: string; summary: string }[];
  notes: { total: number; trackerUpdates: number; kinds: string[]; summary: string }[];
  diffs: TableDiff[];
  rssMb: number;
};

/** A sync queued from outside the server: the job loop's poll. */
export type Unwoken = { fetchMs: number; doneMs: number; delayMs: number };

/** Everything measured on one format. */
export type FormatResult = {
  format: Format;
  bytes: number;
  first: FirstSync[];
  unchanged: Unchanged[];
  unchangedRss: number;
  fetches: { fetched: number; notModified: number };
  tenRow: TenRow[];
  edited: FirstSync;
  sheet: ServedSheet;
};

/** A check of the run, in words. */
export type Check = { name: string; ok: boolean; detail: string };

/** What the run must show: every row read and created, nothing written by an unchanged sheet, the 10-row change told. */
export function checksOf(results: FormatResult[], settings: Settings): Check[] {
  const { songs, eraCount } = settings;
  const checks: Check[] = [];
  const catalogue = (diffs: TableDiff[]) => CATALOGUE_TABLES.reduce((n, table) => n + written(diffs, table), 0);
  for (const r of results) {
    const F = r.format.toUpperCase();
    for (const f of r.first) {
      const p = f.preview;
      checks.push({
        name: `${F} first sync of ${f.artist}: every row a new song, every era read`,
        ok:
          f.batch.createdCount === songs &&
          p?.summary.create === songs &&
          p.summary.skip === 0 &&
          p.eras.length === eraCount &&
          f.erasStored === eraCount,
        detail: `dry run ${p?.summary.rows} rows, ${p?.summary.create} to create, ${p?.summary.skip} skipped, ${p?.eras.length} eras; applied ${f.batch.createdCount} songs, ${f.erasStored} eras stored`,
      });
    }
    for (const k of r.unchanged) {
      const n = catalogue(k.diffs);
      const hashes = k.hashChanged.filter((t) => CATALOGUE_TABLES.includes(t));
      checks.push({
        name: `${F} unchanged sync (${k.name}): 0 catalogue rows written`,
        ok: n === 0 && hashes.length === 0,
        detail: `${n} rows written in the catalogue over ${k.times.length} syncs; their hashes ${hashes.length ? `changed: ${hashes.join(", ")}` : "all the same before and after"}`,
      });
    }
    const etag = r.unchanged.find((k) => k.name === "304 by ETag");
    checks.push({
      name: `${F} unchanged sync answered 304 when ETags are on`,
      ok: Boolean(etag?.times.every((x) => x.status === "304")),
      detail: etag?.times.map((x) => x.status).join(", ") ?? "",
    });
    for (const [i, x] of r.tenRow.entries()) {
      const b = x.batch;
      const kinds = x.changes.map((c) => c.kind);
      const count = (k: string) => kinds.filter((v) => v === k).length;
      checks.push({
        name: `${F} 10-row change ${i + 1}: applied by itself (2 new, 1 renamed, 1 removed, 6 updated)`,
        ok:
          b?.status === "done" &&
          b.createdCount === 2 &&
          b.renamedCount === 1 &&
          b.removedCount === 1 &&
          b.updatedCount >= 6,
        detail: b
          ? `${b.status}: ${b.createdCount} created, ${b.updatedCount} updated, ${b.renamedCount} renamed, ${b.removedCount} removed`
          : "no batch",
      });
      checks.push({
        name: `${F} 10-row change ${i + 1}: 10 changelog entries (2 new, 5 upgraded, 1 renamed, 1 removed, 1 changed)`,
        ok:
          x.changes.length === 10 &&
          count("new") === 2 &&
          count("upgraded") === 5 &&
          count("renamed") === 1 &&
          count("removed") === 1 &&
          count("changed") === 1,
        detail: `${x.changes.length} entries: ${kindCounts(kinds)}`,
      });
      checks.push({
        name: `${F} 10-row change ${i + 1}: exactly one notification per follower`,
        ok: x.notes.every((n) => n.total === 1 && n.trackerUpdates === 1),
        detail: x.notes.map((n) => `${n.total} (${n.kinds.join(", ") || "none"})`).join("; "),
      });
    }
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------------------
// The report.

const ms = (xs: number[]) => medianRange(xs, "ms");
const sec = (xs: number[]) => medianRange(xs, "s");
const KIND_ORDER = ["new", "upgraded", "changed", "renamed", "removed", "returned"];

/** "2 new, 5 upgraded, 1 changed, …" in a fixed order. */
const kindCounts = (kinds: string[]) =>
  [...new Set(kinds)]
    .sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b))
    .map((k) => `${kinds.filter((v) => v === k).length} ${k}`)
    .join(", ");

/** The runs' values, once with "each of N runs" when they are all the same. */
const perRun = (values: string[]) =>
  new Set(values).size === 1 && values.length > 1 ? `${values[0]} (each of ${values.length} runs)` : values.join("; ");

/** The results file: the targets table, then each kind of sync in detail, the job loop and the checks. */
export function report(opts: {
  settings: Settings;
  results: FormatResult[];
  checks: Check[];
  serverLabel: string;
  peakRss: number;
  startRss: number;
  sizes: string;
  load: string;
  code: string;
  unwoken: Unwoken[];
}): string {
  const { results, checks } = opts;
  const { runs, songs, eraCount, followerCount } = opts.settings;
  const col = (f: (r: FormatResult) => string) => results.map(f);
  const F = results.map((r) => r.format.toUpperCase());
  const catalogueWrites = (diffs: TableDiff[]) => CATALOGUE_TABLES.reduce((n, t) => n + written(diffs, t), 0);
  /** "pass" when every run met the target, else how many missed it. */
  const verdict = (oks: boolean[]) => {
    const missed = oks.filter((ok) => !ok).length;
    return missed === 0 ? "pass" : `**MISS** (${missed} of ${oks.length} runs)`;
  };
  const unchangedKinds = ["304 by ETag", "ETags off, same bytes", "only Last updated changed"];
  const targets = table(
    ["measure", "target", ...F, "result"],
    [
      [
        `First sync of ${songs.toLocaleString("en")} rows: dry run + apply`,
        `≤ ${SYNC_TARGETS.firstSyncSec} s`,
        ...col((r) => sec(r.first.map((f) => f.dryMs + f.applyMs))),
        verdict(results.flatMap((r) => r.first.map((f) => f.dryMs + f.applyMs <= SYNC_TARGETS.firstSyncSec * 1000))),
      ],
      ...unchangedKinds.map((name) => {
        const kinds = results.flatMap((r) => r.unchanged.filter((x) => x.name === name));
        return [
          `Unchanged sync: ${name}`,
          "≤ 1 s, 0 rows written",
          ...col((r) => {
            const k = r.unchanged.find((x) => x.name === name);
            return k ? `${ms(k.times.map((x) => x.ms))}, ${catalogueWrites(k.diffs)} rows` : "–";
          }),
          verdict(
            kinds.flatMap((k) =>
              k.times.map((x) => x.ms <= SYNC_TARGETS.unchangedMs && catalogueWrites(k.diffs) === 0),
            ),
          ),
        ];
      }),
      [
        "10-row change: applied",
        "≤ 2 s, changelog entries, one notification per follower",
        ...col(
          (r) =>
            `${ms(r.tenRow.map((x) => x.ms))}, ${spread(r.tenRow.map((x) => x.changes.length)).median} entries, ${r.tenRow.every((x) => x.notes.every((n) => n.total === 1 && n.trackerUpdates === 1)) ? `1 notification to each of ${followerCount} followers` : "**not one notification per follower**"}`,
        ),
        verdict(
          results.flatMap((r) =>
            r.tenRow.map(
              (x) =>
                x.ms <= SYNC_TARGETS.tenRowMs &&
                x.changes.length === 10 &&
                x.notes.every((n) => n.total === 1 && n.trackerUpdates === 1),
            ),
          ),
        ),
      ],
      [
        "Server peak RSS (whole run)",
        "–",
        `${opts.peakRss.toFixed(0)} MB (${opts.startRss.toFixed(0)} MB once started)`,
        ...F.slice(1).map(() => ""),
        "",
      ],
    ],
  );
  const first = table(
    ["step", ...F],
    [
      ["link → dry run ready", ...col((r) => sec(r.first.map((f) => f.dryMs)))],
      ["↳ link request → sheet fetched (queue)", ...col((r) => ms(r.first.map((f) => f.queueMs)))],
      ["approve → batch done", ...col((r) => sec(r.first.map((f) => f.applyMs)))],
      ["↳ approve request answered", ...col((r) => ms(r.first.map((f) => f.approveAnswerMs)))],
      ["total (dry run + apply)", ...col((r) => sec(r.first.map((f) => f.dryMs + f.applyMs)))],
      ["peak RSS during the first syncs", ...col((r) => `${Math.max(...r.first.map((f) => f.rssMb)).toFixed(0)} MB`)],
      [
        "dry run: rows / to create / skipped / with warnings",
        ...col((r) => {
          const p = r.first[0]?.preview?.summary;
          return p ? `${p.rows} / ${p.create} / ${p.skip} / ${p.warnings}` : "–";
        }),
      ],
      [
        "eras read (stated counts, spans)",
        ...col((r) => `${r.first[0]?.preview?.eras.length ?? 0} (stored ${r.first[0]?.erasStored ?? 0})`),
      ],
      [
        "marks the legend does not know",
        ...col(
          (r) =>
            r.first[0]?.preview?.marks
              .filter((m) => m.tag === null)
              .map((m) => `${m.mark} (${m.rows} rows)`)
              .join(", ") || "none",
        ),
      ],
      ["sheet size", ...col((r) => `${(r.bytes / 1024).toFixed(0)} KB`)],
    ],
  );
  const unchangedTimes = table(
    ["unchanged sync", ...F.flatMap((f) => [`${f} seen`, `${f} server stamp`, `${f} fetch`])],
    ["304 by ETag", "ETags off, same bytes", "only Last updated changed"].map((name) => [
      name,
      ...results.flatMap((r) => {
        const k = r.unchanged.find((x) => x.name === name);
        if (!k) return ["–", "–", "–"];
        return [
          ms(k.times.map((x) => x.ms)),
          ms(k.times.map((x) => x.stampMs)),
          k.times.map((x) => x.status).join(" "),
        ];
      }),
    ]),
  );
  const unchangedWrites = results.flatMap((r) => [
    `${r.format.toUpperCase()}, ${runs} syncs of each kind on ${r.edited.artist}'s link:`,
    "",
    writesTable(r.unchanged.map((k) => ({ name: k.name, diffs: k.diffs }))),
    "",
    "Bookkeeping the same syncs wrote (outside the catalogue):",
    "",
    ...r.unchanged.flatMap((k) => [`- ${k.name}: ${bookkeepingLines(k.diffs).join("; ") || "nothing"}`]),
    "",
  ]);
  const ten = table(
    ["10-row change", ...F],
    [
      ["request → applied (lastChangedAt moved)", ...col((r) => ms(r.tenRow.map((x) => x.ms)))],
      ["↳ by the server's lastCheckedAt stamp", ...col((r) => ms(r.tenRow.map((x) => x.stampMs)))],
      ["↳ request → sheet fetched (queue)", ...col((r) => ms(r.tenRow.map((x) => x.queueMs)))],
      [
        "batch",
        ...col((r) =>
          perRun(
            r.tenRow.map((x) =>
              x.batch
                ? `${x.batch.status}: ${x.batch.createdCount} created, ${x.batch.updatedCount} updated, ${x.batch.renamedCount} renamed, ${x.batch.removedCount} removed`
                : "none",
            ),
          ),
        ),
      ],
      [
        "changelog entries (GET /api/artists/:id/changes)",
        ...col((r) => perRun(r.tenRow.map((x) => `${x.changes.length} (${kindCounts(x.changes.map((c) => c.kind))})`))),
      ],
      [
        `notifications per follower (${followerCount} followers, GET /api/notifications)`,
        ...col((r) => perRun(r.tenRow.map((x) => x.notes.map((n) => n.total).join(" / ")))),
      ],
      ["notification text", ...col((r) => `“${r.tenRow[0]?.notes[0]?.summary ?? ""}”`)],
      [
        "rows written per change in the catalogue",
        ...col((r) => r.tenRow.map((x) => catalogueWrites(x.diffs)).join("; ")),
      ],
      ["peak RSS", ...col((r) => `${Math.max(...r.tenRow.map((x) => x.rssMb)).toFixed(0)} MB`)],
    ],
  );
  const tenWrites = results.flatMap((r) => [
    `${r.format.toUpperCase()}: rows written by the first 10-row change, per table (the edits: ${r.tenRow[0]?.edits.map((e) => `${e.kind} “${e.row}”`).join(", ")}):`,
    "",
    writesTable([{ name: "10-row change", diffs: r.tenRow[0]?.diffs ?? [] }]),
    "",
    `Columns the updated rows changed: ${
      (r.tenRow[0]?.diffs ?? [])
        .filter((d) => d.updated > 0 && !bookkeepingLines([d]).length)
        .map((d) => `\`${d.table}\` (${d.columns.join(", ")})`)
        .join("; ") || "none"
    }.`,
    "",
    `Bookkeeping: ${bookkeepingLines(r.tenRow[0]?.diffs ?? []).join("; ") || "nothing"}`,
    "",
  ]);
  const all = (r: FormatResult) => [...r.unchanged.flatMap((k) => k.times), ...r.tenRow];
  const loop = table(
    ["path", ...F],
    [
      ["link created → sheet fetched", ...col((r) => ms(r.first.map((f) => f.queueMs)))],
      ["“Sync now” sent → sheet fetched", ...col((r) => ms(all(r).map((x) => x.queueMs)))],
      ["job row created → sheet fetched", ...col((r) => ms(all(r).map((x) => x.jobToFetchMs)))],
      ["“Sync now” answered", ...col((r) => ms(all(r).map((x) => x.answerMs)))],
      ["“Sync now” sent → job marked done", ...col((r) => ms(all(r).map((x) => x.jobDoneMs)))],
    ],
  );
  return [
    "# bench:sync on SQLite",
    "",
    `- Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `- Machine: ${machine()}; load average (1 min) ${opts.load} (other work on the machine moves every figure here)`,
    `- Code: ${opts.code}`,
    `- Server: \`${opts.serverLabel}\` in its own process (NODE_ENV=production, SEED_DEMO=false: no demo catalogue, job loop running, SHEET_FETCH_ALLOW_HTTP=true and SHEET_FETCH_ALLOW_NETWORKS=127.0.0.1/32), fresh SQLite data dir; a super admin and ${followerCount} followers written into it before it started, signed in through POST /api/auth/login`,
    `- Sheet: ${songs.toLocaleString("en")} song rows in ${eraCount} eras, generated from a seed (\`bench/lib/sync-sheet.ts\`, packages/shared's seededRandom): title, announcement ("Last updated") and notice rows above the header; an era header row per era (statistics in the Era cell, name, story, span) and blank Era cells under it; medal and other marks (one the legend does not know), features, producers, [V1]/[V2] pairs, partial dates, one or two links per cell. ${opts.sizes}. Served from this process by a local HTTP server with ETags; the XLSX is a workbook with Unreleased, Updates and Info tabs, "Link" cells with the URL behind them and full dates as date cells.`,
    `- Runs: ${runs} of each step. The first sync runs on ${runs} artists per format, one after another in the same server (the catalogue grows by ${songs.toLocaleString("en")} songs each time); the unchanged syncs and the 10-row changes run on the last artist's link, followed by ${followerCount} accounts. Figures are median (range).`,
    "- Timing: from the request sent by the admin's client to the state the admin waits for (the dry run stored, the batch done, the link's lastCheckedAt or lastChangedAt moved), seen by reading the SQLite file read-only every 5 ms (no load on the server), then confirmed through the API. \"Server stamp\" is the link's own lastCheckedAt less the time the request was sent.",
    "",
    "## Against the issue's targets",
    "",
    targets,
    "",
    "## First sync",
    "",
    first,
    "",
    "## Unchanged sync",
    "",
    unchangedTimes,
    "",
    `Rows written, counted by reading every table of the SQLite file (read-only) before and after each kind's ${runs} syncs, each row compared by its rowid (each table's SHA-256 compared too): **n** (+inserted ~updated −deleted).`,
    "",
    ...unchangedWrites,
    "## A 10-row change",
    "",
    "Each run changes 10 rows not changed before: snippet → full (×2, one also to CDQ), partial or tagged → full, full → OG file with lossless, a quality upgrade (HQ or LQ → CDQ), 2 new songs, a rename (the rest of the row unchanged), a removal and a notes edit. The era header rows' statistics follow the songs, as editors keep them, so the eras of the changed rows change too.",
    "",
    ten,
    "",
    ...tenWrites,
    "## The job loop",
    "",
    'The loop polls the job table every 2 s unless woken; "Sync now" and linking enqueue in the server\'s process, which wakes it. What the queue added, per path (all syncs of the run):',
    "",
    loop,
    "",
    `Not woken: a sync job written into the database by another process (as a second instance would enqueue it), ${opts.unwoken.length} times, ${opts.unwoken.map((u) => `${u.delayMs} ms`).join(", ")} after the previous sync's job ended (so at moments spread over the loop's 2 s sleep), on ${results[0]?.edited.artist ?? "the first"}'s link (answered 304): written → sheet fetched ${ms(opts.unwoken.map((u) => u.fetchMs))}, → lastCheckedAt moved ${ms(opts.unwoken.map((u) => u.doneMs))}. That is the poll's cost; in one instance every enqueue (link, "Sync now", the schedule's tick) wakes the loop and the poll adds nothing measurable.`,
    "",
    "## Checks",
    "",
    ...checks.map((c) => `- ${c.ok ? "ok" : "**FAIL**"} ${c.name}: ${c.detail}`),
    "",
  ].join("\n");
}

/** The commit measured, and how many server and shared files differ from it (work in progress is measured too). */
export function codeState(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    const dirty = git("status", "--porcelain", "--", "apps/server/src", "packages/shared/src")
      .split("\n")
      .filter(Boolean).length;
    return `commit ${head}${dirty ? ` with ${dirty} uncommitted server or shared files (the tree as it was)` : ", clean"}`;
  } catch {
    return "unknown (no git)";
  }
}

/** The server's warnings, "slow request" lines counted per route, the rest as they are (last 30 lines). */
export function summarizeLog(text: string): string {
  const slow = new Map<string, number>();
  const other: string[] = [];
  for (const line of text.split("\n")) {
    const m = /"url":"([^"?]+)[^"]*".*"msg":"slow request"/.exec(line);
    if (m) {
      const route = (m[1] ?? "").replace(/\/[a-z0-9]{16}(?=\/|$)/g, "/:id");
      slow.set(route, (slow.get(route) ?? 0) + 1);
    } else if (line.trim()) other.push(line);
  }
  return [...[...slow].map(([route, n]) => `${n} answers slower than 1 s on ${route}`), ...other.slice(-30)].join("\n");
}

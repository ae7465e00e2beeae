import { createHash } from "node:crypto";
import {
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportPreview,
  type SheetReading,
  SYNC_LIMITS,
  SYNC_MESSAGES,
  type TrackerLink,
  type trackerLinkInputSchema,
  type trackerLinkPatchSchema,
} from "@unheard/shared";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { newId } from "../../lib/ids.js";
import type { JobQueue } from "../../lib/jobs.js";
import {
  fetchSheet,
  normaliseSheetUrl,
  SheetFetchError,
  type SheetFetchPolicy,
  type SheetFetchResult,
} from "../../lib/sheet-fetch.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { ApplyContext } from "../imports/batch-apply.js";
import { previewOf } from "../imports/batch-plan.js";
import type { ImportsRepo } from "../imports/imports.repo.js";
import type { ImportsService, SheetReader } from "../imports/imports.service.js";
import { SheetError, type SheetFile } from "../imports/sheet-read.js";
import type { SheetRows } from "../imports/sheet-rows.js";
import type { SongsRepo } from "../songs/songs.repo.js";
import { type LinkRow, SYNC_JOB, type SyncRepo } from "./sync.repo.js";
import { changesCatalogue, type KnownRow, planSync, type SyncPlan } from "./sync-diff.js";

/** How long one sync may hold its link (a crashed instance's hold runs out). */
const LEASE_MS = 10 * 60 * 1000;
/** A sync that found another import running tries again this soon. */
const BUSY_RETRY_MS = 60 * 1000;
/** Links claimed per scheduler tick. */
const TICK_LINKS = 20;

/** What a waiting batch keeps: the sheet as fetched and read, the validators of the fetch, the dry run shown. */
type StoredPlan = {
  file?: SheetFile;
  reading: SheetReading;
  fetched: { sha256: string; etag: string | null; lastModified: string | null };
  preview: ImportPreview;
};

const minutesFrom = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** How a link reads its sheet (the options kept with it), with the artist as the rows' default unless `forRows` is off. */
function readingOf(link: LinkRow, forRows = true): SheetReading {
  const { defaultArtist: _, ...kept } = JSON.parse(link.options) as SheetReading;
  return forRows ? { ...kept, defaultArtist: link.artist_name } : kept;
}

/** A failure in the admin's words: what the fetch or the reading said, else a generic line. */
function failureWords(err: unknown): string {
  if (err instanceof SheetFetchError || err instanceof SheetError) return err.message;
  if (err instanceof AppError) return err.message;
  return "The sync stopped with an error. The tracker keeps its last good state.";
}

/**
 * Trackers kept in step with a published sheet (issue 37, decision 030): links, the schedule, each sync's fetch,
 * plan and batch, and approvals.
 */
export function createTrackerSyncService(deps: {
  database: Database;
  repo: SyncRepo;
  importsRepo: ImportsRepo;
  imports: ImportsService;
  songs: SongsRepo;
  jobs: JobQueue;
  fetchPolicy: SheetFetchPolicy;
  readSheet: SheetReader;
  log: FastifyBaseLogger;
  /** Fetches a sheet (tests count or fail fetches through it). */
  fetch?: typeof fetchSheet;
}) {
  const { database, repo, importsRepo, imports, songs, jobs, fetchPolicy, readSheet, log } = deps;
  const fetch = deps.fetch ?? fetchSheet;

  async function toLinks(rows: LinkRow[]): Promise<TrackerLink[]> {
    const ids = rows.map((r) => r.id);
    const [queued, batches] = await Promise.all([repo.queued(ids, database.db, true), repo.batchesOf(ids)]);
    const now = nowIso();
    const out: TrackerLink[] = [];
    for (const r of rows) {
      const own = batches.filter((b) => b.link_id === r.id);
      const pending = own.find((b) => b.status === "awaiting_approval");
      const last = own.find((b) => b.status !== "awaiting_approval");
      out.push({
        id: r.id,
        artist: { id: r.artist_id, name: r.artist_name },
        sourceUrl: r.source_url,
        url: r.url,
        intervalMinutes: Number(r.interval_minutes),
        asVerified: Boolean(r.as_verified),
        reading: readingOf(r, false),
        state: r.status === "paused" ? "paused" : r.approved_at ? "active" : "awaiting_approval",
        createdAt: toIso(r.created_at),
        createdBy: r.created_by ? { id: r.created_by, username: r.creator_name ?? "deleted user" } : null,
        lastCheckedAt: toIso(r.last_checked_at),
        lastChangedAt: toIso(r.last_changed_at),
        lastError: r.last_error,
        lastErrorAt: toIso(r.last_error_at),
        failures: Number(r.failures),
        nextSyncAt: toIso(r.next_sync_at),
        syncing: queued.has(r.id) || (r.lease_until !== null && toIso(r.lease_until) > now),
        pendingBatch: pending ? await imports.batch(pending.id) : null,
        lastBatch: last ? await imports.batch(last.id) : null,
      });
    }
    return out;
  }

  async function link(id: string): Promise<TrackerLink> {
    const row = await repo.find(id);
    if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
    return (await toLinks([row]))[0] as TrackerLink;
  }

  /**
   * Queue a sync of the link unless one is waiting already. One may run meanwhile: a press of "Sync now" during a
   * sync is not lost (the queued one waits for the running one's lease).
   */
  async function enqueue(linkId: string, trx: Kysely<DB> = database.db): Promise<void> {
    if ((await repo.queued([linkId], trx)).has(linkId)) return;
    await jobs.enqueue(SYNC_JOB, { linkId }, trx);
  }

  /** The plan of a sheet against what the link remembers. */
  async function planFor(trx: Kysely<DB>, row: LinkRow, sheet: SheetRows, now: string): Promise<SyncPlan> {
    const knownRows = await importsRepo.linkRows(trx, row.id);
    const known = new Map<string, KnownRow>(
      knownRows.map((r) => [
        r.row_key,
        { songId: r.song_id, contentHash: r.content_hash, restHash: r.rest_hash, removed: Boolean(r.removed) },
      ]),
    );
    // Only songs whose rows changed, came back or left the sheet are read: an unchanged row is known by its hash.
    const hashes = new Map(sheet.rows.filter((r) => !r.skip).map((r) => [r.rowKey, r.contentHash]));
    const needed = knownRows.filter((r) => r.removed || hashes.get(r.row_key) !== r.content_hash).map((r) => r.song_id);
    const songsById = await importsRepo.songsById(trx, [...new Set(needed)]);
    const fresh = sheet.rows.filter((r) => !r.skip && !known.has(r.rowKey));
    const existing = await importsRepo.existingByTitle(trx, [...new Set(fresh.map((r) => r.titleKey))]);
    return planSync({ rows: sheet.rows, known, songs: songsById, existing, firstSync: !row.approved_at, now });
  }

  /** A good fetch, whatever it led to: the validators kept, the failure count reset. */
  async function recordCheck(id: string, fetched: StoredPlan["fetched"] | null, changed: boolean): Promise<void> {
    const now = nowIso();
    await repo.update(database.db, id, {
      last_checked_at: now,
      ...(changed ? { last_changed_at: now } : {}),
      ...(fetched ? { content_sha256: fetched.sha256, etag: fetched.etag, last_modified: fetched.lastModified } : {}),
      failures: 0,
      last_error: null,
      last_error_at: null,
    });
  }

  /** A failed sync: nothing changes but the link's error and its next try, backed off. */
  async function recordFailure(row: LinkRow, err: unknown): Promise<void> {
    const failures = Number(row.failures) + 1;
    const now = nowIso();
    const wait = Math.min(Number(row.interval_minutes) * 2 ** Math.min(failures, 10), SYNC_LIMITS.maxBackoffMinutes);
    log.warn({ linkId: row.id, failures, err: failureWords(err) }, "tracker sync failed");
    await repo.update(database.db, row.id, {
      failures,
      last_error: failureWords(err).slice(0, 500),
      last_error_at: now,
      last_checked_at: now,
      next_sync_at: minutesFrom(now, wait),
    });
  }

  /**
   * A batch of the plan for a link's sheet: waiting for approval (the first sync, or a large change), or applied
   * now. Another import running puts it off for a minute.
   */
  async function applyOrHold(
    row: LinkRow,
    sheet: SheetRows,
    file: SheetFile,
    fetched: StoredPlan["fetched"],
    fileName: string,
  ): Promise<void> {
    const now = nowIso();
    const id = newId();
    const reading = readingOf(row);
    const base = {
      id,
      createdBy: null,
      // Past batches say whose tracker a sync read ("Mara Quill: sheet.xlsx").
      fileName: `${row.artist_name}: ${fileName}`,
      sha256: fetched.sha256,
      options: { ...reading, asVerified: Boolean(row.as_verified), format: sheet.format },
      totalRows: sheet.rows.length,
      source: "sync" as const,
      linkId: row.id,
    };
    let plan: SyncPlan;
    try {
      plan = await database.tx(async (trx) => {
        const planned = await planFor(trx, row, sheet, now);
        if (!changesCatalogue(planned) && !planned.holdReason) {
          // Nothing to do but remember rows that read the same under a new hash (after an undo).
          if (planned.linkRows && planned.linkRows.upsert.length > 0)
            await importsRepo.writeLinkRows(trx, row.id, planned.linkRows);
          return planned;
        }
        if (planned.holdReason) {
          // The newest fetch replaces a plan still waiting: an admin approves what the sheet says now.
          for (const old of await repo.awaiting(trx, row.id))
            await importsRepo.updateBatch(trx, old.id, { status: "rejected", error: "Replaced by a newer fetch" });
          const stored: StoredPlan = { file, reading, fetched, preview: previewOf(fileName, sheet, planned) };
          await imports.begin(trx, { ...base, awaiting: { plan: JSON.stringify(stored), reason: planned.holdReason } });
          return planned;
        }
        await imports.begin(trx, base);
        return planned;
      });
    } catch (err) {
      if (err instanceof AppError && err.code === "conflict") {
        await repo.update(database.db, row.id, { next_sync_at: new Date(Date.now() + BUSY_RETRY_MS).toISOString() });
        return;
      }
      throw err;
    }
    if (!changesCatalogue(plan) && !plan.holdReason) {
      await recordCheck(row.id, fetched, false);
      return;
    }
    if (plan.holdReason) {
      await recordCheck(row.id, fetched, false);
      return;
    }
    await imports.execute(null, contextOf(row, id), plan, sheet.eras, fileName);
    await recordCheck(row.id, fetched, true);
  }

  const contextOf = (row: LinkRow, batchId: string, approver?: string): ApplyContext => ({
    batchId,
    submittedBy: row.created_by ?? approver ?? null,
    asVerified: Boolean(row.as_verified),
    source: "sync",
    linkId: row.id,
    defaultArtist: row.artist_name,
  });

  return {
    link,

    /** Every link, by artist name. */
    async list(): Promise<TrackerLink[]> {
      return toLinks(await repo.list());
    },

    /** Link an artist's tracker to a sheet; its first sync is queued now and waits for approval. */
    async create(viewer: Viewer, input: z.output<typeof trackerLinkInputSchema>): Promise<TrackerLink> {
      const url = normaliseSheetUrl(input.url);
      const id = newId();
      await database.tx(async (trx) => {
        const artistId = await songs.ensureArtist(trx, input.artist);
        if (await repo.byArtist(artistId, trx)) throw new AppError("conflict", SYNC_MESSAGES.artistLinked);
        const now = nowIso();
        const { artist: _, url: __, intervalMinutes, asVerified, ...reading } = input;
        await repo.insert(trx, {
          id,
          artist_id: artistId,
          source_url: input.url,
          url,
          interval_minutes: intervalMinutes,
          as_verified: asVerified,
          options: JSON.stringify(reading),
          status: "active",
          approved_at: null,
          created_by: viewer.id,
          created_at: now,
          updated_at: now,
          next_sync_at: minutesFrom(now, intervalMinutes),
        });
        await enqueue(id, trx);
        await audit(trx, viewer.id, "tracker.linked", id, { artistId, url });
      });
      return link(id);
    },

    /** Change a link's sheet, schedule or reading: the next sync reads the sheet afresh (queued now). */
    async replace(viewer: Viewer, id: string, input: z.output<typeof trackerLinkInputSchema>): Promise<TrackerLink> {
      const url = normaliseSheetUrl(input.url);
      await database.tx(async (trx) => {
        const row = await repo.find(id, trx);
        if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
        const { artist: _, url: __, intervalMinutes, asVerified, ...reading } = input;
        await repo.update(trx, id, {
          source_url: input.url,
          url,
          interval_minutes: intervalMinutes,
          as_verified: asVerified,
          options: JSON.stringify(reading),
          content_sha256: null,
          etag: null,
          last_modified: null,
          updated_at: nowIso(),
        });
        if (row.status === "active") await enqueue(id, trx);
        await audit(trx, viewer.id, "tracker.changed", id, { url });
      });
      return link(id);
    },

    /** Pause or resume a link, or change its schedule; resuming syncs now. */
    async patch(viewer: Viewer, id: string, input: z.output<typeof trackerLinkPatchSchema>): Promise<TrackerLink> {
      await database.tx(async (trx) => {
        const row = await repo.find(id, trx);
        if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
        const now = nowIso();
        await repo.update(trx, id, {
          ...(input.paused === undefined ? {} : { status: input.paused ? "paused" : "active" }),
          ...(input.intervalMinutes === undefined ? {} : { interval_minutes: input.intervalMinutes }),
          ...(input.paused === false ? { failures: 0, next_sync_at: now } : {}),
          updated_at: now,
        });
        if (input.paused === false) await enqueue(id, trx);
        await audit(trx, viewer.id, "tracker.changed", id, input);
      });
      return link(id);
    },

    /** Unlink: the songs stay as they are; a plan still waiting is rejected. */
    async remove(viewer: Viewer, id: string): Promise<void> {
      await database.tx(async (trx) => {
        const row = await repo.find(id, trx);
        if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
        for (const b of await repo.awaiting(trx, id))
          await importsRepo.updateBatch(trx, b.id, { status: "rejected", error: "The link was removed" });
        await repo.delete(trx, id);
        await audit(trx, viewer.id, "tracker.unlinked", id, { artistId: row.artist_id, url: row.url });
      });
    },

    /** "Sync now": queued at once (a sync already queued or running is not doubled). */
    async syncNow(id: string): Promise<TrackerLink> {
      const row = await repo.find(id);
      if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
      if (row.status === "paused") throw new AppError("conflict", SYNC_MESSAGES.paused);
      await enqueue(id);
      return link(id);
    },

    /**
     * The scheduler's turn: each link due is claimed by moving its next sync on (only one instance's claim of a due
     * time succeeds) and its sync queued in the same transaction. Returns how many were queued.
     */
    async tick(now = nowIso()): Promise<number> {
      return database.tx(async (trx) => {
        let queued = 0;
        for (const due of await repo.due(trx, now, TICK_LINKS)) {
          if (!(await repo.claimDue(trx, due.id, now, minutesFrom(now, Number(due.interval_minutes))))) continue;
          await enqueue(due.id, trx);
          queued++;
        }
        return queued;
      });
    },

    /**
     * One sync of a link (the job's handler): held by a lease so it runs once at a time across instances. An
     * unchanged sheet (304, or the same bytes, or rows that read the same) writes nothing to the catalogue; a failure
     * changes nothing but the link's error and its next try.
     */
    async run(linkId: string): Promise<void> {
      const now = nowIso();
      // Another sync of the link holds it: this one is tried again once that one is likely done (the job's retry).
      if (!(await repo.lease(linkId, now, new Date(Date.now() + LEASE_MS).toISOString())))
        throw new Error("another sync of this link is running");
      try {
        const row = await repo.find(linkId);
        if (!row || row.status === "paused") return;
        let fetched: SheetFetchResult;
        try {
          fetched = await fetch(
            row.url,
            fetchPolicy,
            row.content_sha256 ? { etag: row.etag, lastModified: row.last_modified } : {},
          );
        } catch (err) {
          await recordFailure(row, err);
          return;
        }
        if (fetched.status === "unchanged") {
          await recordCheck(row.id, null, false);
          return;
        }
        const validators = {
          sha256: createHash("sha256").update(fetched.bytes).digest("hex"),
          etag: fetched.etag,
          lastModified: fetched.lastModified,
        };
        if (validators.sha256 === row.content_sha256) {
          await recordCheck(row.id, validators, false);
          return;
        }
        try {
          const read = await readSheet(
            { bytes: fetched.bytes, fileName: fetched.fileName },
            readingOf(row),
            await importsRepo.rememberedMappings(),
          );
          const [file, sheet] = [read.file as SheetFile, read.rows];
          if (sheet.problems.length > 0)
            throw new AppError("bad_request", `The sheet is not a tracker we can read: ${sheet.problems.join(" ")}`);
          await applyOrHold(row, sheet, file, validators, fetched.fileName);
        } catch (err) {
          if (!(err instanceof SheetError || err instanceof AppError))
            log.error({ err, linkId }, "tracker sync failed");
          await recordFailure(row, err);
        }
      } finally {
        await repo.release(linkId);
      }
    },

    /** Approve a sync's dry run: it is planned again against the catalogue as it is now, and applied. */
    async approve(viewer: Viewer, batchId: string): Promise<ImportBatch> {
      const batch = await importsRepo.findBatch(batchId);
      if (!batch?.link_id) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
      const row = await repo.find(batch.link_id);
      if (!row) throw new AppError("not_found", SYNC_MESSAGES.notFound);
      if (batch.status !== "awaiting_approval" || !batch.plan)
        throw new AppError("conflict", SYNC_MESSAGES.notAwaiting);
      const stored = JSON.parse(batch.plan) as StoredPlan;
      if (!stored.file) throw new AppError("conflict", SYNC_MESSAGES.notAwaiting);
      let sheet: SheetRows;
      try {
        sheet = (await readSheet({ file: stored.file }, stored.reading, await importsRepo.rememberedMappings())).rows;
      } catch (err) {
        if (err instanceof SheetError) throw new AppError("bad_request", err.message);
        throw err;
      }
      const now = nowIso();
      const plan = await database.tx(async (trx) => {
        const claimed = await trx
          .updateTable("import_batch")
          .set({ status: "running", approved_by: viewer.id, hold_reason: null })
          .where("id", "=", batchId)
          .where("status", "=", "awaiting_approval")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) throw new AppError("conflict", SYNC_MESSAGES.notAwaiting);
        await imports.guardRunning(trx, batchId);
        await repo.update(trx, row.id, {
          approved_at: row.approved_at ? toIso(row.approved_at) : now,
          content_sha256: stored.fetched.sha256,
          etag: stored.fetched.etag,
          last_modified: stored.fetched.lastModified,
        });
        // What was approved stays readable; the fetched sheet itself is no longer needed.
        await importsRepo.updateBatch(trx, batchId, { plan: JSON.stringify({ ...stored, file: undefined }) });
        await audit(trx, viewer.id, "import.approved", batchId, { linkId: row.id });
        return planFor(trx, { ...row, approved_at: row.approved_at ?? now }, sheet, now);
      });
      await imports.launch(async () => {
        await imports.execute(viewer.id, contextOf(row, batchId, viewer.id), plan, sheet.eras, batch.file_name);
        await recordCheck(row.id, stored.fetched, true);
      }, plan.creates.length + plan.updates.length);
      return imports.batch(batchId);
    },

    /** Reject a sync's dry run: nothing is applied; the link syncs on as the sheet changes. */
    async reject(viewer: Viewer, batchId: string): Promise<ImportBatch> {
      const claimed = await database.tx(async (trx) => {
        const res = await trx
          .updateTable("import_batch")
          .set({ status: "rejected", finished_at: nowIso(), undone_by: viewer.id })
          .where("id", "=", batchId)
          .where("status", "=", "awaiting_approval")
          .where("link_id", "is not", null)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) await audit(trx, viewer.id, "import.rejected", batchId, {});
        return Number(res.numUpdatedRows) > 0;
      });
      if (!claimed) {
        if (!(await importsRepo.findBatch(batchId))) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
        throw new AppError("conflict", SYNC_MESSAGES.notAwaiting);
      }
      return imports.batch(batchId);
    },
  };
}

/** The tracker sync service type. */
export type TrackerSyncService = ReturnType<typeof createTrackerSyncService>;

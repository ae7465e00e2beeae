import { createHash } from "node:crypto";
import {
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportBatchDetail,
  type ImportPreview,
  type SheetReading,
} from "@unheard/shared";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import type { AudioPool } from "../../lib/audio-pool.js";
import { audit } from "../../lib/audit.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import { type ApplyContext, type BatchApplier, CHUNK_ROWS, lockImports } from "./batch-apply.js";
import { type Plan, planFileImport, previewOf } from "./batch-plan.js";
import type { BatchRow, ImportsRepo } from "./imports.repo.js";
import { SheetError } from "./sheet-read.js";
import type { SheetEra, SheetRows } from "./sheet-rows.js";

/** An uploaded file and the choices sent with it. */
export type ImportInput = { fileName: string; bytes: Buffer; reading: SheetReading; asVerified: boolean };

/** Reads a sheet file and decides its rows off the event loop (the audio pool's threads). */
export type SheetReader = AudioPool["readSheetRows"];

/** A batch still marked running after this long was cut off (the server stopped): it no longer blocks imports. */
const STALE_RUN_MS = 30 * 60 * 1000;

/** An import batch as the API shows it. */
export function toBatch(row: BatchRow, createdSongs: { id: string; title: string }[] = []): ImportBatch {
  const options = JSON.parse(row.options) as { asVerified?: boolean };
  const user = (id: string | null, name: string | null) => (id ? { id, username: name ?? "deleted user" } : null);
  return {
    id: row.id,
    source: row.source === "sync" ? "sync" : "file",
    linkId: row.link_id,
    fileName: row.file_name,
    createdAt: toIso(row.created_at),
    createdBy: user(row.created_by, row.creator_name),
    status: row.status as ImportBatch["status"],
    holdReason: row.hold_reason,
    asVerified: Boolean(options.asVerified),
    totalRows: Number(row.total_rows),
    processedRows: Number(row.processed_rows),
    createdCount: Number(row.created_count),
    updatedCount: Number(row.updated_count),
    skippedCount: Number(row.skipped_count),
    removedCount: Number(row.removed_count),
    renamedCount: Number(row.renamed_count),
    error: row.error,
    finishedAt: toIso(row.finished_at),
    undoneAt: toIso(row.undone_at),
    approvedBy: user(row.approved_by, row.approver_name),
    createdSongs,
  };
}

/**
 * Bulk import from tracker sheets (issues 16 and 37): read a CSV, TSV or workbook, find each tab's header and eras,
 * map its columns, dry-run, run in chunks with progress, and undo a batch as one. Syncs of linked sheets
 * (tracker-sync/) run their batches through the same starting, running and undoing.
 */
export function createImportsService(deps: {
  database: Database;
  repo: ImportsRepo;
  applier: BatchApplier;
  readSheet: SheetReader;
  bus: EventBus;
  log: FastifyBaseLogger;
}) {
  const { database, repo, applier, readSheet, bus, log } = deps;
  const running = new Set<Promise<void>>();
  // Set when the server shuts down: a background run stops after its current chunk (and can be undone).
  let stopping = false;

  /** A file's sheets read through the choices sent with it. */
  async function read(input: Pick<ImportInput, "fileName" | "bytes" | "reading">): Promise<SheetRows> {
    try {
      const remembered = await repo.rememberedMappings();
      return (await readSheet({ bytes: input.bytes, fileName: input.fileName }, input.reading, remembered)).rows;
    } catch (err) {
      if (err instanceof SheetError) throw new AppError("bad_request", err.message);
      throw err;
    }
  }

  /** The admin's own mappings are remembered for their header rows (a later file with the same header reads the same). */
  async function rememberMappings(viewer: Viewer, sheet: SheetRows): Promise<void> {
    for (const m of sheet.mappings)
      if (m.given) await repo.rememberMapping(m.headerKey, m.mapping, viewer.id, nowIso());
  }

  /** A file import's plan: its rows against the songs that exist. */
  async function planOf(sheet: SheetRows, trx: Kysely<DB> = database.db): Promise<Plan> {
    const keys = [...new Set(sheet.rows.filter((r) => !r.skip).map((r) => r.titleKey))];
    return planFileImport(sheet.rows, await repo.existingByTitle(trx, keys));
  }

  /**
   * Start a batch (one at a time): its row inserted as running, or as awaiting approval with the plan that will be
   * applied once approved. Throws 409 while another batch runs.
   */
  async function begin(
    trx: Kysely<DB>,
    batch: {
      id: string;
      createdBy: string | null;
      fileName: string;
      sha256: string;
      options: Record<string, unknown>;
      totalRows: number;
      source: "file" | "sync";
      linkId: string | null;
      awaiting?: { plan: string; reason: string };
    },
  ): Promise<void> {
    const now = nowIso();
    if (!batch.awaiting) await guardRunning(trx);
    await repo.insertBatch(trx, {
      id: batch.id,
      created_by: batch.createdBy,
      created_at: now,
      file_name: batch.fileName.slice(0, 255),
      file_sha256: batch.sha256,
      options: JSON.stringify(batch.options),
      status: batch.awaiting ? "awaiting_approval" : "running",
      total_rows: batch.totalRows,
      source: batch.source,
      link_id: batch.linkId,
      plan: batch.awaiting?.plan ?? null,
      hold_reason: batch.awaiting?.reason ?? null,
    });
  }

  /**
   * Apply a started batch's plan; a failure marks it failed (what was done stays undoable). Resolves when done.
   * An audit row names who ran (or approved) it.
   */
  async function execute(
    actorId: string | null,
    ctx: ApplyContext,
    plan: Plan,
    eras: SheetEra[],
    fileName: string,
  ): Promise<void> {
    const started = Date.now();
    try {
      const totals = await applier.apply(ctx, plan, eras, () => stopping);
      await database.tx((trx) =>
        audit(trx, actorId, ctx.source === "sync" ? "import.synced" : "import.run", ctx.batchId, {
          fileName,
          ...totals,
        }),
      );
      log.info({ batchId: ctx.batchId, ms: Date.now() - started, ...totals }, "import finished");
    } catch (err) {
      log.error({ err, batchId: ctx.batchId }, "import failed");
      await repo
        .updateBatch(database.db, ctx.batchId, {
          status: "failed",
          error: "The import stopped with an error. What it did can be undone.",
          finished_at: nowIso(),
        })
        .catch((e) => log.error({ err: e, batchId: ctx.batchId }, "import failure not recorded"));
    }
  }

  /**
   * One batch runs at a time: throws 409 while another (but `except`) runs; one still marked running after
   * STALE_RUN_MS was cut off by a stop and is marked failed.
   */
  async function guardRunning(trx: Kysely<DB>, except?: string): Promise<void> {
    await lockImports(trx, database.dialect);
    for (const other of await repo.runningBatches(trx)) {
      if (other.id === except) continue;
      if (Date.now() - new Date(toIso(other.created_at)).getTime() < STALE_RUN_MS)
        throw new AppError("conflict", IMPORT_MESSAGES.running);
      await repo.updateBatch(trx, other.id, { status: "failed", error: "Interrupted", finished_at: nowIso() });
    }
  }

  /** Run a batch: within the request when it is small, else in the background (GET the batch for its progress). */
  async function launch(work: () => Promise<void>, items: number): Promise<void> {
    const done = work();
    if (items <= CHUNK_ROWS) return done;
    running.add(done);
    void done.finally(() => running.delete(done));
  }

  async function batch(id: string): Promise<ImportBatch> {
    const row = await repo.findBatch(id);
    if (!row) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
    return toBatch(row, await repo.createdSongs(id, 20));
  }

  return {
    read,
    begin,
    guardRunning,
    execute,
    launch,
    batch,

    /** A dry run: per row what an import would do and why; the admin's explicit mappings are remembered. */
    async preview(viewer: Viewer, input: ImportInput): Promise<ImportPreview> {
      const sheet = await read(input);
      await rememberMappings(viewer, sheet);
      const plan: Plan =
        sheet.problems.length > 0 ? { creates: [], updates: [], skips: [], linkRows: null } : await planOf(sheet);
      return previewOf(input.fileName, sheet, plan);
    },

    /**
     * Start an import: one batch at a time. A file of one chunk is done when this answers; a longer one goes on
     * in the background.
     */
    async run(viewer: Viewer, input: ImportInput): Promise<ImportBatch> {
      const sheet = await read(input);
      if (sheet.problems.length > 0) throw new AppError("bad_request", sheet.problems.join(" "));
      await rememberMappings(viewer, sheet);
      const id = newId();
      const plan = await database.tx(async (trx) => {
        await begin(trx, {
          id,
          createdBy: viewer.id,
          fileName: input.fileName,
          sha256: createHash("sha256").update(input.bytes).digest("hex"),
          options: { ...input.reading, asVerified: input.asVerified, format: sheet.format },
          totalRows: sheet.rows.length,
          source: "file",
          linkId: null,
        });
        // Planned inside the batch's transaction: no other import can create the same songs meanwhile.
        return planOf(sheet, trx);
      });
      const ctx: ApplyContext = {
        batchId: id,
        submittedBy: viewer.id,
        asVerified: input.asVerified,
        source: "import",
        linkId: null,
        defaultArtist: input.reading.defaultArtist || undefined,
      };
      await launch(
        () => execute(viewer.id, ctx, plan, sheet.eras, input.fileName),
        plan.creates.length + plan.updates.length,
      );
      return batch(id);
    },

    /** A batch with the dry run it waits for approval on (a sync's), or null. */
    async detail(id: string): Promise<ImportBatchDetail> {
      const row = await repo.findBatch(id);
      if (!row) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
      const stored = row.plan ? (JSON.parse(row.plan) as { preview?: ImportPreview }) : null;
      return { ...toBatch(row, await repo.createdSongs(id, 20)), preview: stored?.preview ?? null };
    },

    /** The newest batches. */
    async list(): Promise<ImportBatch[]> {
      return (await repo.listBatches(50)).map((row) => toBatch(row));
    },

    /** Undo a batch as one transaction (batch-apply.ts undo); a second undo, or one of a running batch, is refused. */
    async undo(viewer: Viewer, id: string): Promise<ImportBatch> {
      const importer = await database.tx(async (trx) => {
        const row = await repo.findBatch(id, trx);
        if (!row) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
        // Claimed by a conditional update, so two undos at once cannot both go ahead.
        const claimed = await trx
          .updateTable("import_batch")
          .set({ status: "undone", undone_at: nowIso(), undone_by: viewer.id })
          .where("id", "=", id)
          .where("status", "in", ["done", "failed"])
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) {
          const now = await repo.findBatch(id, trx);
          throw new AppError(
            "conflict",
            now?.status === "running"
              ? IMPORT_MESSAGES.stillRunning
              : now?.status === "awaiting_approval" || now?.status === "rejected"
                ? IMPORT_MESSAGES.notApplied
                : IMPORT_MESSAGES.alreadyUndone,
          );
        }
        const { deleted, restored } = await applier.undo(trx, id, row.link_id);
        await audit(trx, viewer.id, "import.undone", id, { fileName: row.file_name, deleted, restored });
        return deleted > 0 ? row.created_by : null;
      });
      await bus.publish({ type: "song.changed", songId: id, data: { created: true, importBatch: id } });
      // The deleted songs were the importer's uploads (submitted_by is the batch's creator).
      if (importer) await bus.publish({ type: "me.changed", userId: importer });
      return batch(id);
    },

    /** Stop background runs after their current chunk; resolves once none runs (before the database closes). */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...running]);
    },
  };
}

/** The imports service type. */
export type ImportsService = ReturnType<typeof createImportsService>;

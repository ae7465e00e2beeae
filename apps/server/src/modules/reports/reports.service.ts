import { MESSAGES, type REPORT_REASONS, REPORTS_PER_MINUTE, type Report } from "@unheard/shared";
import { sql } from "kysely";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { oldestFirstPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import type { RateLimiter } from "../../lib/rate-limit.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { TrustService } from "../trust/trust.service.js";
import type { VotesService } from "../votes/votes.service.js";
import type { ReportClips } from "./report-clips.js";

type Reason = (typeof REPORT_REASONS)[number];

/**
 * Reports on songs (spec §4/§5): one open report per user and song, within the reporter's daily cap; admins
 * resolve or reject. Upholding a fake-leak report takes back what the song earned its backers (decision 015).
 */
export function createReportsService(deps: {
  database: Database;
  bus: EventBus;
  notifier: Notifier;
  trust?: Pick<TrustService, "assertUnderCap">;
  votes?: Pick<VotesService, "takeBackFake" | "afterFake">;
  /** The per-minute limit; absent in apps built without one. */
  limiter?: RateLimiter;
  /** Reports a member may file a minute (REPORTS_PER_MINUTE). */
  perMinute?: number;
  /** Clips attached to reports from Identify; deleted once a report is handled. */
  clips?: ReportClips;
}) {
  const { database, bus, notifier } = deps;
  const { db } = database;
  const reportLimit = {
    name: "report",
    limit: deps.perMinute ?? REPORTS_PER_MINUTE,
    windowSec: 60,
    message: MESSAGES.tooManyReports,
  };
  return {
    /**
     * File a report; `clip` (from Identify): a checked temp file moved in as the report's clip once the report is
     * sure to be filed, and deleted here when it is refused. Returns the report's id.
     */
    async create(
      viewer: Viewer,
      songId: string,
      input: { reason: Reason; details: string },
      clip?: { tmp: string; ext: string; mime: string },
    ): Promise<string> {
      const id = newId();
      // A script is stopped within the minute whatever its daily cap; admins are not limited (issue 24).
      if (!viewer.isAdmin) await deps.limiter?.hit(reportLimit, viewer.id);
      await database
        .tx(async (trx) => {
          const song = await trx
            .selectFrom("song")
            .select(["id", "submitted_by", "is_hidden"])
            .where("id", "=", songId)
            .executeTakeFirst();
          if (!song || (song.is_hidden && !viewer.isAdmin)) throw new AppError("not_found", MESSAGES.songNotFound);
          if (song.submitted_by === viewer.id) throw new AppError("forbidden", MESSAGES.reportOwnSong);
          const open = await trx
            .selectFrom("report")
            .select("id")
            .where("song_id", "=", songId)
            .where("user_id", "=", viewer.id)
            .where("status", "=", "pending")
            .executeTakeFirst();
          if (open) throw new AppError("conflict", MESSAGES.reportAlreadyOpen);
          await deps.trust?.assertUnderCap(trx, viewer, "reports");
          // The clip is moved in before the row commits, so a filed report never lacks its file; a refusal below
          // rolls the row back and deletes it.
          const clipKey = clip && deps.clips ? await deps.clips.keep(clip.tmp, id, clip.ext) : null;
          // The check above cannot see a concurrent report not yet committed (PostgreSQL): the partial unique index
          // decides, and a losing insert is a 409 like the check's, not a unique-violation 500.
          const inserted = await trx
            .insertInto("report")
            .values({
              id,
              song_id: songId,
              user_id: viewer.id,
              reason: input.reason,
              details: input.details,
              created_at: nowIso(),
              clip_key: clipKey,
              clip_mime: clipKey ? (clip?.mime ?? null) : null,
            })
            .onConflict((oc) => oc.columns(["song_id", "user_id"]).where("status", "=", sql.lit("pending")).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
            throw new AppError("conflict", MESSAGES.reportAlreadyOpen);
          // The count moves with the row, in the same transaction.
          await trx.updateTable("song").set({ report_count: sql`report_count + 1` }).where("id", "=", songId).execute();
        })
        .catch(async (err) => {
          if (clip && deps.clips) await deps.clips.remove(`${id}.${clip.ext}`);
          throw err;
        });
      return id;
    },

    /** The clip attached to a report, for admins who handle reports; 404 when there is none (any more). */
    async clip(reportId: string) {
      const row = await db
        .selectFrom("report")
        .select(["clip_key", "clip_mime"])
        .where("id", "=", reportId)
        .executeTakeFirst();
      const file = row?.clip_key && deps.clips ? await deps.clips.open(row.clip_key) : undefined;
      if (!row?.clip_key || !file) throw new AppError("not_found", MESSAGES.reportClipGone);
      return { ...file, mime: row.clip_mime ?? "application/octet-stream" };
    },

    /**
     * The pending reports, oldest first, a page at a time (keyset on report time and id), so the queue is worked
     * through to its end however long it grows (it showed the oldest 500 only); `total` counts them all.
     */
    async pending(
      cursor: string | undefined,
      limit: number,
    ): Promise<{ items: Report[]; nextCursor: string | null; total: number }> {
      const query = db
        .selectFrom("report")
        .innerJoin("song", "song.id", "report.song_id")
        .innerJoin("user", "user.id", "report.user_id")
        .select([
          "report.id",
          "report.song_id",
          "song.title as song_title",
          "song.is_hidden",
          "report.reason",
          "report.details",
          "report.status",
          "report.created_at",
          "report.processed_at",
          "report.processed_by",
          "user.id as reporter_id",
          "user.username as reporter_name",
          "report.clip_key",
        ])
        .where("report.status", "=", "pending");
      const { page: rows, nextCursor } = await oldestFirstPage(
        query,
        "report.created_at",
        "report.id",
        cursor,
        limit,
        (r) => r.created_at,
      );
      const { n } = await db
        .selectFrom("report")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow();
      const items = rows.map((r) => ({
        id: r.id,
        songId: r.song_id,
        songTitle: r.song_title,
        reason: r.reason as Reason,
        details: r.details,
        status: r.status as Report["status"],
        reporter: { id: r.reporter_id, username: r.reporter_name },
        createdAt: toIso(r.created_at),
        processedAt: toIso(r.processed_at),
        processedBy: r.processed_by,
        songHidden: Boolean(r.is_hidden),
        hasClip: r.clip_key !== null,
      }));
      return { items, nextCursor, total: Number(n) };
    },

    async process(viewer: Viewer, reportId: string, action: "resolve" | "reject"): Promise<string> {
      const status = action === "resolve" ? "resolved" : "rejected";
      let fake: { songId: string; moved: string[]; uploader: string | null } | null = null;
      let clipKey: string | null = null;
      const notified = await database.tx(async (trx) => {
        const report = await trx
          .selectFrom("report")
          .select(["id", "status", "user_id", "song_id", "reason", "clip_key"])
          .where("id", "=", reportId)
          .executeTakeFirst();
        if (!report) throw new AppError("not_found", "Report not found");
        clipKey = report.clip_key;
        if (report.status !== "pending") throw new AppError("conflict", MESSAGES.reportAlreadyProcessed);
        // Only while still pending: a concurrent processing of the same report (PostgreSQL reads it as pending
        // too) waits on this row, then updates nothing and stops here instead of taking back points again.
        const claimed = await trx
          .updateTable("report")
          .set({ status, processed_at: nowIso(), processed_by: viewer.id, clip_key: null, clip_mime: null })
          .where("id", "=", reportId)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) throw new AppError("conflict", MESSAGES.reportAlreadyProcessed);
        await audit(trx, viewer.id, `report.${status}`, reportId, { songId: report.song_id });
        const song = await trx
          .selectFrom("song")
          .select(["title", "submitted_by"])
          .where("id", "=", report.song_id)
          .executeTakeFirst();
        if (status === "resolved" && report.reason === "fake_leak" && deps.votes) {
          const moved = await deps.votes.takeBackFake(trx, report.song_id, viewer.id);
          fake = { songId: report.song_id, moved, uploader: song?.submitted_by ?? null };
        }
        return notifier.add(
          trx,
          "report_processed",
          [report.user_id],
          { songId: report.song_id, songTitle: song?.title, status },
          viewer.id,
        );
      });
      // A handled report's clip is not kept (the member was told so when attaching it).
      if (clipKey) await deps.clips?.remove(clipKey);
      await notifier.announce(notified);
      const upheld = fake as { songId: string; moved: string[]; uploader: string | null } | null;
      if (upheld) await deps.votes?.afterFake(upheld.songId, upheld.moved, upheld.uploader);
      return status === "resolved" ? MESSAGES.reportResolved : MESSAGES.reportRejected;
    },

    /** Hide a song from every list (or show it again); admins still see it. */
    async setHidden(viewer: Viewer, songId: string, hidden: boolean): Promise<void> {
      await database.tx(async (trx) => {
        const res = await trx
          .updateTable("song")
          .set({ is_hidden: hidden, updated_at: nowIso() })
          .where("id", "=", songId)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) throw new AppError("not_found", MESSAGES.songNotFound);
        await audit(trx, viewer.id, hidden ? "song.hidden" : "song.unhidden", songId);
      });
      await bus.publish({ type: "song.changed", songId, data: { isHidden: hidden } });
    },
  };
}

/** The reports service type. */
export type ReportsService = ReturnType<typeof createReportsService>;

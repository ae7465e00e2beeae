import {
  type EditSuggestion,
  LEAK_FIELDS,
  type LeakDetails,
  MESSAGES,
  SUGGESTIONS_PER_MINUTE,
  type SuggestionValues,
} from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { oldestFirstPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import type { RateLimiter } from "../../lib/rate-limit.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { SongFields, SongsService } from "../songs/songs.service.js";
import type { TrustService } from "../trust/trust.service.js";
import { currentValues, insertSuggestion } from "./edit-suggestions.repo.js";

/** Suggestions per member and minute (issue 24): a script is stopped within the minute, a person never. */
const suggestLimit = (perMinute: number) => ({
  name: "suggest",
  limit: perMinute,
  windowSec: 60,
  message: MESSAGES.tooManySuggestions,
});

const FIELDS = ["title", "artist", "genre", "releaseDate", "soundcloudUrl", ...LEAK_FIELDS] as const;

/** A field's value for comparison: an empty list is no value (suggestions made before issue 16 lack them). */
const comparable = (v: unknown) => (Array.isArray(v) ? (v.length > 0 ? JSON.stringify(v) : null) : (v ?? null));

/** Which of the spec's fields (and leak details) differ between two value sets. */
export function changedFields(a: SuggestionValues, b: SuggestionValues): string[] {
  return FIELDS.filter((f) => comparable(a[f]) !== comparable(b[f]));
}

/** Edit suggestions (spec §4): members propose, admins approve (applied with history) or reject. */
export function createEditSuggestionsService(deps: {
  database: Database;
  songs: SongsService;
  bus: EventBus;
  notifier: Notifier;
  /** The per-minute limit; absent in apps built without one. */
  limiter?: RateLimiter;
  /** The daily caps (decision 015). */
  trust?: Pick<TrustService, "assertUnderCap">;
  /** Suggestions a member may send a minute (SUGGESTIONS_PER_MINUTE). */
  perMinute?: number;
}) {
  const { database, songs, bus, notifier } = deps;
  const { db } = database;

  return {
    /** Record a proposal against the song's current version, within the member's limits (insertSuggestion). */
    async create(viewer: Viewer, songId: string, fields: SongFields, reason: string): Promise<string> {
      // Admins have no caps (trust.assertUnderCap); they are not held to the per-minute limit either.
      if (!viewer.isAdmin) await deps.limiter?.hit(suggestLimit(deps.perMinute ?? SUGGESTIONS_PER_MINUTE), viewer.id);
      return database.tx((trx) =>
        insertSuggestion(trx, viewer, songId, fields, reason, { dialect: database.dialect, trust: deps.trust }),
      );
    },

    /**
     * The pending suggestions, oldest first, a page at a time (keyset on submission time and id): the queue is
     * worked through to its end however long it grows (it showed the oldest 500 only, so later ones never
     * appeared); `total` counts them all.
     */
    async pending(
      cursor: string | undefined,
      limit: number,
    ): Promise<{ items: EditSuggestion[]; nextCursor: string | null; total: number }> {
      const query = db
        .selectFrom("edit_suggestion")
        .innerJoin("user", "user.id", "edit_suggestion.submitted_by")
        .selectAll("edit_suggestion")
        .select(["user.username as submitter_name"])
        .where("edit_suggestion.status", "=", "pending");
      const { page: rows, nextCursor } = await oldestFirstPage(
        query,
        "edit_suggestion.submitted_at",
        "edit_suggestion.id",
        cursor,
        limit,
        (r) => r.submitted_at,
      );
      const { n } = await db
        .selectFrom("edit_suggestion")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow();
      const out: EditSuggestion[] = [];
      for (const r of rows) {
        const current = await currentValues(db, r.song_id);
        const original = JSON.parse(r.original) as SuggestionValues;
        const suggested = JSON.parse(r.suggested) as SuggestionValues;
        const { version, ...values } = current ?? { version: r.base_version };
        out.push({
          id: r.id,
          songId: r.song_id,
          original,
          suggested,
          current: current ? (values as SuggestionValues) : null,
          changedFields: changedFields(original, suggested),
          stale: version !== Number(r.base_version),
          reason: r.reason,
          status: r.status as EditSuggestion["status"],
          submittedBy: { id: r.submitted_by, username: r.submitter_name },
          submittedAt: toIso(r.submitted_at),
          reviewedBy: r.reviewed_by,
          reviewedAt: toIso(r.reviewed_at),
          reviewNotes: r.review_notes,
        });
      }
      return { items: out, nextCursor, total: Number(n) };
    },

    /** Approve (apply in the same transaction) or reject. A stale suggestion needs an explicit override. */
    async review(
      viewer: Viewer,
      id: string,
      input: { action: "approve" | "reject"; notes?: string | undefined; overrideNewerEdits?: boolean | undefined },
    ): Promise<string> {
      const { songId, notified } = await database.tx(async (trx) => {
        const s = await trx.selectFrom("edit_suggestion").selectAll().where("id", "=", id).executeTakeFirst();
        if (!s) throw new AppError("not_found", "Edit suggestion not found");
        if (s.status !== "pending") throw new AppError("conflict", MESSAGES.suggestionAlreadyReviewed);
        const now = nowIso();
        const status = input.action === "approve" ? "approved" : "rejected";
        // Claimed first, only while still pending: a concurrent review of the same suggestion (PostgreSQL reads
        // it as pending too) waits on this row and then updates nothing, instead of applying the edit again.
        const claimed = await trx
          .updateTable("edit_suggestion")
          .set({ status, reviewed_by: viewer.id, reviewed_at: now, review_notes: input.notes || null })
          .where("id", "=", id)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) throw new AppError("conflict", MESSAGES.suggestionAlreadyReviewed);
        if (input.action === "approve") {
          const current = await currentValues(trx, s.song_id);
          if (!current) throw new AppError("not_found", MESSAGES.songNotFound);
          // Never overwrite an edit the suggester did not see, unless the admin says so having seen it.
          if (current.version !== Number(s.base_version) && !input.overrideNewerEdits) {
            throw new AppError("conflict", MESSAGES.suggestionStale);
          }
          const original = JSON.parse(s.original) as SuggestionValues;
          const suggested = JSON.parse(s.suggested) as SuggestionValues;
          // Only what the suggester changed is applied, onto the song as it is now: an edit made since to
          // another field survives an approval.
          const changed = new Set(changedFields(original, suggested));
          const pick = <K extends keyof SuggestionValues>(k: K, field: string = k) =>
            changed.has(field) ? suggested[k] : current[k];
          await songs.applyEdit(
            trx,
            viewer.id,
            s.song_id,
            {
              title: pick("title"),
              artists: pick("artists", "artist"),
              genre: pick("genre") as SongFields["genre"],
              releaseDate: pick("releaseDate"),
              soundcloudUrl: pick("soundcloudUrl"),
              era: pick("era") ?? null,
              producers: pick("producers") ?? [],
              features: pick("features") ?? [],
              references: pick("references") ?? [],
              aliases: pick("aliases") ?? [],
              versionLabel: pick("versionLabel") ?? null,
              tags: (pick("tags") ?? []) as LeakDetails["tags"],
              leakDate: pick("leakDate") ?? null,
              fileDate: pick("fileDate") ?? null,
              trackLength: pick("trackLength") ?? null,
              availability: (pick("availability") ?? null) as LeakDetails["availability"],
              quality: (pick("quality") ?? null) as LeakDetails["quality"],
              notes: pick("notes") ?? null,
              links: pick("links") ?? [],
            },
            `Suggested edit: ${s.reason}`,
          );
        }
        await audit(trx, viewer.id, `suggestion.${status}`, id, { songId: s.song_id });
        const title = JSON.parse(s.suggested).title as string;
        const told = await notifier.add(
          trx,
          "suggestion_processed",
          [s.submitted_by],
          { songId: s.song_id, songTitle: title, status },
          viewer.id,
        );
        return { songId: s.song_id, notified: told };
      });
      await notifier.announce(notified);
      if (input.action === "approve") await bus.publish({ type: "song.changed", songId, data: { edited: true } });
      return input.action === "approve" ? MESSAGES.suggestionApproved : MESSAGES.suggestionRejected;
    },
  };
}

/** The edit suggestions service type. */
export type EditSuggestionsService = ReturnType<typeof createEditSuggestionsService>;

// Applying a batch (issue 16, issue 37): a plan written chunk by chunk with progress, each change recorded with
// what it replaced, the eras the sheet states, the changelog's lines and one notification per follower; and the
// undo of a batch as one transaction.
import type { ChangeSource } from "@unheard/shared";
import type { FastifyBaseLogger } from "fastify";
import { type Insertable, type Kysely, sql, type Updateable } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB, SongTable } from "../../db/schema.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import { nameKey } from "../../lib/text.js";
import { nowIso } from "../../lib/time.js";
import type { ChangeInput, ChangelogService } from "../changelog/changelog.service.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { SongsRepo } from "../songs/songs.repo.js";
import type { Plan, PlannedCreate, PlannedUpdate, SongColumns } from "./batch-plan.js";
import { RESTORABLE_COLUMNS } from "./batch-plan.js";
import type { ImportsRepo } from "./imports.repo.js";
import type { SheetEra } from "./sheet-rows.js";

/** The audio columns of a song with no audio file: an imported one, a seeded one without a clip. */
export const NO_AUDIO_COLUMNS = {
  audio_key: null,
  audio_mime: null,
  audio_size: null,
  audio_sha256: null,
  duration_sec: null,
  sample_rate: null,
  channels: null,
  audio_min: null,
  audio_max: null,
  audio_mean: null,
  silence_ratio: null,
} as const satisfies Partial<Insertable<SongTable>>;

/** Rows per transaction while a batch runs; a batch of at most this many finishes within its request. */
export const CHUNK_ROWS = 500;

/** Who and what a batch is. */
export type ApplyContext = {
  batchId: string;
  /** Whose uploads the created songs are (the importer, or the admin who linked the sheet; null once deleted). */
  submittedBy: string | null;
  asVerified: boolean;
  source: Extract<ChangeSource, "import" | "sync">;
  /** A sync's link, whose rows it remembers. */
  linkId: string | null;
  /** The artist of the sheet's eras when no song row under them names one. */
  defaultArtist: string | undefined;
};

/** What a batch did. */
export type BatchTotals = { created: number; updated: number; removed: number; renamed: number; skipped: number };

const OUTCOME_ACTIONS = { update: "updated", rename: "renamed", remove: "removed" } as const;

/** Writes plans (batch-plan.ts) and undoes batches. */
export function createBatchApplier(deps: {
  database: Database;
  repo: ImportsRepo;
  songs: SongsRepo;
  changelog: ChangelogService;
  notifier: Notifier;
  bus: EventBus;
  log: FastifyBaseLogger;
}) {
  const { database, repo, songs, changelog, notifier, bus, log } = deps;

  /** An artist's id by name, made once per batch (placeholder profiles, as uploads make them). */
  async function artistIdOf(trx: Kysely<DB>, name: string, cache: Map<string, string>): Promise<string> {
    const key = nameKey(name);
    let id = cache.get(key);
    if (!id) {
      id = await songs.ensureArtist(trx, name);
      cache.set(key, id);
    }
    return id;
  }

  /** The eras the sheet's era header rows state, as their artist's eras: created, or what the sheet states set. */
  async function applyEras(
    trx: Kysely<DB>,
    ctx: ApplyContext,
    plan: Plan,
    eras: SheetEra[],
    cache: Map<string, string>,
  ) {
    const rows = [...plan.creates.map((c) => c.row), ...plan.updates.flatMap((u) => (u.row ? [u.row] : []))];
    const now = nowIso();
    for (const era of eras) {
      // The era belongs to the artist of its first song row, else the sheet's artist.
      const first = rows.find((r) => r.tab === era.tab && r.line > era.line && r.leak.era === era.name);
      const artistName = first?.artists[0] ?? ctx.defaultArtist;
      if (!artistName) continue;
      const artistId = await artistIdOf(trx, artistName, cache);
      const stated = {
        description: era.description,
        starts_on: era.startsOn,
        ends_on: era.endsOn,
        sheet_counts: era.counts.length > 0 ? JSON.stringify(era.counts) : null,
      };
      const existing = await trx
        .selectFrom("era")
        .selectAll()
        .where("artist_id", "=", artistId)
        .where("name_key", "=", nameKey(era.name))
        .executeTakeFirst();
      if (!existing) {
        const id = newId();
        await trx
          .insertInto("era")
          .values({
            id,
            artist_id: artistId,
            name: era.name,
            name_key: nameKey(era.name),
            cover_url: null,
            ...stated,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto("import_era_change")
          .values({ batch_id: ctx.batchId, era_id: id, action: "created", previous: null })
          .execute();
        continue;
      }
      // Only what the sheet states: an era's own page may say more.
      const changed = (Object.keys(stated) as (keyof typeof stated)[]).filter(
        (k) => stated[k] !== null && stated[k] !== existing[k],
      );
      if (changed.length === 0) continue;
      await trx
        .updateTable("era")
        .set({ ...Object.fromEntries(changed.map((k) => [k, stated[k]])), updated_at: now })
        .where("id", "=", existing.id)
        .execute();
      await trx
        .insertInto("import_era_change")
        .values({
          batch_id: ctx.batchId,
          era_id: existing.id,
          action: "updated",
          previous: JSON.stringify(Object.fromEntries(changed.map((k) => [k, existing[k]]))),
        })
        .onConflict((oc) => oc.columns(["batch_id", "era_id"]).doNothing())
        .execute();
    }
  }

  /** Create songs: rows and credits as an upload writes them; each era they name made their artist's. */
  async function applyCreates(
    trx: Kysely<DB>,
    ctx: ApplyContext,
    creates: PlannedCreate[],
    cache: Map<string, string>,
  ) {
    const now = nowIso();
    const rows: Insertable<SongTable>[] = [];
    const credits: { songId: string; artistIds: string[] }[] = [];
    const lines: ChangeInput[] = [];
    for (const c of creates) {
      const ids: string[] = [];
      for (const name of c.row.artists) {
        const id = await artistIdOf(trx, name, cache);
        if (!ids.includes(id)) ids.push(id);
      }
      rows.push({
        id: c.id,
        title: c.row.title,
        title_key: c.row.titleKey,
        genre: c.row.genre,
        release_date: c.row.releaseDate,
        soundcloud_url: c.row.soundcloudUrl,
        submitted_by: ctx.submittedBy,
        status: ctx.asVerified ? "verified" : "pending",
        verified_at: ctx.asVerified ? now : null,
        verified_by: ctx.asVerified ? ctx.submittedBy : null,
        last_edited_by: null,
        last_edited_at: null,
        ...NO_AUDIO_COLUMNS,
        fingerprinted_at: null,
        fingerprint_preset: null,
        audio_match_song_id: null,
        audio_match_confidence: null,
        fake_at: null,
        fake_by: null,
        ...c.row.leak,
        tracker_removed_at: null,
        version_of: null,
        version_kind: null,
        import_batch_id: ctx.batchId,
        created_at: now,
        updated_at: now,
      });
      credits.push({ songId: c.id, artistIds: ids });
      if (ids[0]) lines.push({ artistId: ids[0], songId: c.id, line: c.line });
    }
    await repo.insertSongs(trx, rows);
    await repo.creditNewSongs(trx, credits);
    await repo.insertChanges(
      trx,
      rows.map((r) => ({ batch_id: ctx.batchId, song_id: r.id, action: "created" as const, previous: null })),
    );
    const eras = new Map<string, { artist_id: string; name: string; name_key: string }>();
    for (const [i, c] of credits.entries()) {
      const era = rows[i]?.era;
      const artistId = c.artistIds[0];
      if (!era || !artistId) continue;
      eras.set(`${artistId} ${nameKey(era)}`, { artist_id: artistId, name: era, name_key: nameKey(era) });
    }
    await repo.ensureEras(trx, [...eras.values()], now);
    return lines;
  }

  /** Change songs: the columns set, the replaced values recorded, a new era made. */
  async function applyUpdates(trx: Kysely<DB>, ctx: ApplyContext, updates: PlannedUpdate[]) {
    const now = nowIso();
    const lines: ChangeInput[] = [];
    const eras = new Map<string, { artist_id: string; name: string; name_key: string }>();
    for (const u of updates) {
      await repo.updateSong(trx, u.songId, { ...(u.set as Updateable<SongTable>), updated_at: now });
      await repo.insertChanges(trx, [
        {
          batch_id: ctx.batchId,
          song_id: u.songId,
          action: OUTCOME_ACTIONS[u.outcome],
          previous: JSON.stringify(u.previous),
        },
      ]);
      if (u.line && u.artistId) lines.push({ artistId: u.artistId, songId: u.songId, line: u.line });
      const era = u.set.era;
      if (typeof era === "string" && u.artistId)
        eras.set(`${u.artistId} ${nameKey(era)}`, { artist_id: u.artistId, name: era, name_key: nameKey(era) });
    }
    await repo.ensureEras(trx, [...eras.values()], now);
    return lines;
  }

  return {
    /**
     * Write a plan as batch `ctx.batchId`: the sheet's eras first, then songs in transactions of CHUNK_ROWS with
     * progress recorded, then (one transaction) a sync's link rows, the followers' notifications and the batch
     * marked done. `stopping` ends it between chunks (the server is shutting down): what was done stays undoable.
     */
    async apply(ctx: ApplyContext, plan: Plan, eras: SheetEra[], stopping: () => boolean): Promise<BatchTotals> {
      const cache = new Map<string, string>();
      const totals: BatchTotals = { created: 0, updated: 0, removed: 0, renamed: 0, skipped: plan.skips.length };
      const lines: ChangeInput[] = [];
      await database.tx((trx) => applyEras(trx, ctx, plan, eras, cache));
      const items: (PlannedCreate | PlannedUpdate)[] = [...plan.creates, ...plan.updates];
      let processed = plan.skips.length;
      for (let i = 0; i < items.length || i === 0; i += CHUNK_ROWS) {
        if (stopping()) throw new Error("server shutting down");
        const chunk = items.slice(i, i + CHUNK_ROWS);
        await database.tx(async (trx) => {
          const creates = chunk.filter((c): c is PlannedCreate => c.op === "create");
          const updates = chunk.filter((c): c is PlannedUpdate => c.op === "update");
          const written = [
            ...(creates.length > 0 ? await applyCreates(trx, ctx, creates, cache) : []),
            ...(updates.length > 0 ? await applyUpdates(trx, ctx, updates) : []),
          ];
          await changelog.record(trx, written, ctx.source, nowIso(), ctx.batchId);
          lines.push(...written);
          totals.created += creates.length;
          for (const u of updates) {
            if (u.outcome === "remove") totals.removed++;
            else if (u.outcome === "rename") totals.renamed++;
            else totals.updated++;
          }
          processed += chunk.length;
          await repo.updateBatch(trx, ctx.batchId, {
            processed_rows: processed,
            created_count: totals.created,
            updated_count: totals.updated,
            skipped_count: totals.skipped,
            removed_count: totals.removed,
            renamed_count: totals.renamed,
          });
        });
        // Other requests get their turn between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const told = await database.tx(async (trx) => {
        if (ctx.linkId && plan.linkRows) await repo.writeLinkRows(trx, ctx.linkId, plan.linkRows);
        await repo.updateBatch(trx, ctx.batchId, { status: "done", finished_at: nowIso() });
        return changelog.notifyFollowers(trx, lines, ctx.source, ctx.batchId);
      });
      await notifier.announce(told).catch((err) => log.warn({ err }, "notification events not sent"));
      if (totals.created + totals.updated + totals.removed + totals.renamed > 0)
        await bus
          .publish({ type: "song.changed", songId: ctx.batchId, data: { created: true, importBatch: ctx.batchId } })
          .catch((err) => log.warn({ err, batchId: ctx.batchId }, "import event not sent"));
      // Created songs are the importer's uploads: their open profile shows the new count.
      if (totals.created > 0 && ctx.submittedBy)
        await bus
          .publish({ type: "me.changed", userId: ctx.submittedBy })
          .catch((err) => log.warn({ err, batchId: ctx.batchId }, "import event not sent"));
      return totals;
    },

    /**
     * Undo a batch inside `trx`: the songs it created are deleted (credits, votes and favourites with
     * them, as a song deletion does), the songs it changed get their previous values back, the eras it made go and
     * those it changed are restored, and its changelog lines go. A sync's link is paused and forgets the rows the
     * batch touched, so nothing is applied again until an admin resumes it. Returns how many songs were deleted
     * and restored.
     */
    async undo(
      trx: Kysely<DB>,
      batchId: string,
      linkId: string | null,
    ): Promise<{ deleted: number; restored: number }> {
      const changes = await repo.changesOf(trx, batchId);
      if (linkId) {
        const touched = changes.filter((c) => c.action !== "created").map((c) => c.song_id);
        for (let i = 0; i < touched.length; i += 500)
          await trx
            .updateTable("tracker_link_row")
            .set({ content_hash: null, removed: false })
            .where("link_id", "=", linkId)
            .where("song_id", "in", touched.slice(i, i + 500))
            .execute();
        await trx
          .updateTable("tracker_link")
          .set({ status: "paused", content_sha256: null, etag: null, last_modified: null, updated_at: nowIso() })
          .where("id", "=", linkId)
          .execute();
      }
      const deleted = await repo.deleteCreatedSongs(trx, batchId);
      const now = nowIso();
      let restored = 0;
      for (const c of changes) {
        if (c.action === "created" || !c.previous) continue;
        const previous = JSON.parse(c.previous) as SongColumns;
        const values = Object.fromEntries(
          RESTORABLE_COLUMNS.filter((col) => col in previous).map((col) => [col, previous[col] ?? null]),
        );
        await repo.updateSong(trx, c.song_id, { ...(values as Updateable<SongTable>), updated_at: now });
        restored++;
      }
      for (const e of await trx.selectFrom("import_era_change").selectAll().where("batch_id", "=", batchId).execute()) {
        if (e.action === "created") await trx.deleteFrom("era").where("id", "=", e.era_id).execute();
        else if (e.previous)
          await trx
            .updateTable("era")
            .set({ ...(JSON.parse(e.previous) as Record<string, string | null>), updated_at: now })
            .where("id", "=", e.era_id)
            .execute();
      }
      await changelog.forgetBatch(trx, batchId);
      return { deleted, restored };
    },
  };
}

/** The batch applier type. */
export type BatchApplier = ReturnType<typeof createBatchApplier>;

/** Serialise batch starts across instances on PostgreSQL (SQLite's write transaction already does). */
export async function lockImports(trx: Kysely<DB>, dialect: Database["dialect"]): Promise<void> {
  if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext('unheard:import'))`.execute(trx);
}

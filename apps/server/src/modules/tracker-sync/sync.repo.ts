import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB, TrackerLinkTable } from "../../db/schema.js";

type Db = Kysely<DB>;

/** The job kind of a sync; its payload is exactly `{ linkId }`, so a queued sync of a link can be found. */
export const SYNC_JOB = "tracker.sync";

/** A link as read, with its artist's and creator's names. */
export type LinkRow = Selectable<TrackerLinkTable> & { artist_name: string; creator_name: string | null };

/** SQL of sync links. */
export function createSyncRepo(database: Database) {
  const { db, dialect } = database;
  const links = (trx: Db) =>
    trx
      .selectFrom("tracker_link")
      .innerJoin("user as artist", "artist.id", "tracker_link.artist_id")
      .leftJoin("user as creator", "creator.id", "tracker_link.created_by")
      .selectAll("tracker_link")
      .select(["artist.username as artist_name", "creator.username as creator_name"]);
  return {
    find(id: string, trx: Db = db): Promise<LinkRow | undefined> {
      return links(trx).where("tracker_link.id", "=", id).executeTakeFirst();
    },

    byArtist(artistId: string, trx: Db = db): Promise<LinkRow | undefined> {
      return links(trx).where("tracker_link.artist_id", "=", artistId).executeTakeFirst();
    },

    list(): Promise<LinkRow[]> {
      return links(db).orderBy("artist.username").limit(500).execute();
    },

    insert(trx: Db, row: Insertable<TrackerLinkTable>): Promise<unknown> {
      return trx.insertInto("tracker_link").values(row).execute();
    },

    update(trx: Db, id: string, values: Updateable<TrackerLinkTable>): Promise<unknown> {
      return trx.updateTable("tracker_link").set(values).where("id", "=", id).execute();
    },

    delete(trx: Db, id: string): Promise<unknown> {
      return trx.deleteFrom("tracker_link").where("id", "=", id).execute();
    },

    /** Hold a link for one sync until `until`, unless another holds it; whether this one got it. */
    async lease(id: string, now: string, until: string): Promise<boolean> {
      const res = await db
        .updateTable("tracker_link")
        .set({ lease_until: until })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    release(id: string): Promise<unknown> {
      return db.updateTable("tracker_link").set({ lease_until: null }).where("id", "=", id).execute();
    },

    /** Links due for a sync (several instances: each skips the rows another is claiming). */
    due(trx: Db, now: string, limit: number) {
      let q = trx
        .selectFrom("tracker_link")
        .select(["id", "interval_minutes", "next_sync_at"])
        .where("status", "=", "active")
        .where("next_sync_at", "<=", now)
        .orderBy("next_sync_at")
        .limit(limit);
      if (dialect === "postgres") q = q.forUpdate().skipLocked();
      return q.execute();
    },

    /** Move a due link's next sync on, only if it is still due: one claim per due time, whatever the instances. */
    async claimDue(trx: Db, id: string, now: string, next: string): Promise<boolean> {
      const res = await trx
        .updateTable("tracker_link")
        .set({ next_sync_at: next })
        .where("id", "=", id)
        .where("next_sync_at", "<=", now)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Links with a sync waiting (`running`: or running). */
    async queued(ids: string[], trx: Db = db, running = false): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await trx
        .selectFrom("job")
        .select("payload")
        .where("kind", "=", SYNC_JOB)
        .where("status", "in", running ? ["queued", "running"] : ["queued"])
        .where(
          "payload",
          "in",
          ids.map((linkId) => JSON.stringify({ linkId })),
        )
        .execute();
      return new Set(rows.map((r) => (JSON.parse(r.payload) as { linkId: string }).linkId));
    },

    /** The newest batches of links: the one awaiting approval and the last applied, per link. */
    async batchesOf(linkIds: string[]) {
      if (linkIds.length === 0) return [];
      return db
        .selectFrom("import_batch")
        .select(["id", "link_id", "status", "created_at"])
        .where("link_id", "in", linkIds)
        .where("status", "in", ["awaiting_approval", "done", "running", "failed"])
        .orderBy("created_at", "desc")
        .limit(linkIds.length * 20)
        .execute();
    },

    /** A link's batches waiting for approval. */
    awaiting(trx: Db, linkId: string) {
      return trx
        .selectFrom("import_batch")
        .select("id")
        .where("link_id", "=", linkId)
        .where("status", "=", "awaiting_approval")
        .execute();
    },
  };
}

/** The sync repo type. */
export type SyncRepo = ReturnType<typeof createSyncRepo>;

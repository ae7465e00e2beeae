import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/**
 * Trackers as the community keeps them (issue 37, decision 030).
 * - song.links: where a leak can be found (JSON array of http(s) addresses, a tracker's "Link(s)" cell);
 *   song.tracker_removed_at: when the artist's linked sheet stopped listing the song (it stays on Unheard).
 * - era.sheet_counts: an era's counts as its sheet's era header row states them (JSON [{count, label}]).
 * - tracker_link: an artist's tracker linked to a published sheet, its schedule, the validators of the last fetch and
 *   its last error; tracker_link_row: each sheet row's identity (title, era, version label), the song it is and a
 *   hash of its content, so an unchanged row costs no write.
 * - import_batch: a sync is a batch too (source, link), and may wait for approval with its dry run (plan) and why.
 *   import_era_change: what a batch did to eras, for its undo.
 * - artist_change: each artist's changelog (new songs, upgrades, removals, renames), with its source.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const song = () => db.schema.alterTable("song");
  await song().addColumn("links", "text").execute();
  await song().addColumn("tracker_removed_at", t.ts).execute();
  await db.schema.alterTable("era").addColumn("sheet_counts", "text").execute();

  await db.schema
    .createTable("tracker_link")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("artist_id", "text", (c) => c.notNull().unique().references("user.id").onDelete("cascade"))
    .addColumn("source_url", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("interval_minutes", "integer", (c) => c.notNull())
    .addColumn("as_verified", t.bool, (c) => c.notNull().defaultTo(t.falseValue))
    // How the sheet is read (tabs, header rows, mappings, legend; JSON).
    .addColumn("options", "text", (c) => c.notNull())
    // active | paused; awaiting its first approval while approved_at is null.
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("approved_at", t.ts)
    .addColumn("created_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .addColumn("etag", "text")
    .addColumn("last_modified", "text")
    // The last fetched body's hash: the same bytes again change nothing.
    .addColumn("content_sha256", "text")
    .addColumn("last_checked_at", t.ts)
    .addColumn("last_changed_at", t.ts)
    .addColumn("last_error", "text")
    .addColumn("last_error_at", t.ts)
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_sync_at", t.ts)
    // A sync holds the link until then (one sync of a link at a time, across instances).
    .addColumn("lease_until", t.ts)
    .execute();
  await db.schema.createIndex("tracker_link_due_idx").on("tracker_link").columns(["status", "next_sync_at"]).execute();
  await db.schema
    .createTable("tracker_link_row")
    .addColumn("link_id", "text", (c) => c.notNull().references("tracker_link.id").onDelete("cascade"))
    .addColumn("row_key", "text", (c) => c.notNull())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    // null: compare the row with its song again at the next sync (after an undo).
    .addColumn("content_hash", "text")
    // The row without its title and era: a row renamed (or moved to another era) keeps it.
    .addColumn("rest_hash", "text")
    .addColumn("removed", t.bool, (c) => c.notNull().defaultTo(t.falseValue))
    .addPrimaryKeyConstraint("tracker_link_row_pk", ["link_id", "row_key"])
    .execute();
  await db.schema.createIndex("tracker_link_row_song_idx").on("tracker_link_row").column("song_id").execute();

  const batch = () => db.schema.alterTable("import_batch");
  await batch()
    .addColumn("source", "text", (c) => c.notNull().defaultTo("file"))
    .execute();
  await batch()
    .addColumn("link_id", "text", (c) => c.references("tracker_link.id").onDelete("set null"))
    .execute();
  await batch().addColumn("plan", "text").execute();
  await batch().addColumn("hold_reason", "text").execute();
  await batch()
    .addColumn("approved_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .execute();
  await batch()
    .addColumn("removed_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await batch()
    .addColumn("renamed_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("import_batch_link_idx").on("import_batch").columns(["link_id", "status"]).execute();
  await db.schema
    .createTable("import_era_change")
    .addColumn("batch_id", "text", (c) => c.notNull().references("import_batch.id").onDelete("cascade"))
    .addColumn("era_id", "text", (c) => c.notNull().references("era.id").onDelete("cascade"))
    // created | updated
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("previous", "text")
    .addPrimaryKeyConstraint("import_era_change_pk", ["batch_id", "era_id"])
    .execute();

  await db.schema
    .createTable("artist_change")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("artist_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("song_id", "text", (c) => c.references("song.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("batch_id", "text", (c) => c.references("import_batch.id").onDelete("cascade"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("artist_change_artist_idx")
    .on("artist_change")
    .columns(["artist_id", "created_at", "id"])
    .execute();
  await db.schema.createIndex("artist_change_created_idx").on("artist_change").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("artist_change_song_idx").on("artist_change").column("song_id").execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("artist_change").execute();
  await db.schema.dropTable("import_era_change").execute();
  await db.schema.dropIndex("import_batch_link_idx").execute();
  for (const c of ["renamed_count", "removed_count", "approved_by", "hold_reason", "plan", "link_id", "source"]) {
    await db.schema.alterTable("import_batch").dropColumn(c).execute();
  }
  await db.schema.dropTable("tracker_link_row").execute();
  await db.schema.dropTable("tracker_link").execute();
  await db.schema.alterTable("era").dropColumn("sheet_counts").execute();
  await db.schema.alterTable("song").dropColumn("tracker_removed_at").execute();
  await db.schema.alterTable("song").dropColumn("links").execute();
}

import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/**
 * Tracker data (issue 16): a song's leak details (era, producers, features, leak date, availability, quality,
 * notes), the song it is a version of, and bulk imports from tracker spreadsheets: each import is a batch whose
 * changes are recorded (the values an update replaced) so the batch can be undone as one; the column mapping an
 * admin chose is remembered per header row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const song = () => db.schema.alterTable("song");
  await song().addColumn("era", "text").execute();
  // JSON arrays of names.
  await song().addColumn("producers", "text").execute();
  await song().addColumn("features", "text").execute();
  // YYYY-MM-DD, like release_date.
  await song().addColumn("leak_date", "text").execute();
  await song().addColumn("availability", "text").execute();
  await song().addColumn("quality", "text").execute();
  await song().addColumn("notes", "text").execute();
  await song()
    .addColumn("version_of", "text", (c) => c.references("song.id").onDelete("set null"))
    .execute();
  await song().addColumn("version_kind", "text").execute();
  await song().addColumn("import_batch_id", "text").execute();
  await db.schema.createIndex("song_version_of_idx").on("song").column("version_of").execute();
  await db.schema.createIndex("song_availability_idx").on("song").columns(["availability", "status"]).execute();
  await db.schema.createIndex("song_quality_idx").on("song").columns(["quality", "status"]).execute();

  await db.schema
    .createTable("import_batch")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("file_sha256", "text", (c) => c.notNull())
    // The mapping and options the batch ran with (JSON).
    .addColumn("options", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("total_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("finished_at", t.ts)
    .addColumn("undone_at", t.ts)
    .addColumn("undone_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .execute();
  await db.schema
    .createTable("import_change")
    .addColumn("batch_id", "text", (c) => c.notNull().references("import_batch.id").onDelete("cascade"))
    .addColumn("song_id", "text", (c) => c.notNull())
    // created | updated
    .addColumn("action", "text", (c) => c.notNull())
    // For updates: the song's columns the import replaced, as they were (JSON).
    .addColumn("previous", "text")
    .addPrimaryKeyConstraint("import_change_pk", ["batch_id", "song_id"])
    .execute();
  await db.schema
    .createTable("import_mapping")
    // A hash of the file's normalised header row.
    .addColumn("header_key", "text", (c) => c.primaryKey())
    .addColumn("mapping", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("import_mapping").execute();
  await db.schema.dropTable("import_change").execute();
  await db.schema.dropTable("import_batch").execute();
  for (const i of ["song_quality_idx", "song_availability_idx", "song_version_of_idx"]) {
    await db.schema.dropIndex(i).execute();
  }
  for (const c of [
    "import_batch_id",
    "version_kind",
    "version_of",
    "notes",
    "quality",
    "availability",
    "leak_date",
    "features",
    "producers",
    "era",
  ]) {
    await db.schema.alterTable("song").dropColumn(c).execute();
  }
}

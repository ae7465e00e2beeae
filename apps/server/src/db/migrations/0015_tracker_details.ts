import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/**
 * Tracker details (issue 27): what community trackers keep of a song beyond issue 16's leak details, so an import
 * loses nothing: reference credits ("(ref. X)"), aliases ("(Alt: X)", "[aka X]"; search finds them), a version
 * label ("[V2]"), tags from the marks before a title (JSON arrays), the leaked file's own date (YYYY-MM-DD) and
 * the track's length in seconds. The new availability and quality values are text like the old ones.
 * An era is an artist's: a song belongs to the era its `era` names, of its first credited artist; the era row
 * holds what a tracker says of the era itself (a description, a cover, the span when it is known).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("era")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("artist_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("cover_url", "text")
    // YYYY-MM or YYYY-MM-DD; null: the span of the songs' leak dates.
    .addColumn("starts_on", "text")
    .addColumn("ends_on", "text")
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .addUniqueConstraint("era_artist_name_key", ["artist_id", "name_key"])
    .execute();
  const song = () => db.schema.alterTable("song");
  await song().addColumn("reference_names", "text").execute();
  await song().addColumn("aliases", "text").execute();
  await song().addColumn("version_label", "text").execute();
  await song().addColumn("tags", "text").execute();
  await song().addColumn("file_date", "text").execute();
  await song().addColumn("track_length", "integer").execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("era").execute();
  for (const c of ["track_length", "file_date", "tags", "version_label", "aliases", "reference_names"]) {
    await db.schema.alterTable("song").dropColumn(c).execute();
  }
}

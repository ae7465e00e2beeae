import type { Kysely } from "kysely";

/**
 * Tracker details (issue 27): what community trackers keep of a song beyond issue 16's leak details, so an import
 * loses nothing: reference credits ("(ref. X)"), aliases ("(Alt: X)", "[aka X]"; search finds them), a version
 * label ("[V2]"), tags from the marks before a title (JSON arrays), the leaked file's own date (YYYY-MM-DD) and
 * the track's length in seconds. The new availability and quality values are text like the old ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
  for (const c of ["track_length", "file_date", "tags", "version_label", "aliases", "reference_names"]) {
    await db.schema.alterTable("song").dropColumn(c).execute();
  }
}

import type { Kysely } from "kysely";

/**
 * A clip attached to a report (issue 39): a member who identified a song may send the clip with a report of it, so
 * an admin can listen. report.clip_key names the file under $DATA_DIR/report-clips (null: none, or deleted once
 * the report was handled); clip_mime is its type as sniffed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("report").addColumn("clip_key", "text").execute();
  await db.schema.alterTable("report").addColumn("clip_mime", "text").execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("report").dropColumn("clip_mime").execute();
  await db.schema.alterTable("report").dropColumn("clip_key").execute();
}

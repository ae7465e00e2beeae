import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/** Audio fingerprint bookkeeping on songs: when and with which preset they were indexed, and duplicate matches. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("song").addColumn("fingerprinted_at", t.ts).execute();
  await db.schema.alterTable("song").addColumn("fingerprint_preset", "text").execute();
  await db.schema
    .alterTable("song")
    .addColumn("audio_match_song_id", "text", (c) => c.references("song.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("song").addColumn("audio_match_confidence", t.real).execute();
  await db.schema.createIndex("job_kind_idx").on("job").columns(["kind", "status"]).execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("job_kind_idx").execute();
  for (const c of ["audio_match_confidence", "audio_match_song_id", "fingerprint_preset", "fingerprinted_at"]) {
    await db.schema.alterTable("song").dropColumn(c).execute();
  }
}

import type { Kysely } from "kysely";

/**
 * The fingerprint lookup index covers the rows it finds (issue 17, decision 021). Recognition reads every stored
 * row of a clip's hashes: through an index on hash alone each row cost one more seek into the table, which made
 * the lookup the slowest part of recognising a clip at 100 hours of audio and beyond. With (hash, song_id, offset)
 * in the index the rows are read from it in order (SQLite) or by an index-only scan (PostgreSQL). Same name, so
 * nothing else changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("fingerprint_hash_idx").execute();
  await db.schema
    .createIndex("fingerprint_hash_idx")
    .on("fingerprint")
    .columns(["hash", "song_id", "offset"])
    .execute();
}

/** Back to the index on hash alone. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("fingerprint_hash_idx").execute();
  await db.schema.createIndex("fingerprint_hash_idx").on("fingerprint").column("hash").execute();
}

import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";

type Db = Kysely<DB>;

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits (3 per row). */
const INSERT_BATCH = 5000;
/** Hashes per IN (...) lookup. */
const LOOKUP_BATCH = 900;

/** SQL for the fingerprint table: (hash, song_id, offset) with an index on hash. */
export function createFingerprintsRepo(database: Database) {
  const { db } = database;
  return {
    /** Replace a song's hashes. */
    async replace(trx: Db, songId: string, hashes: Int32Array, offsets: Int32Array, count: number): Promise<void> {
      await trx.deleteFrom("fingerprint").where("song_id", "=", songId).execute();
      for (let i = 0; i < count; i += INSERT_BATCH) {
        const rows = [];
        for (let j = i; j < Math.min(count, i + INSERT_BATCH); j++) {
          rows.push({ hash: hashes[j] as number, song_id: songId, offset: offsets[j] as number });
        }
        await trx.insertInto("fingerprint").values(rows).execute();
      }
    },

    /**
     * Stored rows for the given hashes, leaving out hashes stored more than `maxPostings` times (index-time pruning
     * done at read time: such hashes say nothing about which song it is).
     */
    async postings(
      hashes: number[],
      maxPostings: number | null,
    ): Promise<{ hash: number; songId: string; offset: number }[]> {
      const out: { hash: number; songId: string; offset: number }[] = [];
      for (let i = 0; i < hashes.length; i += LOOKUP_BATCH) {
        let batch = hashes.slice(i, i + LOOKUP_BATCH);
        if (maxPostings !== null) {
          const common = await db
            .selectFrom("fingerprint")
            .select("hash")
            .where("hash", "in", batch)
            .groupBy("hash")
            .having(sql`count(*)`, ">", maxPostings)
            .execute();
          if (common.length > 0) {
            const drop = new Set(common.map((c) => Number(c.hash)));
            batch = batch.filter((h) => !drop.has(h));
          }
        }
        if (batch.length === 0) continue;
        const rows = await db
          .selectFrom("fingerprint")
          .select(["hash", "song_id", "offset"])
          .where("hash", "in", batch)
          .execute();
        for (const r of rows) out.push({ hash: Number(r.hash), songId: r.song_id, offset: Number(r.offset) });
      }
      return out;
    },

    async count(songId: string): Promise<number> {
      const row = await db
        .selectFrom("fingerprint")
        .select(sql<number>`count(*)`.as("n"))
        .where("song_id", "=", songId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Songs with audio that have never been indexed (or were indexed with another preset). */
    unindexed(preset: string) {
      return db
        .selectFrom("song")
        .select(["id", "title"])
        .where("audio_key", "is not", null)
        .where((eb) => eb.or([eb("fingerprinted_at", "is", null), eb("fingerprint_preset", "!=", preset)]))
        .orderBy("created_at")
        .execute();
    },
  };
}

/** The fingerprints repo type. */
export type FingerprintsRepo = ReturnType<typeof createFingerprintsRepo>;

import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";

type Db = Kysely<DB>;

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits (3 per row). */
const INSERT_BATCH = 5000;
/** Hashes per IN (...) lookup. */
const LOOKUP_BATCH = 900;

/**
 * Stored rows as the database hands them over: per statement, three JSON arrays of one length (hashes, song ids,
 * offsets; null for none), parsed off the event loop by `parsePostings`.
 */
export type PostingsJson = JsonBatch[];
type JsonBatch = { h: string | null; s: string | null; o: string | null };

/** SQL for the fingerprint table: (hash, song_id, offset) with an index on hash. */
export function createFingerprintsRepo(database: Database) {
  const { db } = database;
  // One JSON array per column, as text on both engines (PostgreSQL's driver would parse json on this thread).
  const values = (hashes: readonly number[]) => sql.join(hashes.map((h) => sql`(cast(${h} as integer))`));
  const agg = (column: string) =>
    sql.raw(database.dialect === "postgres" ? `json_agg(${column})::text` : `json_group_array(${column})`);
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
     * Every stored row of the given hashes (chosen from their counts, `hashCounts`). Decision 021: one statement per
     * batch, the rows read from the covering index on (hash, song_id, offset) without touching the table (migration
     * 0011), returned as three JSON arrays (one aggregate pass, so in the same order). Decision 029: the arrays stay
     * text here, parsed on the audio pool's threads (`parsePostings`) where the matching runs.
     */
    async postings(hashes: readonly number[]): Promise<PostingsJson> {
      const out: PostingsJson = [];
      for (let i = 0; i < hashes.length; i += LOOKUP_BATCH) {
        const { rows } = await sql<JsonBatch>`
          with q(h) as (values ${values(hashes.slice(i, i + LOOKUP_BATCH))})
          select ${agg("f.hash")} as h, ${agg("f.song_id")} as s, ${agg('f."offset"')} as o
          from fingerprint f where f.hash in (select h from q)`.execute(db);
        if (rows[0]) out.push(rows[0]);
      }
      return out;
    },

    /** How many rows each of the given hashes has, for the stored ones (`fingerprint_hash`, migration 0017). */
    async hashCounts(hashes: readonly number[]): Promise<{ hashes: number[]; counts: number[] }> {
      const out = { hashes: [] as number[], counts: [] as number[] };
      for (let i = 0; i < hashes.length; i += LOOKUP_BATCH) {
        const { rows } = await sql<{ hash: number; n: number }>`
          with q(h) as (values ${values(hashes.slice(i, i + LOOKUP_BATCH))})
          select hash, n from fingerprint_hash where hash in (select h from q) and n > 0`.execute(db);
        for (const r of rows) {
          out.hashes.push(Number(r.hash));
          out.counts.push(Number(r.n));
        }
      }
      return out;
    },

    /** Every stored row of the given songs (through the index on song_id), e.g. to verify a few candidates. */
    async songRows(songIds: readonly string[]): Promise<PostingsJson> {
      const out: PostingsJson = [];
      const ids = [...new Set(songIds)];
      for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
        const { rows } = await sql<JsonBatch>`
          select ${agg("hash")} as h, ${agg("song_id")} as s, ${agg('"offset"')} as o
          from fingerprint where song_id in (${sql.join(ids.slice(i, i + LOOKUP_BATCH))})`.execute(db);
        if (rows[0]) out.push(rows[0]);
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

    /** Songs with audio never indexed, or indexed with another preset or invariant index (decision 033). */
    unindexed(preset: string, invariant: string) {
      return db
        .selectFrom("song")
        .select(["id", "title"])
        .where("audio_key", "is not", null)
        .where((eb) =>
          eb.or([
            eb("fingerprinted_at", "is", null),
            eb("fingerprint_preset", "!=", preset),
            eb("invariant_preset", "is", null),
            eb("invariant_preset", "!=", invariant),
          ]),
        )
        .orderBy("created_at")
        .execute();
    },
  };
}

/** The fingerprints repo type. */
export type FingerprintsRepo = ReturnType<typeof createFingerprintsRepo>;

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
     * done at read time: such hashes say nothing about which song it is). Decision 021: one statement per batch; a
     * hash is kept when it has no row past the first `maxPostings` (an over-common hash costs that many index
     * entries, never all of its thousands), the kept hashes' rows are read from the covering index on
     * (hash, song_id, offset) without touching the table (migration 0011), and they come back as three JSON arrays
     * (one aggregate pass, so in the same order) and are handed on as columns: a JS object per row cost more than
     * the reading.
     */
    async postings(
      hashes: number[],
      maxPostings: number | null,
    ): Promise<{ hashes: number[]; songIds: string[]; offsets: number[] }> {
      const out = { hashes: [] as number[], songIds: [] as string[], offsets: [] as number[] };
      const agg = sql.raw(database.dialect === "postgres" ? "json_agg" : "json_group_array");
      for (let i = 0; i < hashes.length; i += LOOKUP_BATCH) {
        const batch = hashes.slice(i, i + LOOKUP_BATCH);
        const kept =
          maxPostings === null
            ? sql`select h from q`
            : sql`select h from q where not exists (select 1 from fingerprint c where c.hash = q.h limit 1 offset ${maxPostings})`;
        const { rows } = await sql<{ h: unknown; s: unknown; o: unknown }>`
          with q(h) as (values ${sql.join(batch.map((h) => sql`(cast(${h} as integer))`))})
          select ${agg}(f.hash) as h, ${agg}(f.song_id) as s, ${agg}(f."offset") as o
          from fingerprint f where f.hash in (${kept})`.execute(db);
        const row = rows[0];
        // SQLite hands JSON back as text, PostgreSQL's driver parses it; no rows: "[]" or null.
        const list = <T>(v: unknown): T[] => (typeof v === "string" ? (JSON.parse(v) as T[]) : ((v ?? []) as T[]));
        const h = list<number>(row?.h);
        const s = list<string>(row?.s);
        const o = list<number>(row?.o);
        for (let k = 0; k < h.length; k++) {
          out.hashes.push(Number(h[k]));
          out.songIds.push(s[k] as string);
          out.offsets.push(Number(o[k]));
        }
      }
      return out;
    },

    /** Every stored row of the given songs (through the index on song_id), e.g. to verify a few candidates. */
    async songRows(songIds: readonly string[]): Promise<{ hash: number; songId: string; offset: number }[]> {
      const out: { hash: number; songId: string; offset: number }[] = [];
      const ids = [...new Set(songIds)];
      for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
        const rows = await db
          .selectFrom("fingerprint")
          .select(["hash", "song_id", "offset"])
          .where("song_id", "in", ids.slice(i, i + LOOKUP_BATCH))
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

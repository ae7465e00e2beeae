import { compositeKey, type LookupUnit } from "@unheard/fingerprint";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { nowIso } from "../../lib/time.js";

type Db = Kysely<DB>;

/** Rows per INSERT (3 parameters a row): under both engines' bound-parameter limits. */
const INSERT_BATCH = 5000;
/** Keys per IN (...) lookup. */
const LOOKUP_BATCH = 900;
/** Ranges per read statement (2 parameters each). */
const RANGE_BATCH = 400;

/** A song's entries as analysed: keys, and packed entries whose song field is 0 (`packInvariantEntry(0, ...)`). */
export type InvariantEntries = { count: number; keys: Int32Array; hi: Uint32Array; lo: Uint32Array };

/**
 * Rows of one key as the database hands them over: their count, and the entries' high and low words as JSON arrays
 * (text, parsed on the audio pool's threads where the matching runs, as decision 029 does for the plain pass).
 */
export type TripletRowsJson = { key: number; n: number; h: string; l: string };

/** SQL of the invariant index (migration 0020, decision 033). */
export function createTripletsRepo(database: Database) {
  const { db } = database;
  const pg = database.dialect === "postgres";
  const int = (x: number) => (pg ? sql`cast(${x} as bigint)` : sql`cast(${x} as integer)`);
  const agg = (expr: string) => sql.raw(pg ? `json_agg(${expr})::text` : `json_group_array(${expr})`);

  return {
    /**
     * Replace a song's entries: its old number (if any) loses the song, a new number is taken, and its entries are
     * written under it. The old rows stay until `sweep`; lookups leave them out (`retired`).
     */
    async replace(trx: Db, songId: string, entries: InvariantEntries): Promise<number> {
      await trx.updateTable("fingerprint_song").set({ song_id: null }).where("song_id", "=", songId).execute();
      const { no } = await trx
        .insertInto("fingerprint_song")
        .values({ song_id: songId, created_at: nowIso() })
        .returning("no")
        .executeTakeFirstOrThrow();
      const songBits = Number(no) * 4096;
      for (let i = 0; i < entries.count; i += INSERT_BATCH) {
        const rows = [];
        for (let j = i; j < Math.min(entries.count, i + INSERT_BATCH); j++) {
          const lo = entries.lo[j] as number;
          const hi = songBits + ((entries.hi[j] as number) % 4096);
          // The entry's 64 bits made in SQL: a number past 2^53 would lose bits on its way from JavaScript.
          rows.push(sql`(${int(compositeKey(entries.keys[j] as number, lo))}, (${int(hi)} << 32) | ${int(lo)})`);
        }
        await sql`insert into fingerprint_triplet (ckey, entry) values ${sql.join(rows)}
          on conflict do nothing`.execute(trx);
      }
      return Number(no);
    },

    /** Whole-key row counts of the given keys, for the stored ones. */
    async keyCounts(keys: readonly number[]): Promise<Map<number, number>> {
      const out = new Map<number, number>();
      for (let i = 0; i < keys.length; i += LOOKUP_BATCH) {
        const { rows } = await sql<{ key: number; n: number }>`
          with q(k) as (values ${sql.join(keys.slice(i, i + LOOKUP_BATCH).map((k) => sql`(${int(k)})`))})
          select key, n from fingerprint_triplet_key where key in (select k from q) and n > 0`.execute(db);
        for (const r of rows) out.set(Number(r.key), Number(r.n));
      }
      return out;
    },

    /**
     * The rows of `units` (in their order) until `budget`: read a batch of units at a time, one row per key with its
     * count, and stop at the first unit whose rows pass the budget (it and the rest are not used).
     */
    async read(units: readonly LookupUnit[], budget: number): Promise<{ rows: TripletRowsJson[]; count: number }> {
      const out: TripletRowsJson[] = [];
      let total = 0;
      let u = 0;
      while (u < units.length) {
        const batch: LookupUnit[] = [];
        let ranges = 0;
        while (
          u < units.length &&
          (batch.length === 0 || ranges + (units[u] as LookupUnit).ranges.length <= RANGE_BATCH)
        ) {
          const unit = units[u++] as LookupUnit;
          batch.push(unit);
          ranges += unit.ranges.length;
        }
        const values = batch.flatMap((unit) => unit.ranges.map(([a, b]) => sql`(${int(a)}, ${int(b)})`));
        const { rows } = await sql<{ key: number; n: number; h: string; l: string }>`
          with r(a, b) as (values ${sql.join(values)})
          select t.ckey / 330 as key, count(*) as n,
            ${agg("(t.entry >> 32) & 4294967295")} as h, ${agg("t.entry & 4294967295")} as l
          from r join fingerprint_triplet t on t.ckey between r.a and r.b
          group by t.ckey / 330`.execute(db);
        const byKey = new Map(rows.map((r) => [Number(r.key), r]));
        for (const unit of batch) {
          const row = byKey.get(unit.key);
          const n = row ? Number(row.n) : 0;
          if (total + n > budget) return { rows: out, count: total };
          total += n;
          if (row) out.push({ key: unit.key, n, h: row.h, l: row.l });
        }
      }
      return { rows: out, count: total };
    },

    /** Song ids of the given numbers (numbers that lost their song are absent). */
    async songsOf(numbers: readonly number[]): Promise<Map<number, string>> {
      const out = new Map<number, string>();
      if (numbers.length === 0) return out;
      const rows = await db
        .selectFrom("fingerprint_song")
        .select(["no", "song_id"])
        .where("no", "in", [...new Set(numbers)])
        .where("song_id", "is not", null)
        .execute();
      for (const r of rows) out.set(Number(r.no), r.song_id as string);
      return out;
    },

    /** Numbers that lost their song and whose rows the sweep has not deleted yet. */
    async retired(): Promise<number[]> {
      const rows = await db.selectFrom("fingerprint_song").select("no").where("song_id", "is", null).execute();
      return rows.map((r) => Number(r.no));
    },

    /**
     * Delete the rows of numbers that lost their song, a slice of the key space per transaction (short write
     * locks on SQLite), then the numbers themselves. Returns the rows deleted.
     */
    async sweep(numbers: readonly number[], slices = 64): Promise<number> {
      if (numbers.length === 0) return 0;
      const top = await db.selectFrom("fingerprint_triplet").select(sql<number>`max(ckey)`.as("m")).executeTakeFirst();
      const max = Number(top?.m ?? -1);
      let deleted = 0;
      const step = Math.max(1, Math.ceil((max + 1) / slices));
      const list = sql.join(numbers.map((n) => int(n)));
      for (let a = 0; a <= max; a += step) {
        const res = await sql`delete from fingerprint_triplet where ckey >= ${int(a)} and ckey < ${int(a + step)}
          and ((entry >> 44) & 1048575) in (${list})`.execute(db);
        deleted += Number(res.numAffectedRows ?? 0);
      }
      await db
        .deleteFrom("fingerprint_song")
        .where("no", "in", [...numbers])
        .where("song_id", "is", null)
        .execute();
      return deleted;
    },

    /** Stored entries of a song (its current number). */
    async count(songId: string): Promise<number> {
      const row = await db.selectFrom("fingerprint_song").select("no").where("song_id", "=", songId).executeTakeFirst();
      if (!row) return 0;
      const { rows } = await sql<{ n: number }>`select count(*) as n from fingerprint_triplet
        where ((entry >> 44) & 1048575) = ${int(Number(row.no))}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** The triplets repo type. */
export type TripletsRepo = ReturnType<typeof createTripletsRepo>;

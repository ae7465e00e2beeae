import { rarestWithin } from "@unheard/fingerprint";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { DB } from "../../db/schema.js";
import { nowIso } from "../../lib/time.js";
import { describeEachDialect, useTestDatabase } from "../../test/harness.js";
import { createFingerprintsRepo, type PostingsJson } from "./fingerprints.repo.js";
import { parsePostings } from "./recognition-tasks.js";

type Row = { hash: number; songId: string; offset: number };

/** Bare songs to hang fingerprint rows on. */
async function insertSongs(db: Kysely<DB>, ids: string[]): Promise<void> {
  const now = nowIso();
  const song = (id: string) => ({
    id,
    title: id,
    title_key: id,
    genre: "Pop",
    release_date: null,
    soundcloud_url: null,
    submitted_by: null,
    created_at: now,
    updated_at: now,
  });
  await db.insertInto("song").values(ids.map(song)).execute();
}

/** The rows read, parsed as the audio pool's threads parse them, to compare whole rows. */
function asRows(json: PostingsJson): Row[] {
  const c = parsePostings(json);
  expect(c.songIds).toHaveLength(c.hashes.length);
  expect(c.offsets).toHaveLength(c.hashes.length);
  return c.hashes.map((hash, i) => ({ hash, songId: c.songIds[i] as string, offset: c.offsets[i] as number }));
}

describeEachDialect("fingerprint lookups", (dialect) => {
  const database = useTestDatabase(dialect);

  it("reads every row of the asked hashes; their counts leave out hashes stored too often", async () => {
    const { db } = database;
    const repo = createFingerprintsRepo(database);
    await insertSongs(db, ["sa", "sb"]);
    // Hash 7: 3 rows; hash 8: 4 rows over two songs; hash 9: 1 row; hash 10 is not stored.
    await database.tx(async (trx) => {
      await repo.replace(trx, "sa", Int32Array.of(7, 7, 7, 8, 8, 9), Int32Array.of(1, 2, 3, 4, 5, 6), 6);
      await repo.replace(trx, "sb", Int32Array.of(8, 8), Int32Array.of(10, 11), 2);
    });
    const within = async (hashes: number[], budget: number | null, cap: number | null) => {
      const c = await repo.hashCounts(hashes);
      return rarestWithin(c.hashes, c.counts, budget, cap);
    };
    const sorted = (rows: Row[]) =>
      [...rows].sort((a, b) => a.hash - b.hash || a.songId.localeCompare(b.songId) || a.offset - b.offset);

    const all = sorted(asRows(await repo.postings([7, 8, 9, 10])));
    expect(all).toHaveLength(8);
    expect(all.filter((r) => r.hash === 8)).toEqual([
      { hash: 8, songId: "sa", offset: 4 },
      { hash: 8, songId: "sa", offset: 5 },
      { hash: 8, songId: "sb", offset: 10 },
      { hash: 8, songId: "sb", offset: 11 },
    ]);
    // At most 3 rows per hash, chosen from the counts as recognition does: hash 8 (4 rows) goes, hash 7 (3) stays.
    const capped = sorted(asRows(await repo.postings(await within([10, 9, 8, 7], null, 3))));
    expect(capped.map((r) => [r.hash, r.songId, r.offset])).toEqual([
      [7, "sa", 1],
      [7, "sa", 2],
      [7, "sa", 3],
      [9, "sa", 6],
    ]);
    expect(await within([8], null, 3)).toEqual([]);
    // Rarest first within a budget of 4 rows: hash 9 (1 row) and hash 7 (3); hash 8's 4 more would not fit.
    expect(await within([7, 8, 9, 10], 4, null)).toEqual([9, 7]);
    expect(asRows(await repo.postings([]))).toEqual([]);
    // A song's own rows, whatever their hashes.
    expect(sorted(asRows(await repo.songRows(["sb", "sb"])))).toEqual([
      { hash: 8, songId: "sb", offset: 10 },
      { hash: 8, songId: "sb", offset: 11 },
    ]);
    expect(asRows(await repo.songRows([]))).toEqual([]);
  });

  it("keeps each hash's row count equal to its rows through indexing, re-indexing and a song's deletion", async () => {
    const { db } = database;
    const repo = createFingerprintsRepo(database);
    await insertSongs(db, ["sd", "se"]);
    const counts = async () => {
      const c = await repo.hashCounts([20, 21, 22, 23]);
      return Object.fromEntries(c.hashes.map((h, i) => [h, c.counts[i]]));
    };
    await database.tx(async (trx) => {
      await repo.replace(trx, "sd", Int32Array.of(20, 20, 21), Int32Array.of(1, 2, 3), 3);
      await repo.replace(trx, "se", Int32Array.of(20, 22), Int32Array.of(4, 5), 2);
    });
    expect(await counts()).toEqual({ 20: 3, 21: 1, 22: 1 });
    // Re-indexing replaces the song's rows: its old hashes are taken off.
    await database.tx((trx) => repo.replace(trx, "sd", Int32Array.of(23), Int32Array.of(9), 1));
    expect(await counts()).toEqual({ 20: 1, 22: 1, 23: 1 });
    // Deleting a song removes its rows through the foreign key, and their counts with them.
    await db.deleteFrom("song").where("id", "=", "se").execute();
    expect(await counts()).toEqual({ 23: 1 });
    expect(asRows(await repo.postings([23, 20]))).toEqual([{ hash: 23, songId: "sd", offset: 9 }]);
  });

  it("looks hashes up in batches without losing any", async () => {
    const { db } = database;
    const repo = createFingerprintsRepo(database);
    await insertSongs(db, ["sc"]);
    const n = 2500;
    const hashes = Int32Array.from({ length: n }, (_, i) => 100_000 + i);
    await database.tx((trx) =>
      repo.replace(
        trx,
        "sc",
        hashes,
        Int32Array.from({ length: n }, (_, i) => i),
        n,
      ),
    );
    const rows = asRows(await repo.postings([...hashes]));
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(n);
    expect(rows.every((r) => r.songId === "sc" && r.offset === r.hash - 100_000)).toBe(true);
  });
});

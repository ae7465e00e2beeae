// Store size of the invariant entries in SQLite (bench:invariant): the corpus's entries written to a temporary
// database with better-sqlite3 (the server's driver), in key order, one table per layout, and each table's bytes
// read from dbstat.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { CompositeStore } from "./invariant-store.js";

export type SqliteLayout = { name: string; description: string; rows: number; bytes: number };

/** The entry's 64 bits (hi, lo) as one SQLite integer (signed: the top bit wraps, as a BIGINT column would hold it). */
const entryOf = (hi: number, lo: number) => BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));

/**
 * Write the store's entries in each layout and measure them:
 * - `(key, entry)` WITHOUT ROWID, primary key (key, entry): the invariant key and the packed 8-byte entry;
 * - `(composite, entry)` WITHOUT ROWID: the same with the key's pitch/span suffix (strategy "ranges");
 * - the per-key row counts the "rarest" strategies read (`key INTEGER PRIMARY KEY, n`), one row per distinct key.
 */
export function measureSqlite(store: CompositeStore, log: (line: string) => void): SqliteLayout[] {
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-invariant-sqlite-"));
  try {
    const db = new SQLite(path.join(dir, "invariant.db"));
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(`
      CREATE TABLE inv_key (key INTEGER NOT NULL, entry INTEGER NOT NULL, PRIMARY KEY (key, entry)) WITHOUT ROWID;
      CREATE TABLE inv_composite (ckey INTEGER NOT NULL, entry INTEGER NOT NULL, PRIMARY KEY (ckey, entry)) WITHOUT ROWID;
      CREATE TABLE inv_count (key INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    `);
    const suffixes = store.bands.pitchBands * store.bands.spanBands;
    const n = store.size;
    // By key then entry (the composite order sorts by key, but not by entry within a key).
    const byKey = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const ka = Math.floor((store.comp[a] as number) / suffixes);
      const kb = Math.floor((store.comp[b] as number) / suffixes);
      return (
        ka - kb ||
        (store.hi[a] as number) - (store.hi[b] as number) ||
        (store.lo[a] as number) - (store.lo[b] as number)
      );
    });
    const t0 = performance.now();
    const insertKey = db.prepare("INSERT OR IGNORE INTO inv_key (key, entry) VALUES (?, ?)");
    const insertComposite = db.prepare("INSERT OR IGNORE INTO inv_composite (ckey, entry) VALUES (?, ?)");
    const insertCount = db.prepare("INSERT INTO inv_count (key, n) VALUES (?, ?)");
    db.transaction(() => {
      let last = -1;
      let count = 0;
      for (const i of byKey) {
        const key = Math.floor((store.comp[i] as number) / suffixes);
        insertKey.run(key, entryOf(store.hi[i] as number, store.lo[i] as number));
        if (key !== last && last >= 0) {
          insertCount.run(last, count);
          count = 0;
        }
        last = key;
        count++;
      }
      if (last >= 0) insertCount.run(last, count);
      for (let i = 0; i < n; i++)
        insertComposite.run(store.comp[i] as number, entryOf(store.hi[i] as number, store.lo[i] as number));
    })();
    db.exec("VACUUM");
    log(`  SQLite tables written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const bytes = (name: string) =>
      Number((db.prepare("SELECT SUM(pgsize) AS b FROM dbstat WHERE name = ?").get(name) as { b: number }).b);
    const rows = (name: string) => Number((db.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n);
    const out: SqliteLayout[] = [
      {
        name: "inv_key",
        description: "(key, entry) WITHOUT ROWID, primary key (key, entry)",
        rows: rows("inv_key"),
        bytes: bytes("inv_key"),
      },
      {
        name: "inv_composite",
        description: "(key with pitch/span suffix, entry) WITHOUT ROWID",
        rows: rows("inv_composite"),
        bytes: bytes("inv_composite"),
      },
      {
        name: "inv_count",
        description: "per-key row counts (key INTEGER PRIMARY KEY, n), one row per distinct key",
        rows: rows("inv_count"),
        bytes: bytes("inv_count"),
      },
    ];
    db.close();
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

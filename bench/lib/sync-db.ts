// bench:sync's view of the server's SQLite file, opened read-only from the bench's process (WAL: the server keeps
// writing while the bench reads): every table read whole and hashed, each row kept by its rowid, so a sync's writes
// are counted per table (inserted, updated, deleted) without trusting the server's own account of them; and the few
// rows the bench waits on (a link's last check, a batch's status) read without asking the server. The one write,
// insertSyncJob, queues a sync as another instance would (to time the job loop's poll).
import { createHash } from "node:crypto";
import SQLite from "better-sqlite3";

/** What a sync may write in the catalogue (the "no row written"): songs, eras, batches, changelog, notifications. */
export const CATALOGUE_TABLES = [
  "song",
  "song_artist",
  "era",
  "tracker_link_row",
  "import_batch",
  "import_change",
  "import_era_change",
  "artist_change",
  "notification",
];

/**
 * Each table's SHA-256 over its rows in rowid order, its column names, and its rows by key (rowid, or the row
 * itself in a table without one) as JSON text.
 */
export type Snapshot = Map<string, { sha256: string; columns: string[]; rows: Map<string, string> }>;

/** Rows inserted, updated and deleted in one table between two snapshots; `columns` that changed in updated rows. */
export type TableDiff = {
  table: string;
  inserted: number;
  updated: number;
  deleted: number;
  columns: string[];
};

/** The tables whose hash differs between two snapshots. */
export const hashChanged = (before: Snapshot, after: Snapshot) =>
  [...after].filter(([t, s]) => before.get(t)?.sha256 !== s.sha256).map(([t]) => t);

/** Rows a diff says were written (inserted, updated or deleted) in `table`. */
export const written = (diffs: TableDiff[], table: string) => {
  const d = diffs.find((x) => x.table === table);
  return d ? d.inserted + d.updated + d.deleted : 0;
};

const rowText = (row: unknown[]) =>
  JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v));

/**
 * The server's database, read-only. FTS5 tables are read through their shadow tables (`<name>_content` holds a row
 * per indexed song, the others the index's blocks): reading the virtual table again would only repeat `_content`.
 */
export function openReadOnly(file: string) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const tables = (
    db
      .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .all() as { name: string; sql: string | null }[]
  )
    .filter((t) => !/^create virtual table/i.test(t.sql ?? ""))
    .map((t) => ({ name: t.name, withoutRowid: /without\s+rowid/i.test(t.sql ?? "") }));
  return {
    /** Every table's rows, in one read transaction (one consistent view). */
    snapshot(): Snapshot {
      const out: Snapshot = new Map();
      db.transaction(() => {
        for (const t of tables) {
          const query = db
            .prepare(
              `select ${t.withoutRowid ? "" : "rowid as __key, "}* from "${t.name}"${t.withoutRowid ? "" : " order by rowid"}`,
            )
            .raw(true);
          const columns = query.columns().map((c) => c.name);
          const rows = new Map<string, string>();
          const hash = createHash("sha256");
          let n = 0;
          for (const raw of query.iterate() as Iterable<unknown[]>) {
            const text = rowText(t.withoutRowid ? raw : raw.slice(1));
            const key = t.withoutRowid ? `${text}#${n++}` : String(raw[0]);
            rows.set(key, text);
            hash.update(`${key}\t${text}\n`);
          }
          out.set(t.name, { sha256: hash.digest("hex"), columns: t.withoutRowid ? columns : columns.slice(1), rows });
        }
      })();
      return out;
    },

    /** One value of one row (what the bench waits on). */
    value<T>(query: string, ...params: unknown[]): T | undefined {
      const row = db
        .prepare(query)
        .raw(true)
        .get(...params) as unknown[] | undefined;
      return row?.[0] as T | undefined;
    },

    /** One row (what the bench waits on). */
    row<T>(query: string, ...params: unknown[]): T | undefined {
      return db.prepare(query).get(...params) as T | undefined;
    },

    close: () => db.close(),
  };
}

/** The read-only database type. */
export type ReadOnlyDb = ReturnType<typeof openReadOnly>;

/** Per table, what changed from `before` to `after`; tables without a change are left out. */
export function diffSnapshots(before: Snapshot, after: Snapshot): TableDiff[] {
  const out: TableDiff[] = [];
  for (const [table, { columns, rows }] of after) {
    const was = before.get(table)?.rows ?? new Map<string, string>();
    let inserted = 0;
    let updated = 0;
    const changed = new Set<string>();
    for (const [key, text] of rows) {
      const old = was.get(key);
      if (old === undefined) inserted++;
      else if (old !== text) {
        updated++;
        const [a, b] = [JSON.parse(old) as unknown[], JSON.parse(text) as unknown[]];
        columns.forEach((c, i) => {
          if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) changed.add(c);
        });
      }
    }
    let deleted = 0;
    for (const key of was.keys()) if (!rows.has(key)) deleted++;
    if (inserted + updated + deleted > 0) out.push({ table, inserted, updated, deleted, columns: [...changed].sort() });
  }
  return out;
}

/**
 * Queue a sync of `linkId` from outside the server, as another instance would (the job row enqueueJob writes): the
 * server's job loop is not woken and finds it on its next poll.
 */
export function insertSyncJob(file: string, linkId: string, id: string): void {
  const db = new SQLite(file);
  try {
    db.pragma("busy_timeout = 5000");
    const now = new Date().toISOString();
    db.prepare(
      `insert into job (id, kind, payload, status, attempts, last_error, run_after, created_at, updated_at)
       values (?, 'tracker.sync', ?, 'queued', 0, null, ?, ?, ?)`,
    ).run(id, JSON.stringify({ linkId }), now, now, now);
  } finally {
    db.close();
  }
}

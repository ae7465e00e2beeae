// Every table's rows hashed per table, so a test can assert that a refused call changed nothing (the permission
// matrix) or that an action changed only the tables it writes (the abuse table).
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { TestContext } from "./harness.js";

/** A hash of each table's rows, by table name. */
export type TableSnapshot = Record<string, string>;

/** The names of the database's tables, but `except`. */
export async function tableNames(ctx: TestContext, except: ReadonlySet<string> = new Set()): Promise<string[]> {
  const { rows } =
    ctx.database.dialect === "sqlite"
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'
          and name not like 'sqlite_%' order by name`.execute(ctx.database.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
          ctx.database.db,
        );
  return rows.map((r) => r.name).filter((t) => !except.has(t));
}

/** Each of `tables` hashed over its rows in a stable order. */
export async function snapshotTables(ctx: TestContext, tables: readonly string[]): Promise<TableSnapshot> {
  const { db } = ctx.database;
  if (ctx.database.dialect === "postgres") {
    // One round trip: each table's rows as text, in a stable order, hashed by the server.
    const columns = tables.map(
      (t) => `(select md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) from "${t}" r) as "${t}"`,
    );
    const { rows } = await sql<Record<string, string>>`select ${sql.raw(columns.join(", "))}`.execute(db);
    return rows[0] ?? {};
  }
  const out: TableSnapshot = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    out[table] = createHash("sha256").update(lines.join("\n")).digest("hex");
  }
  return out;
}

/** The tables whose hashes differ between two snapshots. */
export function changedTables(before: TableSnapshot, after: TableSnapshot): string[] {
  return Object.keys(before).filter((t) => before[t] !== after[t]);
}

import { type Kysely, PostgresAdapter, sql } from "kysely";

/** True when the Kysely instance talks to PostgreSQL. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Column types that differ between SQLite and PostgreSQL, for migrations. */
export function columnTypes(db: Kysely<unknown>) {
  const isPg = isPostgres(db);
  return {
    bool: isPg ? sql`boolean` : sql`integer`,
    ts: isPg ? sql`timestamptz` : sql`text`,
    real: isPg ? sql`double precision` : sql`real`,
    bigint: isPg ? sql`bigint` : sql`integer`,
    falseValue: isPg ? sql`false` : sql`0`,
  };
}

import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  sql,
  type Transaction,
} from "kysely";
import pg from "pg";
import type { DB } from "./schema.js";

/** Which engine a Database runs on. */
export type Dialect = "sqlite" | "postgres";

/** An open database: the Kysely instance, its dialect and how to close it. */
export type Database = {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The PostgreSQL URL (for LISTEN/NOTIFY); undefined on SQLite. */
  url?: string;
  /** Run fn in one write transaction (BEGIN IMMEDIATE on SQLite so writers queue instead of failing). */
  tx<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** better-sqlite3 binds neither booleans nor Dates; convert them at the driver edge. */
function toSqliteParam(v: unknown): unknown {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v;
}

const toSqliteParams = (params: ReadonlyArray<unknown>): unknown[] => params.map(toSqliteParam);

/** Prepared statements kept per SQL text; Kysely's SQLite driver would prepare on every call otherwise. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite database seen through a statement cache, converting parameters at the edge. A hit
 * saves sqlite3_prepare (parsing and planning) on every query: the hot paths run the same few texts.
 */
function wrapSqlite(raw: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  const statement = (source: string): SQLite.Statement => {
    let stmt = cache.get(source);
    if (stmt) {
      // Move to the end: the map's order is least recently used first.
      cache.delete(source);
      cache.set(source, stmt);
      return stmt;
    }
    stmt = raw.prepare(source);
    cache.set(source, stmt);
    if (cache.size > STATEMENT_CACHE_SIZE) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return stmt;
  };
  return {
    close: () => raw.close(),
    prepare(source: string): SqliteStatement {
      const stmt = statement(source);
      return {
        reader: stmt.reader,
        all: (params) => stmt.all(toSqliteParams(params)),
        run: (params) => stmt.run(toSqliteParams(params)),
        // An iterating statement is busy until drained: streams get a statement of their own.
        iterate: (params) => raw.prepare(source).iterate(toSqliteParams(params)) as IterableIterator<unknown>,
      };
    },
  };
}

/**
 * SQLite's fsync policy under WAL. full: each commit syncs the WAL before it returns, so an answered write
 * survives a power cut or kernel crash too. normal: syncs only at checkpoints; a process crash (SIGKILL) still
 * loses nothing, but a power cut may drop the last commits. Decision 016.
 */
export type SqliteSynchronous = "full" | "normal";

/** Open SQLite at `file` (WAL, foreign keys, busy timeout, synchronous FULL unless told) or PostgreSQL at `url`. */
export function openDatabase(opts: {
  url?: string | undefined;
  file?: string;
  poolSize?: number;
  synchronous?: SqliteSynchronous;
}): Database {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process.
    pool.on("error", () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: "postgres",
      url: opts.url,
      tx: (fn) => db.transaction().execute(fn),
      close: () => db.destroy(),
    };
  }
  const file = opts.file ?? ":memory:";
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const raw = new SQLite(file);
  raw.pragma("journal_mode = WAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  raw.pragma(`synchronous = ${opts.synchronous === "normal" ? "NORMAL" : "FULL"}`);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: wrapSqlite(raw) }) });
  return {
    db,
    dialect: "sqlite",
    // Kysely's SQLite driver holds one connection; inside it we own BEGIN/COMMIT ourselves.
    tx: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn as unknown as Transaction<DB>);
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => {});
          throw err;
        }
      }),
    close: () => db.destroy(),
  };
}

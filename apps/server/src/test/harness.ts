import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { type Database, type Dialect, openDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";
import type { App } from "../http.js";
import type { Mailer } from "../lib/mail.js";
import type { RendererModule } from "../lib/page-render.js";
import { RULES_OFF_ENV } from "./rules-off.js";

/** Dialects this run covers: TEST_DIALECTS=sqlite (default), postgres, or both. */
export const DIALECTS: Dialect[] = (process.env.TEST_DIALECTS ?? "sqlite")
  .split(",")
  .map((d) => d.trim())
  .filter((d): d is Dialect => d === "sqlite" || d === "postgres");

/** Run a suite once per dialect, like Kysely's own tests. */
export function describeEachDialect(name: string, fn: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) describe(`${name} [${dialect}]`, () => fn(dialect));
}

/** Create an empty PostgreSQL database `name` on the server of `adminUrl`; its URL. */
export async function createPgDatabase(adminUrl: string, name: string): Promise<string> {
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drop a database made by createPgDatabase, closing whatever still holds it. */
export function dropPgDatabase(adminUrl: string, name: string): Promise<void> {
  return adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Where a test database lives: how to open it, and how to remove it once it is closed. */
type TestDatabasePlace = { file?: string; url?: string; poolSize?: number; remove(): Promise<void> | void };

function newSqliteFile(): TestDatabasePlace {
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-db-"));
  return { file: path.join(dir, "test.db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function newPgDatabase(): Promise<TestDatabasePlace> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set: run the PostgreSQL suite with `npm run test:pg`");
  const name = `unheard_t_${randomBytes(6).toString("hex")}`;
  const url = await createPgDatabase(adminUrl, name);
  return { url, poolSize: 20, remove: () => dropPgDatabase(adminUrl, name) };
}

/** A fresh, migrated database of one dialect; dropped again by `drop()`. */
export async function createTestDatabase(
  dialect: Dialect,
): Promise<{ database: Database; url?: string; file?: string; drop(): Promise<void> }> {
  const { remove, ...where } = dialect === "sqlite" ? newSqliteFile() : await newPgDatabase();
  const database = openDatabase(where);
  await migrateToLatest(database.db);
  return {
    database,
    ...(where.file ? { file: where.file } : {}),
    ...(where.url ? { url: where.url } : {}),
    drop: async () => {
      await database.close();
      await remove();
    },
  };
}

/**
 * Something a whole suite uses: `create` makes it before the suite's tests and `release` ends it after them. The
 * object returned is filled in by then, and for the suite's own hooks registered after this call.
 */
function useSuiteFixture<T extends object>(create: () => Promise<{ value: T; release(): Promise<void> }>): T {
  const fixture = {} as T;
  // A failed create leaves nothing to release.
  let release = async () => {};
  beforeAll(async () => {
    const made = await create();
    release = made.release;
    Object.assign(fixture, made.value);
  });
  afterAll(() => release());
  return fixture;
}

/** The suite's database (see createTestDatabase), made before its tests and dropped after them. */
export function useTestDatabase(dialect: Dialect): Database {
  return useSuiteFixture(async () => {
    const { database, drop } = await createTestDatabase(dialect);
    return { value: database, release: drop };
  });
}

/** Everything an API test needs: the app (use inject), its database, data dir and outbox. */
export type TestContext = {
  app: App;
  database: Database;
  /** The SQLite file (SQLite only), for tests that open more connections to it. */
  file?: string;
  /** The environment the app was built from (without DATA_DIR). */
  env: Record<string, string>;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
};

/**
 * How a test app differs from the default one: more environment, another mailer, the web app's renderer, the clock
 * of the play-count rules.
 */
export type TestAppOptions = {
  env?: Record<string, string>;
  mailer?: Mailer;
  renderer?: RendererModule;
  now?: () => number;
};

/** Build the app on a fresh database of `dialect`, with mail going to a temp outbox. */
export async function createTestApp(dialect: Dialect, opts: TestAppOptions = {}): Promise<TestContext> {
  const { database, drop, file } = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-data-"));
  const env: Record<string, string> = {
    NODE_ENV: "test",
    PUBLIC_URL: "http://localhost:3000",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    LOG_LEVEL: "silent",
    // Other features' tests vote and upload with fresh accounts: the trust rules and daily caps (decisions 014,
    // 015) are off unless a test turns them on (votes.trust.test.ts runs them at their defaults). Tests make many
    // public reads from one address; open-data.test.ts turns the per-address limits on.
    ...RULES_OFF_ENV,
    ...opts.env,
  };
  const config = loadConfig({ ...env, DATA_DIR: dataDir });
  const app = await buildApp({
    config,
    database,
    logger: false,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    ...(opts.renderer ? { renderer: opts.renderer } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    ...(file ? { file } : {}),
    env,
    config,
    dataDir,
    async close() {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The suite's app (see createTestApp), built before its tests and closed after them. */
export function useTestApp(dialect: Dialect, opts: TestAppOptions = {}): TestContext {
  return useSuiteFixture(async () => {
    const ctx = await createTestApp(dialect, opts);
    return { value: ctx, release: () => ctx.close() };
  });
}

/** A second app instance on the same database (as another server process would be). */
export async function createSiblingApp(ctx: TestContext): Promise<{ app: App; close(): Promise<void> }> {
  // Its own connection pool, so it shares nothing in memory with the first instance.
  const database =
    ctx.database.dialect === "postgres" && ctx.database.url
      ? openDatabase({ url: ctx.database.url, poolSize: 5 })
      : ctx.database;
  const app = await buildApp({ config: ctx.config, database, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (database !== ctx.database) await database.close();
    },
  };
}

/** The .eml files in the outbox for one recipient, oldest first. */
export function outboxFor(dataDir: string, email: string): string[] {
  const dir = path.join(dataDir, "mail");
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files
    .filter((f) => f.endsWith(`-${email}.eml`))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), "utf8"));
}

/** Undo quoted-printable soft breaks and escapes, as a mail reader would. */
export function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** The last link in the newest message to `email` whose URL contains `pathPart`. */
export function lastLink(dataDir: string, email: string, pathPart: string): string {
  const mails = outboxFor(dataDir, email);
  for (const raw of mails.reverse()) {
    const text = decodeQuotedPrintable(raw);
    const links = text.match(/https?:\/\/[^\s"<>]+/g) ?? [];
    const hit = links.reverse().find((l) => l.includes(pathPart));
    if (hit) return hit;
  }
  throw new Error(`no mail to ${email} with a link containing ${pathPart}`);
}

/** The session cookie from a response, as a Cookie header value. */
export function sessionCookie(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const cookie = list.find((c: string) => c.includes("session_token="));
  if (!cookie) throw new Error("no session cookie in response");
  return cookie.split(";")[0] ?? "";
}

/** Where a test client registers from: a client address and a device cookie (the ring view's signals). */
export type ClientOrigin = { ip?: string; device?: string };

/**
 * Register, verify through the e-mailed link, and log in; returns the session cookie. `origin` registers from
 * a client address and with a device cookie (the ring view's signals).
 */
export async function signUp(
  ctx: TestContext,
  email: string,
  password = "secret123",
  origin: ClientOrigin = {},
): Promise<string> {
  const reg = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { email, password, confirmPassword: password },
    ...(origin.ip ? { remoteAddress: origin.ip } : {}),
    ...(origin.device ? { headers: { cookie: `unheard.device=${origin.device}` } } : {}),
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const link = new URL(lastLink(ctx.dataDir, email, "/api/auth/verify-email"));
  const verify = await ctx.app.inject({ method: "GET", url: `${link.pathname}${link.search}` });
  if (verify.statusCode !== 302 || !String(verify.headers.location).includes("verify=ok")) {
    throw new Error(`verify failed: ${verify.statusCode} ${verify.headers.location}`);
  }
  const login = await ctx.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return sessionCookie(login);
}

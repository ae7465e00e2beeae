// The processes of bench:sync: the sheets' HTTP server (in the bench's own process, like a published sheet's
// host), and the production server in a process of its own over a fresh SQLite data dir whose accounts are written
// before it starts (an admin who may import, and followers), allowed to fetch from 127.0.0.1 over plain http.
import { mkdtempSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { hashPassword } from "better-auth/crypto";
import SQLite from "better-sqlite3";
import { openDatabase } from "../../apps/server/src/db/database.js";
import { migrateToLatest } from "../../apps/server/src/db/migrate.js";
import { nameKey } from "../../apps/server/src/lib/text.js";
import { freePort, keepOutput, spawnServer, stopProcess, waitUntilOk } from "../../e2e/support/server-process.js";
import { AUTH_SECRET, type Child, serverCommand } from "./api-processes.js";
import { ROOT } from "./web-server.js";

/** One sheet served at its own path, and what its server was asked. */
export type ServedSheet = {
  url: string;
  body: Buffer;
  contentType: string;
  /** Send an ETag and answer a matching If-None-Match with 304. */
  etags: boolean;
  /** Answers with the body, answers 304, and when each request arrived (performance.now() of this process). */
  fetched: number;
  notModified: number;
  arrivals: number[];
};

/** The sheets' server: `add` serves a new sheet at its own path. */
export type SheetHost = { add(name: string, body: Buffer, contentType: string): ServedSheet; close(): Promise<void> };

/** An HTTP server on 127.0.0.1 serving sheets with ETags, as a published sheet's host does. */
export async function startSheetHost(): Promise<SheetHost> {
  const sheets = new Map<string, ServedSheet>();
  const server = http.createServer((req, res) => {
    const sheet = sheets.get(req.url ?? "");
    if (!sheet) {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such sheet");
      return;
    }
    sheet.arrivals.push(performance.now());
    // A strong validator of the bytes, as a static host would send.
    const etag = `"${sheet.body.length.toString(16)}-${hashBytes(sheet.body)}"`;
    if (sheet.etags && req.headers["if-none-match"] === etag) {
      sheet.notModified++;
      res.writeHead(304, { etag }).end();
      return;
    }
    sheet.fetched++;
    res
      .writeHead(200, {
        "content-type": sheet.contentType,
        "content-length": String(sheet.body.length),
        ...(sheet.etags ? { etag } : {}),
      })
      .end(sheet.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    add(name, body, contentType) {
      const sheet: ServedSheet = {
        url: `http://127.0.0.1:${port}/${name}`,
        body,
        contentType,
        etags: true,
        fetched: 0,
        notModified: 0,
        arrivals: [],
      };
      sheets.set(`/${name}`, sheet);
      return sheet;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** FNV-1a over the bytes, in hex: enough to tell two versions of a sheet apart. */
function hashBytes(bytes: Buffer): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16);
}

export const SYNC_PASSWORD = "bench-sync-password-1";
export const SYNC_ADMIN = "sync-admin@bench.invalid";
export const followerEmail = (i: number) => `sync-follower-${i}@bench.invalid`;

/**
 * A fresh data dir: the app's migrations, then a super admin and `followers` members written straight into the
 * database (verified, let in from the waitlist) with one password. Returns the dir and the SQLite file.
 */
export async function prepareDataDir(followers: number): Promise<{ dataDir: string; file: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-bench-sync-"));
  const file = path.join(dataDir, "unheard.db");
  const database = openDatabase({ file });
  await migrateToLatest(database.db);
  await database.close();
  const hash = await hashPassword(SYNC_PASSWORD);
  const db = new SQLite(file);
  const at = new Date(Date.now() - 365 * 864e5).toISOString();
  const user = db.prepare(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at, username, username_key, role, off_waitlist)
     values (?, ?, ?, 1, ?, ?, ?, ?, ?, 1)`,
  );
  const account = db.prepare(
    `insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
     values (?, ?, 'credential', ?, ?, ?, ?)`,
  );
  const people = [
    { id: "benchsyncadmin00", account: "benchsyncacct000", name: "sync-admin", email: SYNC_ADMIN, role: "super_admin" },
    ...Array.from({ length: followers }, (_, i) => ({
      id: `benchsyncfan${String(i).padStart(4, "0")}`,
      account: `benchsyncacc${String(i + 1).padStart(4, "0")}`,
      name: `sync-follower-${i}`,
      email: followerEmail(i),
      role: "user",
    })),
  ];
  db.transaction(() => {
    for (const p of people) {
      user.run(p.id, p.name, p.email, at, at, p.name, nameKey(p.name), p.role);
      account.run(p.account, p.id, p.id, hash, at, at);
    }
  })();
  db.close();
  return { dataDir, file };
}

/**
 * The production server (serverCommand: the current bundle, else the sources through tsx) on a free port over
 * `dataDir`: no demo catalogue, the job loop running (main.ts starts it), sheets fetched from 127.0.0.1 over http.
 */
export async function startSyncServer(opts: {
  dataDir: string;
  nodeFlags?: string[];
}): Promise<Child & { label: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { args, label } = serverCommand();
  const flags = opts.nodeFlags ?? [];
  const child = spawnServer([...flags, ...args], {
    cwd: ROOT,
    port,
    env: {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PUBLIC_URL: base,
      DATA_DIR: opts.dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "false",
      AUTH_SECRET,
      WAITLIST_GATE: "false",
      SUPER_ADMIN_EMAIL: "",
      SMTP_URL: "",
      S3_BUCKET: "",
      S3_ENDPOINT: "",
      S3_ACCESS_KEY_ID: "",
      S3_SECRET_ACCESS_KEY: "",
      // The sheets are served from this process on 127.0.0.1 over plain http (the test setting).
      SHEET_FETCH_ALLOW_HTTP: "true",
      SHEET_FETCH_ALLOW_NETWORKS: "127.0.0.1/32",
    },
  });
  const output = keepOutput(child, 50_000);
  const stop = () => stopProcess(child, 15_000);
  if (!(await waitUntilOk(`${base}/api/health`, child, { timeoutMs: 120_000, intervalMs: 100 }))) {
    await stop();
    throw new Error(`The server did not answer /api/health.\n--- output ---\n${output()}`);
  }
  return {
    pid: child.pid ?? 0,
    base,
    output,
    stop,
    label: flags.length ? `${label} with ${flags.map((f) => f.split("=")[0]).join(" ")}` : label,
  };
}

/** An HTTP client signed in as one account: JSON in and out, a clear error on any other status than expected. */
export type Client = {
  (method: string, url: string, body?: unknown, expect?: number): Promise<unknown>;
  cookie: string;
};

/** Sign `email` in through POST /api/auth/login and return a client with its session. */
export async function signedIn(base: string, email: string): Promise<Client> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: SYNC_PASSWORD }),
  });
  if (!res.ok) throw new Error(`Sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .join("; ");
  const client = async (method: string, url: string, body?: unknown, expect?: number) => {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (expect ? r.status !== expect : !r.ok) throw new Error(`${method} ${url}: ${r.status} ${text.slice(0, 500)}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };
  return Object.assign(client, { cookie });
}

export { ROOT };

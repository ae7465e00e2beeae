// npm run bench:api: load the real server (SQLite, demo data) with autocannon and print figures per endpoint.
// Traffic goes to 127.0.0.1 only; each run is bounded in time.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/database.js";
import { migrateToLatest } from "../apps/server/src/db/migrate.js";
import { seedDemo } from "../apps/server/src/seed/seed.js";

const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 8);
const connections = 10;
const dir = mkdtempSync(path.join(tmpdir(), "unheard-bench-"));
const config = loadConfig({
  DATA_DIR: dir,
  LOG_LEVEL: "silent",
  PUBLIC_URL: "http://127.0.0.1",
  VOTES_PER_MINUTE: "1000000",
  AUTH_LIMIT_SCALE: "1000",
});
const database = openDatabase({ file: path.join(dir, "bench.db") });
await migrateToLatest(database.db);
await seedDemo({ database, config, log: { info() {} } });
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: "127.0.0.1" });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "admin@unheard.local", password: "admin123" }),
});
const cookie = (login.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
const feed = (await (await fetch(`${base}/api/songs?limit=1`)).json()) as { items: { id: string }[] };
const songId = feed.items[0]?.id ?? "";
const pending = (await (await fetch(`${base}/api/songs/pending`, { headers: { cookie } })).json()) as {
  items: { id: string }[];
};
const pendingId = pending.items[0]?.id ?? "";

type Case = { name: string; path: string; method?: "GET" | "PUT"; body?: string; auth?: boolean };
const cases: Case[] = [
  { name: "health (1 query)", path: "/api/health" },
  { name: "newest feed, 24 songs", path: "/api/songs?feed=newest" },
  { name: "trending feed", path: "/api/songs?feed=trending" },
  { name: "search with a typo", path: "/api/search?q=midnite%20circut" },
  { name: "song page", path: `/api/songs/${songId}` },
  { name: "song page, signed in", path: `/api/songs/${songId}`, auth: true },
  {
    name: "vote (toggle, write tx)",
    path: `/api/songs/${pendingId}/vote`,
    method: "PUT",
    body: JSON.stringify({ value: "up" }),
    auth: true,
  },
];

const rows: string[][] = [];
for (const c of cases) {
  const result = await autocannon({
    url: `${base}${c.path}`,
    method: c.method ?? "GET",
    connections,
    duration: seconds,
    headers: { ...(c.auth ? { cookie } : {}), ...(c.body ? { "content-type": "application/json" } : {}) },
    ...(c.body ? { body: c.body } : {}),
  });
  const errors = result.errors + result.non2xx;
  rows.push([
    c.name,
    result.requests.average.toFixed(0),
    result.latency.p50.toFixed(1),
    result.latency.p99.toFixed(1),
    String(errors),
  ]);
}

await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });

const header = ["endpoint", "req/s", "p50 ms", "p99 ms", "errors"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (r: string[]) =>
  r.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ");
console.log(
  `\nUnheard API on SQLite, ${connections} connections, ${seconds} s per endpoint, Node ${process.version}\n`,
);
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));

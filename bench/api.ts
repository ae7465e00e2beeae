// npm run bench:api: the production server, a bare Fastify hello-world and the load generator, each its own
// process, on a large seeded catalogue; prints requests/s, latency, errors and the share of hello-world per
// scenario, the server's peak RSS, then checks every counter against its rows and every acknowledged write.
// Traffic goes to 127.0.0.1 only; every run is bounded in time.
//   --pg            PostgreSQL (BENCH_DATABASE_URL, or a throwaway cluster) instead of SQLite
//   --songs=N       catalogue size (default 100000: 20,000 members, 500,000 likes, 300,000 votes)
//   --seconds=N     per scenario (default 8)
//   --growth        latency of the uncached read paths at 10,000 and 1,000,000 songs
//   --fresh         seed again even when a seeded copy of this size is cached
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type Db,
  ROOT,
  runLoad,
  type ServerProcess,
  sqlOf,
  startHelloWorld,
  startServer,
  withDatabase,
} from "./lib/api-run.js";
import { BENCH_PASSWORD, benchEmail, seedSize } from "./lib/api-seed.js";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const usePg = process.argv.includes("--pg");
const growth = process.argv.includes("--growth");
const fresh = process.argv.includes("--fresh");
const seconds = Number(arg("seconds") ?? 8);
const songs = Number(arg("songs") ?? 100_000);
const CONNECTIONS = 50;
const SESSIONS = 300;

const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const dialect = usePg ? "postgres" : "sqlite";

type Row = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  share?: number;
  target?: string;
  pass?: boolean;
};

const shuffle = <T>(list: T[], seed = 7): T[] => {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

/** A misspelling of `text`: one letter dropped, doubled or swapped with the next in one word of 4+ letters. */
function typo(text: string, n: number): string {
  const words = text.toLowerCase().split(" ");
  const idx = words.findIndex((w) => w.length >= 5);
  if (idx === -1) return text.toLowerCase();
  const w = words[idx] ?? "";
  const at = 1 + (n % (w.length - 2));
  const kinds = [
    w.slice(0, at) + w.slice(at + 1),
    w.slice(0, at) + (w[at] ?? "") + w.slice(at),
    w.slice(0, at) + (w[at + 1] ?? "") + (w[at] ?? "") + w.slice(at + 2),
  ];
  words[idx] = kinds[n % kinds.length] ?? w;
  return words.join(" ");
}

async function signIn(base: string, count: number): Promise<{ id: string; cookie: string }[]> {
  const out: { id: string; cookie: string }[] = [];
  process.stderr.write(`  signing in ${count} members through POST /api/auth/login…\n`);
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: benchEmail(i), password: BENCH_PASSWORD }),
    });
    if (!res.ok) throw new Error(`login of ${benchEmail(i)} failed: ${res.status} ${await res.text()}`);
    const cookie = (res.headers.getSetCookie().find((c) => c.includes("session_token=")) ?? "").split(";")[0] ?? "";
    out.push({ id: `m${i}`, cookie });
  }
  return out;
}

async function mainRun(): Promise<void> {
  const size = seedSize(songs);
  await withDatabase(dialect, size, fresh, async (db: Db) => {
    const server = await startServer(db);
    const hello = await startHelloWorld();
    const rows: Row[] = [];
    const acks: { kind: "favorite" | "vote"; user: string; song: string; on: boolean }[] = [];
    try {
      const base = server.url;
      const load = (name: string, requests: Parameters<typeof runLoad>[1], url = base, trackKeys?: string[]) =>
        runLoad(name, requests, url, { connections: CONNECTIONS, seconds, trackKeys }, server);
      const helloBefore = await load("hello-world", [{ method: "GET", path: "/" }], hello.url);

      // Ids and queries come from the database the server serves.
      const verified = shuffle(
        (await sqlOf(db, "select id from song where status = 'verified' order by id")).map((r) => String(r.id)),
      );
      const titles = shuffle(
        (await sqlOf(db, "select title from song where status = 'verified' order by id limit 20000")).map((r) =>
          String(r.title),
        ),
      );
      const sessions = await signIn(base, SESSIONS);

      let cursor = "";
      for (let i = 0; i < 5; i++) {
        const page = (await (
          await fetch(`${base}/api/songs?feed=newest${cursor ? `&cursor=${cursor}` : ""}`)
        ).json()) as {
          nextCursor: string | null;
        };
        cursor = encodeURIComponent(page.nextCursor ?? "");
      }
      const get = (p: string) => ({ method: "GET" as const, path: p });
      const scenarios: {
        name: string;
        target?: [string, (r: Row) => boolean];
        requests: Parameters<typeof runLoad>[1];
      }[] = [
        { name: "home feed: trending", target: feedTarget(), requests: [get("/api/songs?feed=trending")] },
        { name: "home feed: newest", target: feedTarget(), requests: [get("/api/songs?feed=newest")] },
        {
          name: "home feed: 6th page (cursor)",
          target: feedTarget(),
          requests: [get(`/api/songs?feed=newest&cursor=${cursor}`)],
        },
        { name: "home feed: genre Rock", target: feedTarget(), requests: [get("/api/songs?feed=newest&genre=Rock")] },
        {
          name: "song page, visitor (all songs in turn)",
          target: [">= 50%", (r) => (r.share ?? 0) >= 50],
          requests: verified.map((id) => get(`/api/songs/${id}`)),
        },
        {
          name: "song page, signed in",
          target: [">= 50%", (r) => (r.share ?? 0) >= 50],
          requests: verified.map((id, i) => ({
            ...get(`/api/songs/${id}`),
            cookie: sessions[i % sessions.length]?.cookie,
          })),
        },
        {
          name: "search with a typo (distinct queries)",
          target: [">= 15%, p99 <= 40 ms", (r) => (r.share ?? 0) >= 15 && r.p99 <= 40],
          requests: titles.map((t, i) => get(`/api/search?q=${encodeURIComponent(typo(t, i))}`)),
        },
      ];
      for (const s of scenarios) {
        const r = await load(s.name, s.requests);
        rows.push({ name: s.name, ...r, ...(s.target ? { target: s.target[0] } : {}) });
        if (s.target) {
          const row = rows[rows.length - 1] as Row;
          row.share = (100 * row.rps) / helloBefore.rps;
          row.pass = s.target[1](row) && row.errors === 0;
        }
      }

      // Writes: each request a different (member, song) pair; a pair comes round again only after every
      // other pair, so its requests never overlap, and the last acknowledged one decides what must be stored.
      const pairs = 20_000;
      for (const kind of ["favorite", "vote"] as const) {
        const requests: Parameters<typeof runLoad>[1] = [];
        const keys: string[] = [];
        for (const on of [true, false]) {
          for (let p = 0; p < pairs; p++) {
            const session = sessions[p % sessions.length];
            const song = verified[(p * 7919) % verified.length];
            if (!session || !song) continue;
            keys.push(`${session.id}|${song}`);
            requests.push(
              kind === "favorite"
                ? { method: on ? "PUT" : "DELETE", path: `/api/songs/${song}/favorite`, cookie: session.cookie }
                : {
                    method: "PUT",
                    path: `/api/songs/${song}/vote`,
                    body: JSON.stringify({ value: on ? "up" : "none" }),
                    cookie: session.cookie,
                  },
            );
          }
        }
        const name = kind === "favorite" ? "favourite toggle (PUT/DELETE)" : "vote toggle (up/none)";
        const r = await runLoad(name, requests, base, { connections: CONNECTIONS, seconds, trackKeys: keys }, server);
        const row: Row = { name, ...r, target: ">= 2,000/s, no errors" };
        row.share = (100 * row.rps) / helloBefore.rps;
        row.pass = row.rps >= 2000 && row.errors === 0;
        rows.push(row);
        for (const [key, index] of Object.entries(r.acknowledged ?? {})) {
          const [user, song] = key.split("|");
          const req = requests[index];
          if (!user || !song || !req) continue;
          const on = kind === "favorite" ? req.method === "PUT" : (req.body ?? "").includes('"up"');
          acks.push({ kind, user, song, on });
        }
      }
      const helloAfter = await load("hello-world", [{ method: "GET", path: "/" }], hello.url);
      const helloRps = (helloBefore.rps + helloAfter.rps) / 2;
      for (const row of rows) row.share = (100 * row.rps) / helloRps;
      rows.unshift({ name: "bare Fastify hello-world (mean of before/after)", ...helloBefore, rps: helloRps });
    } finally {
      await hello.stop();
      await server.stop();
    }
    const checks = await checkConsistency(db, acks);
    report(rows, server, checks, size);
  });
}

function feedTarget(): [string, (r: Row) => boolean] {
  return [">= 40%, p99 <= 25 ms", (r) => (r.share ?? 0) >= 40 && r.p99 <= 25];
}

/** Every counter equals the rows it counts; every acknowledged write is stored. */
async function checkConsistency(
  db: Db,
  acks: { kind: "favorite" | "vote"; user: string; song: string; on: boolean }[],
): Promise<string[]> {
  const lines: string[] = [];
  const count = async (label: string, sql: string) => {
    const [row] = await sqlOf(db, sql);
    const n = Number(row?.n ?? 0);
    lines.push(`${n === 0 ? "ok  " : "FAIL"} ${label}: ${n} mismatches`);
  };
  await count(
    "song.favorite_count = its favourites",
    "select count(*) as n from song s where s.favorite_count <> (select count(*) from favorite f where f.song_id = s.id)",
  );
  await count(
    "song.upvotes / downvotes = its votes",
    "select count(*) as n from song s where s.upvotes <> (select count(*) from vote v where v.song_id = s.id and v.value = 1) or s.downvotes <> (select count(*) from vote v where v.song_id = s.id and v.value = -1)",
  );
  await count(
    "user.points = sum of their points ledger",
    `select count(*) as n from "user" u where u.points <> coalesce((select sum(delta) from points_ledger p where p.user_id = u.id), 0)`,
  );
  await count(
    "artist upload_count = their credits",
    `select count(*) as n from "user" u where u.is_artist = ${dialect === "postgres" ? "true" : "1"} and u.upload_count <> (select count(*) from song_artist sa where sa.artist_id = u.id)`,
  );
  let missing = 0;
  for (const a of acks) {
    const rows =
      a.kind === "favorite"
        ? await sqlOf(db, "select 1 as x from favorite where user_id = $1 and song_id = $2", [a.user, a.song])
        : await sqlOf(db, "select 1 as x from vote where user_id = $1 and song_id = $2 and value = 1", [
            a.user,
            a.song,
          ]);
    if (rows.length > 0 !== a.on) missing++;
  }
  lines.push(`${missing === 0 ? "ok  " : "FAIL"} acknowledged writes stored: ${acks.length - missing}/${acks.length}`);
  return lines;
}

function report(rows: Row[], server: ServerProcess, checks: string[], size: ReturnType<typeof seedSize>): void {
  const rssMb = server.peakRssMb();
  const header = "| scenario | req/s | p50 ms | p99 ms | errors | share of hello-world | target | |";
  const table = [
    header,
    "|---|---:|---:|---:|---:|---:|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.rps).toLocaleString("en")} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.share === undefined ? "" : `${r.share.toFixed(1)}%`} | ${r.target ?? ""} | ${r.pass === undefined ? "" : r.pass ? "pass" : "**miss**"} |`,
    ),
    `| server peak RSS under load | ${rssMb} MB | | | | | <= 300 MB | ${rssMb <= 300 ? "pass" : "**miss**"} |`,
  ].join("\n");
  const md = [
    `# bench:api on ${dialect === "postgres" ? "PostgreSQL" : "SQLite"}`,
    "",
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · ${machine} · ${size.songs.toLocaleString("en")} songs, ${size.users.toLocaleString("en")} members, ${size.artists.toLocaleString("en")} artists, ${size.favorites.toLocaleString("en")} likes drawn, ${size.votes.toLocaleString("en")} votes drawn · ${CONNECTIONS} connections, ${seconds} s per scenario · server: \`${server.command}\` (its own process), hello-world and autocannon in two more.`,
    "",
    table,
    "",
    "Afterwards, with the server stopped:",
    "",
    ...checks.map((c) => `- ${c}`),
    "",
  ].join("\n");
  console.log(`\n${md}`);
  const dir = path.join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `api-${dialect}.md`), md);
  console.log(`Wrote bench/results/api-${dialect}.md`);
}

async function growthRun(): Promise<void> {
  const sizes = [10_000, 1_000_000];
  const results: { size: number; rows: Row[] }[] = [];
  for (const n of sizes) {
    await withDatabase(dialect, seedSize(n), fresh, async (db) => {
      const server = await startServer(db);
      try {
        // Uncached paths: as an admin (whose answers are never the shared one), all songs and queries in turn.
        await sqlOf(db, `update "user" set role = 'admin' where id = 'm0'`);
        const [admin] = await signIn(server.url, 1);
        const cookie = admin?.cookie;
        const ids = shuffle(
          (await sqlOf(db, "select id from song where status = 'verified' order by id limit 20000")).map((r) =>
            String(r.id),
          ),
        );
        const titles = shuffle(
          (await sqlOf(db, "select title from song where status = 'verified' order by id limit 20000")).map((r) =>
            String(r.title),
          ),
        );
        const opts = { connections: 10, seconds: Math.min(seconds, 5) };
        const rows: Row[] = [];
        for (const [name, requests] of [
          ["newest feed", [{ method: "GET" as const, path: "/api/songs?feed=newest", cookie }]],
          ["trending feed", [{ method: "GET" as const, path: "/api/songs?feed=trending", cookie }]],
          ["song page", ids.map((id) => ({ method: "GET" as const, path: `/api/songs/${id}`, cookie }))],
          [
            "typo search",
            titles.map((t, i) => ({
              method: "GET" as const,
              path: `/api/search?q=${encodeURIComponent(typo(t, i))}`,
              cookie,
            })),
          ],
        ] as const) {
          rows.push({ name, ...(await runLoad(`${name} @ ${n}`, [...requests], server.url, opts, server)) });
        }
        results.push({ size: n, rows });
      } finally {
        await server.stop();
      }
    });
  }
  const [small, large] = results;
  const lines = [
    `# bench:api --growth on ${dialect === "postgres" ? "PostgreSQL" : "SQLite"}`,
    "",
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · ${machine} · signed in as an admin (no shared answers: every request runs its queries), 10 connections, ${Math.min(seconds, 5)} s each.`,
    "",
    "| endpoint | p50 ms @10k | p99 ms @10k | p50 ms @1M | p99 ms @1M | req/s @10k | req/s @1M | 1M / 10k (mean latency) | within 2x |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...(small?.rows ?? []).map((r, i) => {
      const l = large?.rows[i];
      const ratio = l ? r.rps / l.rps : Number.NaN;
      return `| ${r.name} | ${r.p50} | ${r.p99} | ${l?.p50 ?? ""} | ${l?.p99 ?? ""} | ${Math.round(r.rps)} | ${Math.round(l?.rps ?? 0)} | ${ratio.toFixed(2)}x | ${ratio <= 2 ? "pass" : "**miss**"} |`;
    }),
    "",
  ].join("\n");
  console.log(`\n${lines}`);
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, "bench/results", `growth-${dialect}.md`), lines);
  console.log(`Wrote bench/results/growth-${dialect}.md`);
}

await (growth ? growthRun() : mainRun());
process.exit(0);

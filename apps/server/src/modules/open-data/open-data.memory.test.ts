// The exports stream (issue 16, item 4): 100,000 verified songs downloaded from a real server process while its
// resident memory is sampled. Building either file in memory would add at least its own size (tens of MB) to
// the process; streaming page by page keeps the growth to a page or two and the runtime's own churn. SQLite
// only: server-process.ts runs main.ts on a data folder; open-data.test.ts covers both dialects.
//
// The server runs with its old generation capped (HEAP_MB). Without a cap V8 lets a busy heap grow several
// times over its live size before collecting when the machine is loaded (a run beside other suites measured
// +126 MB of garbage for the JSON file, another +0.3 MB): the cap makes the figure about what the export keeps
// alive, which is what streaming is about. An export built in memory would not fit under it. The young
// generation is capped too (2 MB semi-spaces): V8's default lets it reach 16 MB of short-lived garbage before
// a scavenge, which alone put a CI run at +16.03 MB against the 16 MB bound. With the cap, ten runs (four
// beside two busy cores) grew 1.5-7.4 MB.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ExportSong } from "@unheard/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database.js";
import { migrateToLatest } from "../../db/migrate.js";
import { insertVerifiedSongs, parseCsv } from "../../test/export-fixtures.js";
import { type ServerProcess, startServer, stopServer } from "../../test/server-process.js";
import { serverSuite } from "../../test/server-suite.js";

const SONGS = 100_000;
/** How much the server's RSS may grow over its warmed-up level during a download. */
const MAX_GROWTH_MB = 16;
/**
 * 128 MB for the export's headroom as before, plus the search index of 100,000 songs and what its build reads
 * (about 250 MB at the peak; decision 024). It is built at start and waited for before the warm-up, so it is part
 * of the base level.
 */
const HEAP_MB = 384;

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m?.[1] ? Number(m[1]) / 1024 : 0;
}

/** Download `url` while sampling `pid`'s RSS every 50 ms; the body, its size and the highest RSS seen. */
async function download(
  url: string,
  pid: number,
): Promise<{ text: string; mb: number; seconds: number; peakMb: number }> {
  let peakMb = rssMb(pid);
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid));
  }, 50);
  const started = performance.now();
  try {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      text: bytes.toString("utf8"),
      mb: bytes.length / 1024 / 1024,
      seconds: (performance.now() - started) / 1000,
      peakMb: Math.max(peakMb, rssMb(pid)),
    };
  } finally {
    clearInterval(timer);
  }
}

describe("Open data export memory [sqlite]", () => {
  const suite = serverSuite("unheard-export-memory-");
  let server: ServerProcess;
  let pid = 0;

  beforeAll(async () => {
    const dataDir = path.join(suite.root, "data");
    const database = openDatabase({ file: path.join(dataDir, "unheard.db") });
    await migrateToLatest(database.db);
    const started = performance.now();
    await database.tx((trx) => insertVerifiedSongs(trx, SONGS, { prefix: "mem", artists: 2000 }));
    await database.close();
    console.log(`seeded ${SONGS.toLocaleString("en")} songs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    server = await startServer(dataDir, {
      env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB} --max-semi-space-size=2` },
    });
    pid = server.child.pid ?? 0;
  }, 120_000);
  afterAll(async () => {
    if (server) await stopServer(server, 2000);
  });

  it("streams 100,000 songs as CSV and as JSON with flat memory", async () => {
    // Warm up: the search index is built (a search waits for it), the first export compiles its code paths and
    // fills SQLite's page cache; what stays after is the level a download must not grow much beyond.
    expect((await fetch(`${server.base}/api/search?q=mem`)).status).toBe(200);
    for (const kind of ["csv", "json"]) await (await fetch(`${server.base}/api/export/songs.${kind}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
    const baseMb = rssMb(pid);

    const csv = await download(`${server.base}/api/export/songs.csv`, pid);
    const json = await download(`${server.base}/api/export/songs.json`, pid);
    for (const [kind, d] of [
      ["CSV", csv],
      ["JSON", json],
    ] as const) {
      console.log(
        `${kind}: ${d.mb.toFixed(1)} MB in ${d.seconds.toFixed(1)} s; server RSS ${baseMb.toFixed(0)} MB before, ` +
          `peak ${d.peakMb.toFixed(0)} MB (+${(d.peakMb - baseMb).toFixed(1)} MB)`,
      );
    }

    const records = parseCsv(csv.text);
    expect(records[0]?.[0]).toBe("id");
    expect(records).toHaveLength(SONGS + 1);
    const items = JSON.parse(json.text) as ExportSong[];
    expect(items).toHaveLength(SONGS);
    expect(new Set(items.map((s) => s.id)).size).toBe(SONGS);

    // Each file is far larger than the allowed growth: holding either in memory would fail this.
    expect(csv.mb).toBeGreaterThan(MAX_GROWTH_MB);
    expect(csv.peakMb - baseMb).toBeLessThan(MAX_GROWTH_MB);
    expect(json.peakMb - baseMb).toBeLessThan(MAX_GROWTH_MB);
  }, 120_000);
});

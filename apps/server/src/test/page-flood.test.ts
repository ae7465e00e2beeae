// Issue 38, "done when": under a random-query-string flood of every server-rendered page route, from one address and
// from 64, /api/health's median stays within 2x its idle figure, and a popular page stays cached (rendered once,
// served many times). The server is the suite's app listening on loopback with the web app's production renderer
// (apps/web/dist-ssr, as `npm start` runs it; its sources when it is not built) and a 1 MB page cache; the attacker
// is a worker thread of its own sending at a fixed rate, the watcher another (page-flood-client.ts). Three floods,
// each after an idle phase it is compared with: one address, 64 addresses, and a scan of new search pages from 64
// more that fills the page cache several times over. Prints the figures.
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { beforeAll, expect, it } from "vitest";
import { loadBuiltRenderer, type RendererModule } from "../lib/page-render.js";
import { insertVerifiedSongs } from "./export-fixtures.js";
import { describeEachDialect, useTestApp } from "./harness.js";
import type { FloodOrder, FloodReport, WatchOrder, WatchReport } from "./page-flood-client.js";
import { useWebDist } from "./web-dist.js";

const SSR_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/dist-ssr");
const WEB_ENTRY = "../../../web/src/entry-server.tsx";
const built = await loadBuiltRenderer(SSR_DIST);
const renderer = built ?? ((await import(/* @vite-ignore */ WEB_ENTRY)) as RendererModule);

/** The pages rendered, by path and query: the popular page's renders are counted among them. */
const rendered: string[] = [];
const counting: RendererModule = {
  createPageRenderer() {
    const render = renderer.createPageRenderer();
    return (url, transport) => {
      const u = new URL(url);
      rendered.push(u.pathname + u.search);
      return render(url, transport);
    };
  },
};

const TEMPLATE =
  '<!doctype html><html><head><title>Unheard</title></head><body><div id="root"></div>' +
  '<script type="module" src="/assets/index.js"></script></body></html>';

/** How long each phase lasts (the attackers' rates, 300 and 600 a second, are about what the issue's attacker reached). */
const IDLE_MS = 2000;
const FLOOD_MS = 6000;
const PAGE_TTL_MS = 10_000;

/**
 * The machine is shared (two cores, other suites' browsers): the assertion allows half as much again as the 2x
 * target, and the figures are printed. Before issue 38's fixes the ratio was 68x (one address) and 102x (64).
 */
const SLACK = 1.5;

/** What one phase saw (see `phase`). */
type Phase = {
  rssMb: number;
  p50: number;
  samples: number;
  home: WatchReport["popular"];
  report: FloodReport;
  renders: number;
  homeRenders: number;
};

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describeEachDialect("page flood", (dialect) => {
  const ctx = useTestApp(dialect, {
    env: {
      WEB_DIST: useWebDist({ "index.html": TEMPLATE }),
      // The production defaults: every page a public read, 120 a minute per address.
      PUBLIC_RATE_LIMIT: "120",
      TRUST_PROXY: "true",
      // A small page cache, so the flood's one-off pages press on it: the popular page must stay all the same.
      PAGE_CACHE_MB: "1",
    },
    renderer: counting,
  });
  let port = 0;
  const paths: string[] = ["/", "/about", "/landing"];

  beforeAll(async () => {
    const songs = await insertVerifiedSongs(ctx.database.db, 300, { prefix: "flood", artists: 30 });
    await ctx.app.songsWritten(songs);
    paths.push(...songs.slice(0, 20).map((id) => `/song/${id}`));
    paths.push(...Array.from({ length: 10 }, (_, i) => `/artists/floodartist${String(i).padStart(4, "0")}`));
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  /** Run a client (page-flood-client.ts) on a worker thread of its own; its report. */
  async function client<R>(order: FloodOrder | WatchOrder): Promise<R> {
    const worker = new Worker(new URL("./ts-worker.mjs", import.meta.url), {
      workerData: { entry: new URL("./page-flood-client.ts", import.meta.url).href, order },
    });
    try {
      return await new Promise<R>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    } finally {
      await worker.terminate();
    }
  }

  /** Watch for `ms` from `monitor`, with a flood meanwhile when one is given; what was seen. */
  async function phase(
    ms: number,
    monitor: string,
    attack?: Omit<FloodOrder, "role" | "port" | "paths" | "durationMs"> & { paths?: string[] },
  ): Promise<Phase> {
    const renders = rendered.length;
    const homeRenders = rendered.filter((u) => u === "/").length;
    let rss = process.memoryUsage.rss();
    const sampler = setInterval(() => {
      rss = Math.max(rss, process.memoryUsage.rss());
    }, 200);
    const [seen, report] = await Promise.all([
      client<WatchReport>({ role: "watch", port, monitor, popular: "/", durationMs: ms }),
      attack
        ? client<FloodReport>({ role: "flood", port, paths, durationMs: ms, ...attack })
        : Promise.resolve(undefined),
    ]);
    clearInterval(sampler);
    return {
      rssMb: Math.round(rss / 1024 / 1024),
      p50: median(seen.health),
      samples: seen.health.length,
      home: seen.popular,
      report: report ?? { sent: 0, answered: 0, statuses: {}, skipped: 0 },
      renders: rendered.length - renders,
      homeRenders: rendered.filter((u) => u === "/").length - homeRenders,
    };
  }

  it("keeps /api/health's median within 2x of idle and the home page cached, from one address and from 64", async () => {
    const runs: { name: string; attack: Parameters<typeof phase>[2] }[] = [
      { name: "1 address", attack: { addresses: ["203.0.113.66"], perSecond: 300, inFlight: 32 } },
      {
        name: "64 addresses",
        attack: { addresses: Array.from({ length: 64 }, (_, i) => `10.${i}.0.1`), perSecond: 600, inFlight: 64 },
      },
      // A slower scan of search pages nobody else asks for, from 64 more addresses: within the budgets, so it is
      // rendered and fills the 1 MB page cache several times over; the home page must stay all the same.
      {
        name: "scan of new search pages, 64 addresses",
        attack: {
          addresses: Array.from({ length: 64 }, (_, i) => `10.${i}.1.1`),
          perSecond: 40,
          inFlight: 8,
          paths: ["/"],
          queries: "search",
        },
      },
    ];
    const lines = [
      `page flood [${dialect}], renderer: ${built ? "apps/web/dist-ssr (production build)" : "web sources (development React)"}`,
    ];
    const results: { name: string; idle: Phase; flood: Phase }[] = [];
    let monitor = 10;
    for (const run of runs) {
      // Each flood against the idle figure just before it: the machine is shared, and its load drifts.
      const idle = await phase(IDLE_MS, `192.0.2.${monitor++}`);
      const flood = await phase(FLOOD_MS, `192.0.2.${monitor++}`, run.attack);
      results.push({ name: run.name, idle, flood });
      const r = flood.report;
      lines.push(
        `${run.name}: health p50 ${flood.p50.toFixed(2)} ms against ${idle.p50.toFixed(2)} ms idle ` +
          `(${(flood.p50 / idle.p50).toFixed(2)}x; target 2x; ${flood.samples} and ${idle.samples} samples); ` +
          `flood sent ${r.sent} (${(r.sent / (FLOOD_MS / 1000)).toFixed(0)}/s), answered ${JSON.stringify(r.statuses)}, ` +
          `skipped ${r.skipped}; renders ${flood.renders}; home asked ${flood.home.asked}, sent rendered ` +
          `${flood.home.rendered}, rendered ${flood.homeRenders} time(s); server RSS peak ${flood.rssMb} MB`,
      );
    }
    console.log(lines.join("\n"));
    for (const { idle, flood } of results) {
      expect(idle.home.ok).toBe(idle.home.asked);
      expect(flood.report.answered).toBeGreaterThan(0);
      expect(flood.p50).toBeLessThanOrEqual(2 * SLACK * idle.p50);
      // The popular page: every visitor got it as rendered, from memory (a refresh per TTL at most).
      expect(flood.home.ok).toBe(flood.home.asked);
      expect(flood.home.rendered).toBe(flood.home.asked);
      expect(flood.homeRenders).toBeLessThanOrEqual(Math.ceil(FLOOD_MS / PAGE_TTL_MS));
    }
    const [one, , scan] = results.map((x) => x.flood);
    // One address is refused past its budget.
    expect(one?.report.statuses["429"] ?? 0).toBeGreaterThan((one?.report.sent ?? 0) / 2);
    // The scan reached the renderer. How many of its pages were rendered (and pushed through the 1 MB page cache)
    // depends on the machine's load: past the render budget they are sent plain. On a quiet machine 60-170 of 240
    // are; under load as few as 1. The admission policy itself is held by public-cache.test.ts (a scan of 20,000
    // one-off keys), where no clock or load decides how many pass.
    expect(scan?.renders ?? 0).toBeGreaterThan(0);
  });
});

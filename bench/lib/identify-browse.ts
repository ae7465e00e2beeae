// The browsing load of bench:identify-load, run as a process of its own: `node --import tsx
// bench/lib/identify-browse.ts CONFIG.json OUT.json`. autocannon at a fixed overall rate (so latencies with and
// without the identify load are comparable, corrected for coordinated omission), each request drawn at random from
// the home feeds, song pages and search, half of them signed in (members' answers are not shared from the public
// cache). Writes the latency percentiles and the status counts to OUT.json.
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { createRandom } from "./random.js";

/** What the orchestrator hands over. */
export type BrowseConfig = {
  base: string;
  seconds: number;
  connections: number;
  /** Requests per second over all connections. */
  rate: number;
  songIds: string[];
  queries: string[];
  /** Members' session cookies; half the requests carry one. */
  cookies: string[];
  seed: number;
};

/** What the browsing load measured (ms). */
export type BrowseResult = {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Requests per kind of page. */
  mix: Record<string, number>;
};

/** Run the browsing load of `config`. */
export async function browse(config: BrowseConfig): Promise<BrowseResult> {
  const random = createRandom(config.seed);
  const pick = <T>(xs: readonly T[]) => xs[random.int(xs.length)] as T;
  const statuses: Record<string, number> = {};
  const mix: Record<string, number> = {};
  // The share of each page, as a visitor's session might spread them.
  const pages: [string, number, () => string][] = [
    ["home feed: newest", 0.25, () => "/api/songs?feed=newest"],
    ["home feed: trending", 0.15, () => "/api/songs?feed=trending"],
    ["song page", 0.45, () => `/api/songs/${pick(config.songIds)}`],
    ["search", 0.15, () => `/api/search?q=${encodeURIComponent(pick(config.queries))}`],
  ];
  const result = await autocannon({
    url: config.base,
    connections: config.connections,
    overallRate: config.rate,
    duration: config.seconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          let u = random.next();
          let page = pages[pages.length - 1] as (typeof pages)[number];
          for (const p of pages) {
            if (u < p[1]) {
              page = p;
              break;
            }
            u -= p[1];
          }
          mix[page[0]] = (mix[page[0]] ?? 0) + 1;
          const headers: Record<string, string> = {};
          if (random.next() < 0.5 && config.cookies.length) headers.cookie = pick(config.cookies);
          return { ...req, method: "GET", path: page[2](), headers };
        },
        onResponse: (status: number) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  } as unknown as autocannon.Options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    mix,
  };
}

const [configFile, outFile] = process.argv.slice(2);
if (configFile && outFile) {
  const config = JSON.parse(readFileSync(configFile, "utf8")) as BrowseConfig;
  writeFileSync(outFile, JSON.stringify(await browse(config)));
}

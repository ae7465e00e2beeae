// The load generator of `npm run bench:api`, a process of its own: reads one scenario as JSON on argv, drives
// it with autocannon and prints the result as JSON on stdout (the server and hello-world run elsewhere).
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** One scenario: requests cycle through `requests` (method, path, body, cookie). */
export type LoadSpec = {
  url: string;
  connections: number;
  seconds: number;
  requests: { method: "GET" | "PUT" | "DELETE"; path: string; body?: string; cookie?: string }[];
  /** Write scenarios: record the last acknowledged request per key. */
  trackKeys?: string[];
};

/** What the orchestrator gets back. */
export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  /** For write scenarios: index of the last acknowledged request of each key. */
  acknowledged?: Record<string, number>;
};

const spec = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as LoadSpec;
let next = 0;
const acknowledged: Record<string, number> = {};
const latest = new Map<string, number>();
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  requests: [
    {
      setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
        const seq = next++;
        const i = seq % spec.requests.length;
        const r = spec.requests[i];
        context.i = i;
        context.seq = seq;
        const headers: Record<string, string> = {};
        if (r?.cookie) headers.cookie = r.cookie;
        if (r?.body) headers["content-type"] = "application/json";
        return { ...req, method: r?.method, path: r?.path, headers, ...(r?.body ? { body: r.body } : {}) };
      },
      onResponse: (status: number, _body: string, context: Record<string, unknown>) => {
        const i = context.i as number;
        const seq = context.seq as number;
        const key = spec.trackKeys?.[i];
        // The latest acknowledged request of a key decides what the database must hold for it.
        if (key !== undefined && status >= 200 && status < 300 && seq >= (latest.get(key) ?? -1)) {
          latest.set(key, seq);
          acknowledged[key] = i;
        }
      },
    },
  ],
} as unknown as autocannon.Options);
const out: LoadResult = {
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx,
  total: result.requests.total,
  ...(spec.trackKeys ? { acknowledged } : {}),
};
process.stdout.write(`${JSON.stringify(out)}\n`);

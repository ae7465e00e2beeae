// The clients of page-flood.test.ts, each on a worker thread of its own so that no request is made (or timed) on the
// server's event loop:
// - "flood", the attacker: pages of every server-rendered route with random query strings, at a fixed rate (an open
//   loop: it does not slow down when the server does, up to `inFlight` requests waiting), from one or many client
//   addresses (X-Forwarded-For, the server trusting its proxy). Reports what it sent and what came back.
// - "watch": /api/health every 20 ms from one monitoring address (each answer's time), and the popular page every
//   50 ms from visitors' addresses (answered, and sent as a rendered page: it has an ETag, the plain page none).
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

/** What the test asks of the flood. */
export type FloodOrder = {
  role: "flood";
  port: number;
  /** Page paths to flood (each gets a random query string). */
  paths: string[];
  /** Client addresses the requests come from, one picked per request. */
  addresses: string[];
  perSecond: number;
  inFlight: number;
  durationMs: number;
  /** "search": only new search terms (`?q=`), each page one nobody has asked for; otherwise any query string. */
  queries?: "search";
};

/** What the flood saw. */
export type FloodReport = { sent: number; answered: number; statuses: Record<string, number>; skipped: number };

/** What the test asks of the watcher. */
export type WatchOrder = { role: "watch"; port: number; monitor: string; popular: string; durationMs: number };

/** What the watcher saw: /api/health's times (ms), and the popular page's answers. */
export type WatchReport = { health: number[]; popular: { asked: number; ok: number; rendered: number } };

const order = (workerData as { order: FloodOrder | WatchOrder }).order;
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const word = () => Math.random().toString(36).slice(2, 8);

/** A random query string: unknown parameters, and random values of the parameters pages read. */
function randomQuery(): string {
  const kinds = [
    () => `x=${word()}`,
    () => `utm_source=${word()}&ref=${word()}`,
    () => `q=${word()}`,
    () => `genre=${word()}`,
    () => `era=${word()}`,
    () => `view=table&q=${word()}`,
    () => `sort=${word()}&dir=desc`,
  ];
  return pick(kinds)();
}

/** Flood the pages at the order's rate for its duration; report what came back. */
function flood(order: FloodOrder): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: order.inFlight });
  const report: FloodReport = { sent: 0, answered: 0, statuses: {}, skipped: 0 };
  let waiting = 0;

  const send = () => {
    report.sent++;
    waiting++;
    const req = http.get(
      {
        agent,
        host: "127.0.0.1",
        port: order.port,
        path: `${pick(order.paths)}?${order.queries === "search" ? `q=${word()}+${word()}` : randomQuery()}`,
        headers: { "x-forwarded-for": pick(order.addresses), "accept-encoding": "br, gzip" },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          waiting--;
          report.answered++;
          const key = String(res.statusCode);
          report.statuses[key] = (report.statuses[key] ?? 0) + 1;
        });
      },
    );
    req.on("error", () => {
      waiting--;
      report.statuses.error = (report.statuses.error ?? 0) + 1;
    });
  };

  const started = performance.now();
  const TICK_MS = 5;
  let sentBy = 0;
  const timer = setInterval(() => {
    // As many as are due by now at the order's rate (timers run late under load: the rate is kept all the same).
    const due = Math.floor(((performance.now() - started) * order.perSecond) / 1000);
    while (sentBy < due) {
      sentBy++;
      // Past `inFlight` waiting, a request is counted as skipped: the attacker has no more connections.
      if (waiting >= order.inFlight) report.skipped++;
      else send();
    }
    if (performance.now() - started >= order.durationMs) {
      clearInterval(timer);
      // The answers still on their way are waited for (a few seconds at most), then the report goes back.
      const end = performance.now() + 5000;
      const done = setInterval(() => {
        if (waiting > 0 && performance.now() < end) return;
        clearInterval(done);
        agent.destroy();
        parentPort?.postMessage(report);
      }, 20);
    }
  }, TICK_MS);
}

/** GET `path` from `address`: status, whether it carries an ETag, and its time. */
function get(agent: http.Agent, port: number, path: string, address: string) {
  return new Promise<{ status: number; etag: boolean; ms: number }>((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(
      { agent, host: "127.0.0.1", port, path, headers: { "x-forwarded-for": address, "accept-encoding": "br" } },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, etag: res.headers.etag !== undefined, ms: performance.now() - t0 }),
        );
      },
    );
    req.on("error", reject);
  });
}

/** Watch /api/health and the popular page for the order's duration; report what was seen. */
async function watch(order: WatchOrder): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const report: WatchReport = { health: [], popular: { asked: 0, ok: 0, rendered: 0 } };
  const end = performance.now() + order.durationMs;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let visitor = 0;
  await Promise.all([
    (async () => {
      while (performance.now() < end) {
        const r = await get(agent, order.port, "/api/health", order.monitor);
        if (r.status === 200) report.health.push(r.ms);
        await pause(20);
      }
    })(),
    (async () => {
      while (performance.now() < end) {
        const r = await get(agent, order.port, order.popular, `198.51.100.${(visitor++ % 250) + 1}`);
        report.popular.asked++;
        if (r.status === 200) report.popular.ok++;
        if (r.etag) report.popular.rendered++;
        await pause(50);
      }
    })(),
  ]);
  agent.destroy();
  parentPort?.postMessage(report);
}

if (order.role === "flood") flood(order);
else void watch(order);

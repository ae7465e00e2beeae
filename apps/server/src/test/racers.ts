// Racing requests over separate database connections, for the race suites (races.test.ts, caps.races.test.ts).
// SQLite: worker threads, each an app with its own connection to the file (request-worker.ts); PostgreSQL: the
// suite's app and sibling apps, each with its own pool.
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll } from "vitest";
import type { App } from "../http.js";
import { createSiblingApp, type TestContext } from "./harness.js";
import type { WorkerReply, WorkerRequest } from "./request-worker.js";

/** One answer: its status and body. */
export type Answer = { statusCode: number; body: string };

/** Fire requests at once, spread over every instance (each with its own connections); answers in order. */
export type Racers = { race(requests: WorkerRequest[]): Promise<Answer[]> };

/** How many extra instances: sibling apps on PostgreSQL, worker threads on SQLite. */
export type RacerCounts = { siblings?: number; threads?: number };

/** Threads for SQLite, sibling apps for PostgreSQL; started before the suite's tests, stopped after them. */
export function useRacers(ctx: TestContext, { siblings = 2, threads = 3 }: RacerCounts = {}): Racers {
  const apps: App[] = [];
  const started: { close(): Promise<void> }[] = [];
  const workers: { worker: Worker; send(requests: WorkerRequest[]): Promise<Answer[]> }[] = [];
  beforeAll(async () => {
    apps.push(ctx.app);
    if (ctx.database.dialect === "postgres") {
      for (let i = 0; i < siblings; i++) {
        const sibling = await createSiblingApp(ctx);
        started.push(sibling);
        apps.push(sibling.app);
      }
      return;
    }
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(new URL("./ts-worker.mjs", import.meta.url), {
        workerData: {
          entry: new URL("./request-worker.ts", import.meta.url).href,
          file: ctx.file,
          dataDir: ctx.dataDir,
          env: ctx.env,
        },
      });
      const pending = new Map<number, (answers: Answer[]) => void>();
      let next = 0;
      await new Promise<void>((resolve, reject) => {
        worker.on("message", (reply: WorkerReply) => {
          if ("ready" in reply) resolve();
          else pending.get(reply.id)?.(reply.results);
        });
        worker.once("error", reject);
      });
      workers.push({
        worker,
        send: (requests) =>
          new Promise((resolve) => {
            const id = next++;
            pending.set(id, resolve);
            worker.postMessage({ id, requests });
          }),
      });
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of started) await s.close();
    for (const w of workers) await w.worker.terminate();
  });
  return {
    async race(requests) {
      const lanes = apps.length + workers.length;
      const byLane = Array.from({ length: lanes }, (_, lane) =>
        requests.map((r, i) => ({ r, i })).filter(({ i }) => i % lanes === lane),
      );
      const answers: Answer[] = new Array(requests.length);
      await Promise.all(
        byLane.map(async (items, lane) => {
          const app = apps[lane];
          const got = app
            ? await Promise.all(
                items.map(async ({ r }) => {
                  const res = await app.inject({
                    method: r.method as "GET",
                    url: r.url,
                    headers: r.headers ?? {},
                    ...(r.payload !== undefined ? { payload: r.payload as string } : {}),
                  });
                  return { statusCode: res.statusCode, body: res.body };
                }),
              )
            : await (workers[lane - apps.length]?.send(items.map(({ r }) => r)) ?? []);
          items.forEach(({ i }, k) => {
            answers[i] = got[k] as Answer;
          });
        }),
      );
      return answers;
    },
  };
}

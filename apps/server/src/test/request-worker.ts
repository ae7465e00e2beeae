// A separate app instance with its own SQLite connection, in its own thread: it answers batches of requests sent
// by the test (all of a batch at once), as another server process on the same database file would.
import { parentPort, workerData } from "node:worker_threads";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/database.js";

/** One request of a batch; a payload sent as bytes arrives as a Uint8Array. */
export type WorkerRequest = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Uint8Array | object;
};
/** What the test sends: a batch to answer, or the order to close. */
export type WorkerMessage = { id: number; requests: WorkerRequest[] } | { close: true };
/** What the worker sends back: its app is ready, or a batch's answers in order. */
export type WorkerReply = { ready: true } | { id: number; results: { statusCode: number; body: string }[] };

const job = workerData as { file: string; dataDir: string; env: Record<string, string> };
const database = openDatabase({ file: job.file });
const app = await buildApp({ config: loadConfig({ ...job.env, DATA_DIR: job.dataDir }), database, logger: false });
await app.ready();
const port = parentPort;
if (!port) throw new Error("request-worker runs only as a worker thread");

port.on("message", async (message: WorkerMessage) => {
  if ("close" in message) {
    await app.close();
    await database.close();
    port.close();
    return;
  }
  const results = await Promise.all(
    message.requests.map(async (r) => {
      const res = await app.inject({
        method: r.method as "GET",
        url: r.url,
        headers: r.headers ?? {},
        ...(r.payload !== undefined
          ? { payload: r.payload instanceof Uint8Array ? Buffer.from(r.payload) : r.payload }
          : {}),
      });
      return { statusCode: res.statusCode, body: res.body };
    }),
  );
  port.postMessage({ id: message.id, results } satisfies WorkerReply);
});
port.postMessage({ ready: true } satisfies WorkerReply);

// A separate app instance with its own SQLite connection, in its own thread, firing votes at one song.
import { parentPort, workerData } from "node:worker_threads";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/database.js";

type Job = {
  file: string;
  dataDir: string;
  songId: string;
  cookie: string;
  count: number;
  env: Record<string, string>;
};
const job = workerData as Job;
const database = openDatabase({ file: job.file });
const config = loadConfig({ ...job.env, DATA_DIR: job.dataDir });
const app = await buildApp({ config, database, logger: false });
await app.ready();
const results = await Promise.all(
  Array.from({ length: job.count }, () =>
    app.inject({
      method: "PUT",
      url: `/api/songs/${job.songId}/vote`,
      headers: { cookie: job.cookie },
      payload: { value: "up" },
    }),
  ),
);
await app.close();
await database.close();
parentPort?.postMessage(results.map((r) => r.statusCode));

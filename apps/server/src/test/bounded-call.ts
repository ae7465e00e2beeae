// A call with a deadline: a function that runs away (a regex backtracking for minutes) blocks its thread, so no
// timer on that thread can stop it. callWithin runs it on a worker thread and ends the worker at the deadline.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

type Job = { bounded: true; module: string; fn: string; args: unknown[] };

/**
 * Call the export `fn` of `module` with `args` on a worker thread; resolves with its value and how long the call
 * took, rejects when it has not returned within `ms` (worker start-up not counted).
 */
export function callWithin<T>(module: URL, fn: string, args: unknown[], ms: number): Promise<{ value: T; ms: number }> {
  const worker = new Worker(new URL("./ts-worker.mjs", import.meta.url), {
    workerData: {
      entry: import.meta.url,
      bounded: true,
      module: module.href,
      fn,
      args,
    } satisfies Job & { entry: string },
  });
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    worker.on("message", (msg: { started: true } | { value: T; ms: number } | { error: string }) => {
      if ("started" in msg) {
        timer = setTimeout(() => {
          void worker.terminate();
          reject(new Error(`${fn} did not return within ${ms} ms`));
        }, ms);
      } else {
        clearTimeout(timer);
        void worker.terminate();
        if ("error" in msg) reject(new Error(msg.error));
        else resolve(msg);
      }
    });
    worker.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

if (!isMainThread && (workerData as Partial<Job>)?.bounded && parentPort) {
  const job = workerData as Job;
  const port = parentPort;
  const mod = (await import(job.module)) as Record<string, (...args: unknown[]) => unknown>;
  port.postMessage({ started: true });
  const start = performance.now();
  try {
    const value = mod[job.fn]?.(...job.args);
    port.postMessage({ value, ms: performance.now() - start });
  } catch (err) {
    port.postMessage({ error: String(err) });
  }
}

// Where a worker thread's script is, for a module that starts worker threads (audio-pool.ts, seed/demo-audio.ts).

/**
 * The worker script next to the calling module (`here`: its `import.meta.url`): the built file (`built`, as
 * scripts/build-server.mjs names it) in dist, or in development and tests the TypeScript `source` through tsx's API
 * (Node 20 does not apply `--import tsx` from a worker's execArgv to the worker's own entry).
 */
export function workerEntry(here: string, source: string, built = source.replace(/\.ts$/, ".js")): URL {
  if (!here.endsWith(".ts")) return new URL(built, here);
  const target = JSON.stringify(new URL(source, here).href);
  const boot = `import { tsImport } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))}; await tsImport(${target}, ${target});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

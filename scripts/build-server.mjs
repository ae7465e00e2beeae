#!/usr/bin/env node
// Bundle the server ahead of time into apps/server/dist (docs/decisions/009-server-build.md): main.js and the
// maintenance scripts (migrate.js, seed.js, fingerprint-backfill.js), the demo audio worker
// (demo-audio-worker.js, started by the seed in worker threads) and the audio pool's worker (audio-pool-worker.js,
// started by the server for decoding and fingerprinting), as ESM for Node 20. The workspace packages
// (@unheard/shared, @unheard/fingerprint) are TypeScript source, so they are bundled; every npm dependency stays
// an import resolved from node_modules at run time (better-sqlite3 is native, pino starts its transports by name).
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = path.join(ROOT, "apps/server");
export const SERVER_DIST = path.join(SERVER, "dist");

/** Bare imports stay external, except our own workspace packages. */
const externalDependencies = {
  name: "external-dependencies",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@unheard/")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Build apps/server/dist from scratch; resolves with esbuild's result (warnings, metafile). */
export async function buildServer() {
  rmSync(SERVER_DIST, { recursive: true, force: true });
  return build({
    absWorkingDir: ROOT,
    entryPoints: {
      main: path.join(SERVER, "src/main.ts"),
      migrate: path.join(SERVER, "scripts/migrate.ts"),
      seed: path.join(SERVER, "scripts/seed.ts"),
      "fingerprint-backfill": path.join(SERVER, "scripts/fingerprint-backfill.ts"),
      // The worker threads that render demo audio (src/seed/demo-audio.ts starts them from this file).
      "demo-audio-worker": path.join(SERVER, "src/seed/audio-worker.ts"),
      // The audio pool's threads: decoding, measuring and fingerprinting off the event loop (src/lib/audio-pool.ts).
      "audio-pool-worker": path.join(SERVER, "src/lib/audio-pool-worker.ts"),
    },
    outdir: SERVER_DIST,
    bundle: true,
    // Code shared by the entry points lives once in chunk files next to them: at the same depth as
    // apps/server/src, so paths computed from import.meta.url (the web app's dist) resolve the same.
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: true,
    // Keep names readable in stack traces and logs.
    minify: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [externalDependencies],
    metafile: true,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  if (!process.argv.includes("--quiet"))
    console.log(`server built into apps/server/dist in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

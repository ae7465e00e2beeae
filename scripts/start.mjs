#!/usr/bin/env node
// `npm start`: build the web app and the server only when missing or out of date (scripts/build.mjs), then run
// the bundled server (apps/server/dist/main.js) in this very process, so signals (Ctrl-C, SIGTERM) and the exit
// code are the server's own. Source maps are enabled first, as `node --enable-source-maps` would.
import { ensureBuilt } from "./build.mjs";

console.log("Starting Unheard: checking the build…");
try {
  ensureBuilt({ quiet: true });
} catch (err) {
  console.error(`unheard: ${err.message}`);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import("../apps/server/dist/main.js");

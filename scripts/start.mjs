#!/usr/bin/env node
// `npm start`: build the web app and the server only when missing or out of date (scripts/build.mjs), then run
// the bundled server (apps/server/dist/main.js) in this very process, so signals (Ctrl-C, SIGTERM) and the exit
// code are the server's own. Source maps are enabled first, as `node --enable-source-maps` would.
// What it prints is what a person needs (issue 38); the build tools' own output shows with LOG_LEVEL=debug.
import { existsSync } from "node:fs";
import { BuildStopped, ensureBuilt, SAY } from "./build.mjs";

// The server reads .env too; LOG_LEVEL may be set there.
if (existsSync(".env")) process.loadEnvFile(".env");
const verbose = ["debug", "trace"].includes(process.env.LOG_LEVEL ?? "");

// Ctrl-C during a build stops the build tool (same process group); this process then says so and leaves on a clean
// line instead of dying mid-output. The server installs its own handlers once it runs.
const ignore = () => {};
process.on("SIGINT", ignore);
process.on("SIGTERM", ignore);
console.log(SAY.checking);
try {
  ensureBuilt({ quiet: !verbose });
} catch (err) {
  if (err instanceof BuildStopped) {
    console.log(SAY.stopped);
    process.exit(0);
  }
  console.error(`unheard: ${err.message}`);
  process.exit(1);
}
process.off("SIGINT", ignore);
process.off("SIGTERM", ignore);
process.setSourceMapsEnabled(true);
await import("../apps/server/dist/main.js");

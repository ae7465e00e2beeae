#!/usr/bin/env node
// npm test: every test, in the order that fails fastest, with the PostgreSQL API suite and the SQLite crash run side
// by side (one is mostly the database's work, the other mostly waiting on restarts), and each step's time printed so
// CI's 30 minutes are watched. Stops at the first step that fails.
import { spawn } from "node:child_process";

/** Run a command through the shell (npm scripts' PATH); resolves with its exit code and seconds. */
function run(name, command, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds });
    });
  });
}

const steps = [
  [["unit and API tests (SQLite)", "npx vitest run"]],
  [
    ["API tests (PostgreSQL)", "npm run test:pg"],
    ["crash run (SQLite)", "npm run test:crash", { CRASH_KILLS: process.env.CRASH_KILLS ?? "30" }],
  ],
  [["browser tests", "npm run e2e"]],
  [["soak", "npm run test:soak", { SOAK_SECONDS: process.env.SOAK_SECONDS ?? "30" }]],
];

const started = Date.now();
const times = [];
for (const group of steps) {
  const results = await Promise.all(group.map(([name, command, env]) => run(name, command, env)));
  times.push(...results);
  const failed = results.find((r) => r.code !== 0);
  if (failed) {
    console.error(`\n${failed.name} failed (exit ${failed.code})`);
    process.exit(failed.code);
  }
}
console.log(`\nnpm test passed in ${((Date.now() - started) / 60_000).toFixed(1)} min:`);
for (const t of times) console.log(`  ${t.name}: ${(t.seconds / 60).toFixed(1)} min`);

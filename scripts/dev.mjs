#!/usr/bin/env node
// `npm run dev`: the API server (restarts on change) and Vite (hot reload, proxies /api) side by side.
import { spawn } from "node:child_process";

const procs = [
  spawn("npm", ["run", "dev", "-w", "@unheard/server"], { stdio: "inherit" }),
  spawn("npm", ["run", "dev", "-w", "@unheard/web"], { stdio: "inherit" }),
];
const stop = () => {
  for (const p of procs) p.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const p of procs) {
  p.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}

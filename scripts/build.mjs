#!/usr/bin/env node
// `npm run build`: the web app (Vite, into apps/web/dist) and the server (esbuild, into apps/server/dist).
// After each successful build a hash of its sources is written to .build-stamp.json; `npm start`
// (scripts/start.mjs) and the browser tests call ensureBuilt(), which rebuilds only what is missing or whose
// sources changed since. `node scripts/build.mjs --if-stale` does the same from the command line.
// Quiet builds (`npm start`) keep the tools' own output (Vite's list of assets, its progress lines) and print it
// only when a build fails; `npm run build` and LOG_LEVEL=debug show it as it comes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const STAMP_FILE = path.join(ROOT, ".build-stamp.json");

/** Never inputs of a build. */
const SKIP_DIRS = new Set(["node_modules", "dist", "dist-ssr", ".scratch", ".vite", "coverage", "test-results"]);

/** Tests are never part of a build: editing them does not make it stale. */
const isTest = (rel) => /\.test\.tsx?$/.test(rel);

/** Shared by both builds: the workspace packages, dependency versions and compiler settings. */
const COMMON_INPUTS = ["packages/shared", "packages/fingerprint", "package-lock.json", "tsconfig.base.json"];

const TARGETS = {
  web: {
    label: "web app",
    tool: "Vite",
    inputs: ["apps/web", ...COMMON_INPUTS],
    // The browser's build and the server renderer's (apps/web/dist-ssr, decision 026) come from one command.
    output: "apps/web/dist-ssr/entry-server.js",
    build: ({ quiet }) => {
      run("npm", ["run", "build", "--silent", "-w", "@unheard/web"], { quiet });
      compressAssets(path.join(ROOT, "apps/web/dist"));
    },
  },
  server: {
    label: "server",
    tool: "esbuild",
    inputs: [
      "apps/server/src",
      "apps/server/scripts",
      "apps/server/package.json",
      "scripts/build-server.mjs",
      ...COMMON_INPUTS,
    ],
    skip: (rel) => rel.startsWith("apps/server/src/test/"),
    output: "apps/server/dist/main.js",
    // A process of its own, so esbuild's service does not outlive the build inside `npm start`.
    build: ({ quiet }) => run(process.execPath, [path.join(ROOT, "scripts/build-server.mjs"), "--quiet"], { quiet }),
  },
};

/** What a build says, line by line (the README's quick start shows these; main.test.ts keeps them in step). */
export const SAY = {
  checking: "Starting Unheard: checking the build…",
  building: (label, tool, why) => `Building the ${label} (${tool}, ${why})…`,
  built: (label, seconds) => `✓ ${label} built in ${seconds} s`,
  upToDate: (labels, seconds) => `✓ ${labels.join(" and ")} up to date (checked in ${seconds} s)`,
  stopped: "Stopped during the build; the next start builds what is missing.",
};

/** The targets in build order, as the lines name them. */
export const BUILD_TARGETS = Object.values(TARGETS).map(({ label, tool }) => ({ label, tool }));

/**
 * Brotli and gzip copies of the built text assets, once per build: the server sends them as they are
 * (@fastify/static preCompressed) instead of compressing on every request or sending 700 KB of JavaScript raw.
 */
function compressAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json|txt|webmanifest)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const raw = readFileSync(file);
    if (raw.length < 1024) continue;
    writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  }
}

/** A build that ended because the person stopped it (Ctrl-C): not a failure, nothing to show. */
export class BuildStopped extends Error {}

/**
 * Run a build step. Quiet: its output is kept and written (to stderr) only if it fails. A step killed by a signal
 * (Ctrl-C reaches the whole process group) throws BuildStopped.
 */
export function run(cmd, args, { quiet = false, cwd = ROOT } = {}) {
  const res = spawnSync(cmd, args, {
    cwd,
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (res.signal) throw new BuildStopped(`${[cmd, ...args].join(" ")} stopped (${res.signal})`);
  if (res.status !== 0) {
    if (quiet) process.stderr.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    throw new Error(`${[cmd, ...args].join(" ")} failed (${res.error?.message ?? `exit ${res.status}`})`);
  }
}

/** Every file under the inputs, as paths relative to the root, sorted. */
function listFiles(inputs, skip) {
  const files = [];
  const walk = (rel) => {
    const abs = path.join(ROOT, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(child);
      } else if (entry.isFile() && !isTest(child) && !skip?.(child)) files.push(child);
    }
  };
  for (const input of inputs) {
    const abs = path.join(ROOT, input);
    if (!existsSync(abs)) continue;
    if (statSync(abs).isDirectory()) walk(input);
    else files.push(input);
  }
  return [...new Set(files)].sort();
}

/** A hash of the names and contents of a target's sources. */
export function sourceHash(name) {
  const target = TARGETS[name];
  const hash = createHash("sha256");
  for (const file of listFiles(target.inputs, target.skip)) {
    hash.update(file);
    hash.update("\0");
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP_FILE, "utf8"));
  } catch {
    return {};
  }
}

function writeStamp(name, hash) {
  // Re-read: the other target may have been stamped meanwhile.
  const stamp = { ...readStamp(), [name]: hash };
  writeFileSync(STAMP_FILE, `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * Build each target whose output is missing or whose sources differ from the stamp (every target with
 * force). The hash is taken before building, so a source edited during the build makes the next run build again.
 * Says what it builds and how long each part took (one line when everything was up to date).
 */
export function ensureBuilt({ force = false, quiet = false, log = console.log } = {}) {
  const started = performance.now();
  const upToDate = [];
  for (const [name, target] of Object.entries(TARGETS)) {
    const hash = sourceHash(name);
    const current = existsSync(path.join(ROOT, target.output)) && readStamp()[name] === hash;
    if (current && !force) {
      upToDate.push(target.label);
      continue;
    }
    const why = existsSync(path.join(ROOT, target.output)) ? "sources changed" : "first build";
    log(SAY.building(target.label, target.tool, why));
    const began = performance.now();
    target.build({ quiet });
    writeStamp(name, hash);
    log(SAY.built(target.label, seconds(began)));
  }
  if (upToDate.length > 0) log(SAY.upToDate(upToDate, seconds(started)));
}

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureBuilt({ force: !process.argv.includes("--if-stale") });
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}

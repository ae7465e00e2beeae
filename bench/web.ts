// npm run bench:web: Lighthouse (performance) on the production build served by the real server, desktop preset
// and mobile emulation, each page run several times (median), against the page budgets of issue 12.
//   --runs=N       runs per page and form factor (default 3)
//   --rebuild      build the web app even when apps/web/dist exists
//   --only=/,/pending   measure only these routes (as the table names them)
import { execSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type FormFactor, runLighthouse } from "./lib/web-lighthouse.js";
import { consoleTable, markdownTable, type PageResult, type Row, TARGETS, toRow } from "./lib/web-report.js";
import { ROOT, servesCompressed, signIn, startServer } from "./lib/web-server.js";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const runs = Number(arg("runs") ?? 3);
const dist = path.join(ROOT, "apps/web/dist");

// The production build as `npm start` makes it (web app with its compressed copies, server bundle).
execSync(`node scripts/build.mjs${process.argv.includes("--rebuild") ? "" : " --if-stale"}`, {
  cwd: ROOT,
  stdio: "inherit",
});

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) on a busy machine: try again. */
async function withRetries<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      if (i >= attempts) throw err;
      console.log(`    (run failed: ${(err as Error).message.split("\n")[0]}; retrying)`);
    }
  }
}

const server = await startServer();
const rows: Row[] = [];
let encoding: string | undefined;
try {
  const entry = readdirSync(path.join(dist, "assets")).find((f) => /^index-.*\.js$/.test(f));
  encoding = entry ? await servesCompressed(server.baseURL, `/assets/${entry}`) : undefined;
  const base = server.baseURL;

  const feed = (await (await fetch(`${server.baseURL}/api/songs?feed=newest&limit=1`)).json()) as {
    items: { id: string }[];
  };
  const songId = feed.items[0]?.id;
  if (!songId) throw new Error("The demo feed is empty");
  // The artist with the most songs: a tracker page of some length.
  const artists = (await (await fetch(`${server.baseURL}/api/songs?feed=newest&limit=48`)).json()) as {
    items: { artists: { id: string }[] }[];
  };
  const counts = new Map<string, number>();
  for (const s of artists.items) for (const a of s.artists) counts.set(a.id, (counts.get(a.id) ?? 0) + 1);
  const artistId = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!artistId) throw new Error("The demo feed has no artist");
  // /pending is for signed-in users (visitors are sent to /login): measure it as the demo listener.
  const cookie = await signIn(server.baseURL, "listener@unheard.local", "listener123");

  const pages: { route: string; path: string; headers?: Record<string, string> }[] = [
    { route: "/", path: "/" },
    { route: "/song/:id", path: `/song/${songId}` },
    { route: "/artists/:id", path: `/artists/${artistId}` },
    { route: "/pending", path: "/pending", headers: { Cookie: cookie } },
    { route: "/landing", path: "/landing" },
  ];
  const only = arg("only")?.split(",");
  if (only) pages.splice(0, pages.length, ...pages.filter((p) => only.includes(p.route)));
  const formFactors: FormFactor[] = ["desktop", "mobile"];
  console.log(`Server: ${server.label} at ${server.baseURL}; ${runs} runs per page and form factor.`);
  for (const p of pages) {
    for (const formFactor of formFactors) {
      const result: PageResult = { route: p.route, formFactor, runs: [] };
      for (let i = 0; i < runs; i++) {
        const figures = await withRetries(() =>
          runLighthouse(`${base}${p.path}`, formFactor, { dist, ...(p.headers ? { headers: p.headers } : {}) }),
        );
        result.runs.push(figures);
        console.log(
          `  ${p.route} ${formFactor} run ${i + 1}: performance ${figures.performance}, ` +
            `LCP ${figures.lcpMs.toFixed(0)} ms, CLS ${figures.cls.toFixed(3)}, TBT ${figures.tbtMs.toFixed(0)} ms, ` +
            `JS ${(figures.jsGzipBytes / 1024).toFixed(1)} KB gzip in ${figures.scripts.length} files`,
        );
      }
      rows.push(toRow(result));
    }
  }
} finally {
  await server.stop();
}

const served = encoding
  ? `The server sends assets with Content-Encoding: ${encoding}.`
  : "The server sends assets uncompressed (no Content-Encoding for a client accepting br and gzip).";
const notes = [
  `Each figure is the median of ${runs} Lighthouse 12 runs (performance category; ` +
    "desktop = Lighthouse's desktop preset, mobile = its default mobile emulation with simulated throttling), " +
    "in Chromium (/usr/bin/chromium, headless), on a shared 2-core machine: expect a few points of noise.",
  "Initial JS = every same-origin script the page requested up to the load event (entry chunk, its static " +
    "imports, the route's lazy chunk and what it pulls in), each built file gzipped with zlib level 6; " +
    '"JS sent KB" is what the server actually transferred for them.',
  served,
  "/pending is measured signed in as the demo listener (visitors are redirected to /login).",
  `Targets: performance >= ${TARGETS.performance.desktop} desktop and >= ${TARGETS.performance.mobile} mobile, ` +
    `CLS < ${TARGETS.cls}, initial JS of / <= ${TARGETS.homeJsKb} KB gzip.`,
].filter(Boolean);

console.log(`\n${consoleTable(rows)}\n`);
for (const n of notes) console.log(`- ${n}`);

const misses = rows.filter((r) => !r.pass.performance || !r.pass.cls || r.pass.js === false || r.pass.lcp === false);
const md = [
  "# bench:web results",
  "",
  `Generated by \`npm run bench:web\` on ${new Date().toISOString().slice(0, 10)}, ` + `Node ${process.version}.`,
  "",
  markdownTable(rows),
  "",
  ...notes.map((n) => `- ${n}`),
  "",
  misses.length ? `Missed: ${misses.map((r) => `${r.route} ${r.formFactor}`).join(", ")}.` : "Every target is met.",
  "",
].join("\n");
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
const out = path.join(ROOT, "bench/results", "web.md");
writeFileSync(out, md);
console.log(`\nWrote ${path.relative(ROOT, out)}`);

// Tables of `npm run bench:search`: recall per query kind and endpoint with the issue's targets, PostgreSQL
// against SQLite, recall at two catalogue sizes; the load rows use bench:api's table (api-report.ts).
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Row, Target } from "./api-report.js";
import { KIND_LABELS, type QueryKind } from "./search-queries.js";
import { type Endpoint, RECALL_TARGETS, type Recall } from "./search-relevance.js";
import { ROOT } from "./web-server.js";

export type Summary = Map<QueryKind, Partial<Record<Endpoint, Recall>>>;

/** The issue's load targets for search and suggestions (SQLite, 100,000 songs, 50 connections). */
export const LOAD_TARGETS = {
  search: {
    text: "p99 <= 50 ms, >= 15% of hello-world",
    pass: (r: Row) => r.p99 <= 50 && (r.share ?? 0) >= 15,
  },
  suggest: { text: "p99 <= 30 ms", pass: (r: Row) => r.p99 <= 30 },
} satisfies Record<string, Target>;

const pct = (v: number | undefined) => (v === undefined ? "" : `${v.toFixed(1)}%`);
const verdict = (ok: boolean | undefined) => (ok === undefined ? "" : ok ? "pass" : "**MISS**");
const line = (c: string[]) => `| ${c.join(" | ")} |`;
const rule = (n: number, left: number[]) =>
  line(Array.from({ length: n }, (_, i) => (left.includes(i) ? "---" : "---:")));

/** Recall@1 and @5 per kind for each endpoint measured, the target and pass/miss per endpoint. */
export function recallTable(summary: Summary, endpoints: readonly Endpoint[]): string {
  const header = [
    "query kind",
    "queries",
    ...endpoints.flatMap((e) => [`${e} @1`, `${e} @5`]),
    ...endpoints.map((e) => `${e} median ms`),
    "target @5",
    ...endpoints.map((e) => `${e}`),
  ];
  const rows = [...summary].map(([kind, r]) => {
    const target = RECALL_TARGETS[kind];
    const first = endpoints.map((e) => r[e]).find((x) => x);
    const errors = endpoints.reduce((n, e) => n + (r[e]?.errors ?? 0), 0);
    return line([
      KIND_LABELS[kind],
      `${first?.n ?? 0}${errors ? ` (${errors} errors)` : ""}`,
      ...endpoints.flatMap((e) => [pct(r[e]?.at1), pct(r[e]?.at5)]),
      ...endpoints.map((e) => (r[e] ? r[e].medianMs.toFixed(0) : "")),
      target === undefined ? "" : `>= ${target}%`,
      ...endpoints.map((e) => verdict(target === undefined || !r[e] ? undefined : (r[e]?.at5 ?? 0) >= target)),
    ]);
  });
  const left = [0, header.length - endpoints.length - 1, ...endpoints.map((_, i) => header.length - 1 - i)];
  return [line(header), rule(header.length, left), ...rows].join("\n");
}

/** PostgreSQL's recall against SQLite's on the same catalogue and queries: within 2 points per kind and measure. */
export function dialectTable(sqlite: Summary, postgres: Summary, endpoints: readonly Endpoint[]): string {
  const header = [
    "query kind",
    "endpoint",
    "SQLite @1",
    "PostgreSQL @1",
    "SQLite @5",
    "PostgreSQL @5",
    "within 2 points",
  ];
  const rows: string[] = [];
  for (const [kind, pg] of postgres)
    for (const e of endpoints) {
      const a = sqlite.get(kind)?.[e];
      const b = pg[e];
      if (!a || !b) continue;
      const ok = Math.abs(a.at1 - b.at1) <= 2 && Math.abs(a.at5 - b.at5) <= 2;
      rows.push(line([KIND_LABELS[kind], e, pct(a.at1), pct(b.at1), pct(a.at5), pct(b.at5), verdict(ok)]));
    }
  return [line(header), rule(header.length, [0, 1, 6]), ...rows].join("\n");
}

/** Recall@5 per kind at two catalogue sizes. */
export function growthRecallTable(small: Summary, large: Summary, sizes: [string, string], endpoint: Endpoint): string {
  const header = ["query kind", `${endpoint} @1 @${sizes[0]}`, `@5 @${sizes[0]}`, `@1 @${sizes[1]}`, `@5 @${sizes[1]}`];
  const rows = [...large].map(([kind, r]) =>
    line([
      KIND_LABELS[kind],
      pct(small.get(kind)?.[endpoint]?.at1),
      pct(small.get(kind)?.[endpoint]?.at5),
      pct(r[endpoint]?.at1),
      pct(r[endpoint]?.at5),
    ]),
  );
  return [line(header), rule(header.length, [0]), ...rows].join("\n");
}

/** bench/results/<name>.md for a run in the issue's setting, else a file in the temp dir (dev runs). */
export function resultFile(standard: boolean, name: string, devName: string): string {
  const dir = standard ? path.join(ROOT, "bench/results") : path.join(tmpdir(), "unheard-bench-results");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${standard ? name : devName}.md`);
}

/** A size as people say it: 10k, 1M. */
export const sizeLabel = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

// Tables of `npm run bench:api`: the console and bench/results/*.md, with the issue's targets and pass/miss.
import os from "node:os";
import type { Check } from "./api-check.js";
import type { LoadResult } from "./api-load.js";

export type Row = LoadResult & {
  name: string;
  /** Share of the hello-world's requests/s, percent. */
  share?: number;
  rssMb: number;
  /** Seconds the server needed after the load to finish what was queued. */
  drainedSec?: number;
  target?: Target;
};

export type Target = { text: string; pass: (r: Row) => boolean };

export const TARGETS = {
  feed: { text: ">= 40% of hello-world, p99 <= 25 ms", pass: (r: Row) => (r.share ?? 0) >= 40 && r.p99 <= 25 },
  detail: { text: ">= 50% of hello-world", pass: (r: Row) => (r.share ?? 0) >= 50 },
  search: { text: ">= 15% of hello-world, p99 <= 40 ms", pass: (r: Row) => (r.share ?? 0) >= 15 && r.p99 <= 40 },
  writes: { text: ">= 2,000/s, no errors", pass: (r: Row) => r.rps >= 2000 && r.errors === 0 },
  /** Issue 26: what a member's own reads cost (their state is added to every answer). */
  member: { text: ">= 15% of hello-world", pass: (r: Row) => (r.share ?? 0) >= 15 },
  /** Issue 28: server-rendered pages as a visitor (decision 026). */
  pages: { text: ">= 10% of hello-world, p99 <= 50 ms", pass: (r: Row) => (r.share ?? 0) >= 10 && r.p99 <= 50 },
} satisfies Record<string, Target>;
export const RSS_TARGET_MB = 300;

export const machine = () => {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${os.cpus().length} cores (nproc), ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
};

const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
const mark = (ok: boolean | undefined) => (ok === undefined ? "" : ok ? "pass" : "MISS");

const HEADER = [
  "scenario",
  "req/s",
  "p50 ms",
  "p99 ms",
  "2xx",
  "errors",
  "% of hello",
  "peak RSS MB",
  "backlog s",
  "URLs",
  "target",
  "",
];

function cells(r: Row): string[] {
  const pass = r.target?.pass(r);
  return [
    r.name,
    Math.round(r.rps).toLocaleString("en"),
    ms(r.p50),
    ms(r.p99),
    r.ok.toLocaleString("en"),
    `${r.errors}${
      r.errors
        ? ` (${Object.entries(r.statuses)
            .filter(([s]) => !s.startsWith("2"))
            .map(([s, n]) => `${s}: ${n}`)
            .join(", ")})`
        : ""
    }`,
    r.share === undefined ? "" : `${r.share.toFixed(1)}%`,
    r.rssMb ? r.rssMb.toFixed(0) : "",
    r.drainedSec !== undefined && r.drainedSec >= 0.5 ? r.drainedSec.toFixed(1) : "",
    r.distinct.toLocaleString("en"),
    r.target?.text ?? "",
    mark(pass),
  ];
}

export function consoleTable(rows: Row[]): string {
  const all = rows.map(cells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...all.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 || i >= 10 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ");
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...all.map(line)].join("\n");
}

export function markdownTable(rows: Row[]): string {
  const line = (c: string[]) => `| ${c.join(" | ")} |`;
  return [
    line(HEADER),
    line(HEADER.map((_, i) => (i === 0 || i >= 10 ? "---" : "---:"))),
    ...rows.map((r) => line(cells(r).map((c, i) => (i === 11 && c === "MISS" ? "**MISS**" : c)))),
  ].join("\n");
}

export function checkLines(checks: Check[]): string[] {
  return checks.map((c) => `${c.ok ? "ok  " : "FAIL"}  ${c.name}: ${c.detail}`);
}

export type GrowthRow = { name: string; small: LoadResult; large: LoadResult };

export function growthTable(rows: GrowthRow[], sizes: [string, string]): string {
  const ratio = (a: number, b: number) => (a > 0 ? b / a : Number.NaN);
  const header = [
    "endpoint",
    `p50 ms @${sizes[0]}`,
    `p99 ms @${sizes[0]}`,
    `p50 ms @${sizes[1]}`,
    `p99 ms @${sizes[1]}`,
    "p50 ratio",
    "p99 ratio",
    "target",
    "",
  ];
  const line = (c: string[]) => `| ${c.join(" | ")} |`;
  return [
    line(header),
    line(header.map((_, i) => (i === 0 || i >= 7 ? "---" : "---:"))),
    ...rows.map((r) => {
      const p50 = ratio(r.small.p50, r.large.p50);
      const p99 = ratio(r.small.p99, r.large.p99);
      return line([
        r.name,
        ms(r.small.p50),
        ms(r.small.p99),
        ms(r.large.p50),
        ms(r.large.p99),
        `${p50.toFixed(2)}x`,
        `${p99.toFixed(2)}x`,
        "within 2x",
        p50 <= 2 && p99 <= 2 ? "pass" : "**MISS**",
      ]);
    }),
  ].join("\n");
}

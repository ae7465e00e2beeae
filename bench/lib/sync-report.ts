// Tables of `npm run bench:sync`: medians and ranges of each measured step beside the issue's targets, the rows each
// kind of sync wrote per table, and where the results file goes.
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CATALOGUE_TABLES, type TableDiff } from "./sync-db.js";
import { ROOT } from "./web-server.js";

/** The issue's targets. */
export const SYNC_TARGETS = {
  firstSyncSec: 20,
  unchangedMs: 1000,
  tenRowMs: 2000,
} as const;

/** Median, smallest and largest of a list. */
export function spread(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

const num = (v: number, unit: "ms" | "s") =>
  unit === "s" ? (v / 1000).toFixed(v < 10_000 ? 2 : 1) : v < 10 ? v.toFixed(1) : v.toFixed(0);

/** "1.23 s (1.10–1.40)" or "12 ms (9.8–15)": the median and the range of `values` (ms). */
export function medianRange(values: number[], unit: "ms" | "s"): string {
  if (values.length === 0) return "–";
  const s = spread(values);
  if (values.length === 1) return `${num(s.median, unit)} ${unit}`;
  return `${num(s.median, unit)} ${unit} (${num(s.min, unit)}–${num(s.max, unit)})`;
}

/** A Markdown table. */
export function table(header: string[], rows: string[][]): string {
  const align = header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [header, align, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

/** Rows written per catalogue table by each kind of sync, one column per kind. */
export function writesTable(kinds: { name: string; diffs: TableDiff[] }[]): string {
  const cell = (diffs: TableDiff[], name: string) => {
    const ds = diffs.filter((x) => x.table === name);
    const sum = (f: (d: TableDiff) => number) => ds.reduce((n, d) => n + f(d), 0);
    const [ins, upd, del] = [sum((d) => d.inserted), sum((d) => d.updated), sum((d) => d.deleted)];
    return ins + upd + del === 0 ? "0" : `**${ins + upd + del}** (+${ins} ~${upd} −${del})`;
  };
  return table(
    ["table", ...kinds.map((k) => k.name)],
    CATALOGUE_TABLES.map((name) => [name, ...kinds.map((k) => cell(k.diffs, name))]),
  );
}

/** The tables outside the catalogue a run of syncs changed, with the columns updated: the bookkeeping. */
export function bookkeepingLines(diffs: TableDiff[]): string[] {
  const catalogue = new Set(CATALOGUE_TABLES);
  return diffs
    .filter((d) => !catalogue.has(d.table))
    .map(
      (d) =>
        `\`${d.table}\`: ${d.inserted} inserted, ${d.updated} updated${d.columns.length ? ` (columns ${d.columns.map((c) => `\`${c}\``).join(", ")})` : ""}, ${d.deleted} deleted`,
    );
}

/** bench/results/sync.md for a run in the issue's setting, else a file in the temp dir (dev runs). */
export function resultFile(standard: boolean, devName: string): string {
  const dir = standard ? path.join(ROOT, "bench/results") : path.join(tmpdir(), "unheard-bench-results");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, standard ? "sync.md" : `${devName}.md`);
}

// bench:web figures: medians, targets with pass/miss, the console table and bench/results/web.md.
import type { FormFactor, RunFigures } from "./web-lighthouse.js";

export type PageResult = { route: string; formFactor: FormFactor; runs: RunFigures[] };

export const TARGETS = {
  performance: { desktop: 95, mobile: 90 },
  cls: 0.05,
  /** Largest contentful paint under mobile emulation, ms (issue 28). */
  mobileLcpMs: 2500,
  /** Initial JavaScript of `/`, gzip KB (issue 28; was 150). */
  homeJsKb: 120,
};

/** Median of a list (mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export type Row = {
  route: string;
  formFactor: FormFactor;
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsKb: number;
  jsTransferKb: number;
  htmlKb: number;
  htmlTransferKb: number;
  pass: { performance: boolean; cls: boolean; lcp: boolean | undefined; js: boolean | undefined };
};

/** Each figure is the median of its runs, taken separately. */
export function toRow(p: PageResult): Row {
  const m = (pick: (r: RunFigures) => number) => median(p.runs.map(pick));
  const performance = m((r) => r.performance);
  const cls = m((r) => r.cls);
  const jsKb = m((r) => r.jsGzipBytes) / 1024;
  const lcpMs = m((r) => r.lcpMs);
  return {
    route: p.route,
    formFactor: p.formFactor,
    performance,
    lcpMs,
    cls,
    tbtMs: m((r) => r.tbtMs),
    jsKb,
    jsTransferKb: m((r) => r.jsTransferBytes) / 1024,
    htmlKb: m((r) => r.htmlBytes) / 1024,
    htmlTransferKb: m((r) => r.htmlTransferBytes) / 1024,
    pass: {
      performance: performance >= TARGETS.performance[p.formFactor],
      cls: cls < TARGETS.cls,
      lcp: p.formFactor === "mobile" ? lcpMs <= TARGETS.mobileLcpMs : undefined,
      js: p.route === "/" ? jsKb <= TARGETS.homeJsKb : undefined,
    },
  };
}

const mark = (ok: boolean | undefined) => (ok === undefined ? "" : ok ? " pass" : " MISS");

/** Table rows as strings: figure, then its target and pass/miss. */
export function tableCells(r: Row): string[] {
  return [
    r.route,
    r.formFactor,
    `${r.performance.toFixed(0)} (>=${TARGETS.performance[r.formFactor]}${mark(r.pass.performance)})`,
    `${(r.lcpMs / 1000).toFixed(2)} s${r.formFactor === "mobile" ? ` (<=${TARGETS.mobileLcpMs / 1000}${mark(r.pass.lcp)})` : ""}`,
    `${r.cls.toFixed(3)} (<${TARGETS.cls}${mark(r.pass.cls)})`,
    `${r.tbtMs.toFixed(0)} ms`,
    `${r.jsKb.toFixed(1)}${r.route === "/" ? ` (<=${TARGETS.homeJsKb}${mark(r.pass.js)})` : ""}`,
    r.jsTransferKb.toFixed(1),
    `${r.htmlKb.toFixed(1)} / ${r.htmlTransferKb.toFixed(1)}`,
  ];
}

export const HEADER = [
  "route",
  "form factor",
  "performance",
  "LCP",
  "CLS",
  "TBT",
  "initial JS gzip KB",
  "JS sent KB",
  "HTML KB / sent",
];

export function consoleTable(rows: Row[]): string {
  const cells = rows.map(tableCells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i < 2 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join("  ");
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

export function markdownTable(rows: Row[]): string {
  const line = (c: string[]) => `| ${c.join(" | ")} |`;
  return [
    line(HEADER),
    line(HEADER.map((_, i) => (i < 2 ? "---" : "---:"))),
    ...rows.map((r) => line(tableCells(r))),
  ].join("\n");
}

import { DEFAULT_PRESET, type FingerprintConfig } from "@unheard/fingerprint";
import { indexingFigures, percentile } from "./report.js";
import type { PresetResult } from "./run.js";

/** One change to the default preset, usually back to what the spec says. */
type Variant = { name: string; change: (c: FingerprintConfig) => void };

const VARIANTS: Variant[] = [
  // Departures from the spec, each reverted on its own.
  {
    name: "spec decision: aligned / query hashes > 0.1",
    change: (c) => Object.assign(c.match, { scoring: "ratio", minRatio: 0.1 }),
  },
  { name: "spec lookup: first 10 rows per hash", change: (c) => Object.assign(c.match, { maxResultsPerHash: 10 }) },
  { name: "count every row, not distinct hashes", change: (c) => Object.assign(c.match, { distinctHashes: false }) },
  { name: "query at 1 shift (spec) instead of 4", change: (c) => Object.assign(c.query, { shifts: 1 }) },
  { name: "query at 2 shifts", change: (c) => Object.assign(c.query, { shifts: 2 }) },
  {
    name: "spec pair time 0.5-1.5 s",
    change: (c) => Object.assign(c.pairing, { minDeltaSeconds: 0.5, maxDeltaSeconds: 1.5 }),
  },
  { name: "spec fan-out 5", change: (c) => Object.assign(c.pairing, { fanOut: 5 }) },
  {
    name: "spec neighbourhood 5 bins x 3 frames",
    change: (c) => Object.assign(c.peaks, { neighbourhoodBins: 5, neighbourhoodFrames: 3 }),
  },
  { name: "spec threshold -40 dB", change: (c) => Object.assign(c.peaks, { thresholdDb: -40 }) },
  { name: "no index-time pruning", change: (c) => Object.assign(c.index, { maxPostingsPerHash: null }) },
  {
    name: "hop 256 (window 512, same neighbourhood in seconds)",
    change: (c) => {
      c.hopSize = 256;
      c.peaks.neighbourhoodFrames = 7;
      c.match.toleranceSeconds = 0.05;
    },
  },
  {
    name: "window 1024 (same neighbourhood in Hz)",
    change: (c) => {
      c.windowSize = 1024;
      c.peaks.neighbourhoodBins = 41;
    },
  },
  // Ideas tried and left out because they changed nothing here (the default keeps the spec's value).
  { name: "tried: at most 5 peaks per frame", change: (c) => Object.assign(c.peaks, { maxPerFrame: 5 }) },
  { name: "tried: target zone +-63 bins", change: (c) => Object.assign(c.pairing, { maxDeltaBins: 63 }) },
  { name: "tried: peaks above 100 Hz only", change: (c) => Object.assign(c, { minFrequencyHz: 100 }) },
];

/** The default preset and one variant per change, each a full preset named after its change. */
export function ablationPresets(): FingerprintConfig[] {
  return [
    DEFAULT_PRESET,
    ...VARIANTS.map((v) => {
      const c = structuredClone(DEFAULT_PRESET);
      v.change(c);
      c.name = v.name;
      return c;
    }),
  ];
}

/** One line per variant: correct rates of the main conditions, false positives, density and latency. */
export function formatAblation(results: PresetResult[]): string {
  const columns = [
    "2 s clean",
    "2 s noise 10 dB SNR",
    "2 s noise 0 dB SNR",
    "5 s noise 10 dB SNR",
    "5 s noise 0 dB SNR",
    "10 s noise 0 dB SNR",
  ];
  const head = [
    "variant",
    ...columns.map((c) => c.replace(" noise ", " ").replace(" SNR", "")),
    "false pos.",
    "hashes/s",
    "p95 ms",
  ];
  const lines = [
    `| ${head.join(" | ")} |`,
    `|---|${head
      .slice(1)
      .map(() => "---:")
      .join("|")}|`,
  ];
  for (const r of results) {
    const f = indexingFigures(r);
    const cells = columns.map((name) => {
      const c = r.conditions.find((x) => x.condition === name);
      return c?.queries ? `${((100 * c.correct) / c.queries).toFixed(1)}%` : "-";
    });
    const fp = `${f.falsePositives + f.looFalsePositives}/${f.negatives + f.looQueries}`;
    const p95 = percentile(
      r.conditions.flatMap((c) => c.cpuMs),
      95,
    );
    lines.push(
      `| ${r.preset.name} | ${cells.join(" | ")} | ${fp} | ${f.hashesPerSecond.toFixed(0)} | ${p95.toFixed(0)} |`,
    );
  }
  return lines.join("\n");
}

// Figures of the soak (bench/soak.ts): latency percentiles per third of the run, the least-squares trend of the
// server's resident memory, and the verdicts on both.

/** One answered (or failed) request: when it was sent (ms since the load began), how long it took, its status. */
export type Sample = { t: number; ms: number; status: number; kind: string };

/** The `q` quantile (0..1) of `values` by nearest rank; 0 for none. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Count, p50 and p99 of one stretch of the run. */
export type Third = { from: number; to: number; count: number; p50: number; p99: number };

/** The samples split by send time into three equal stretches of `seconds`, with their percentiles. */
export function thirds(samples: Sample[], seconds: number): [Third, Third, Third] {
  const span = (seconds * 1000) / 3;
  const out = [0, 1, 2].map((i) => {
    const ms = samples.filter((s) => s.t >= i * span && (i === 2 || s.t < (i + 1) * span)).map((s) => s.ms);
    return { from: (i * span) / 1000, to: ((i + 1) * span) / 1000, count: ms.length, ...p50p99(ms) };
  });
  return out as [Third, Third, Third];
}

function p50p99(ms: number[]): { p50: number; p99: number } {
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

/** A least-squares line: slope per unit of x, the residuals' standard deviation and the slope's standard error. */
export type Fit = { slope: number; intercept: number; sd: number; se: number };

/** Least-squares line through (x, y) points. */
export function linearFit(points: { x: number; y: number }[]): Fit {
  const n = points.length;
  if (n < 3) return { slope: 0, intercept: points[0]?.y ?? 0, sd: 0, se: 0 };
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  const ssr = points.reduce((a, p) => a + (p.y - (intercept + slope * p.x)) ** 2, 0);
  const sd = Math.sqrt(ssr / n);
  const se = sxx === 0 ? 0 : Math.sqrt(ssr / (n - 2) / sxx);
  return { slope, intercept, sd, se };
}

/**
 * The memory verdict's bound in MB per minute for a fit over `windowMinutes` that starts `startSeconds` into the
 * load. A leak worth catching grows without end at the soak's rate: `perMinute` (2 MB/min at 40 requests/s is
 * about 850 bytes kept per request, 2.9 GB a day). Below that, two allowances keep noise from failing the check:
 * the bound never asks for less growth over the window than a floor, and twice the slope's standard error is
 * added (the garbage collector's saw-tooth). The floor is 12 MB once the server has run a few minutes, but 40 MB
 * over a window that starts within the first 3 minutes: V8 is still sizing its heap then (a 60 s run grew 35 MB
 * in its first minute, in a straight line) and no short run can tell that from a leak. So the 60 s CI run only
 * catches a gross leak (~80 MB/min); the 10-minute run a slow one (~3 MB/min).
 */
export function rssSlopeBound(windowMinutes: number, startSeconds: number, fit: Fit, perMinute = 2): number {
  const floorMb = startSeconds < 180 ? 40 : 12;
  return Math.max(perMinute, floorMb / Math.max(windowMinutes, 1e-9)) + 2 * fit.se;
}

/** Tail latency verdict: the last third's p99 within `factor` of the first's, both lifted to `floorMs` first. */
export function p99Stable(first: number, last: number, factor = 1.5, floorMs = 25): boolean {
  return Math.max(last, floorMs) <= factor * Math.max(first, floorMs);
}

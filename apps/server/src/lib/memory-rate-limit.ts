/** What one hit left of its key's window: whether it passed, what remains and when the window ends. */
export type MemoryLimitResult = { allowed: boolean; limit: number; remaining: number; resetSec: number };

/**
 * Fixed-window counters kept in this process's memory, for the public API's reads (decision 017). Unlike
 * lib/rate-limit.ts (decision 004) nothing is written per hit: a cached feed answer costs a fraction of a
 * database write, so a shared counter would be the most expensive part of the request. Each instance counts on
 * its own, so N instances let a client through at up to N times the limit. Like the database limiter, a key's
 * window starts at its first hit. At most `maxKeys` windows are kept; expired ones are swept once a window.
 */
export function createMemoryRateLimiter(opts: {
  limit: number;
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
}) {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 50_000;
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;

  const sweep = (t: number) => {
    nextSweep = t + opts.windowMs;
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  };

  return {
    /** Count one hit of `key`. */
    hit(key: string): MemoryLimitResult {
      const t = now();
      if (t >= nextSweep) sweep(t);
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        // A flood of new addresses must not grow the map without bound: the oldest window goes first.
        if (!w && windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        w = { count: 0, resetAt: t + opts.windowMs };
        windows.set(key, w);
      }
      w.count++;
      return {
        allowed: w.count <= opts.limit,
        limit: opts.limit,
        remaining: Math.max(0, opts.limit - w.count),
        resetSec: Math.max(1, Math.ceil((w.resetAt - t) / 1000)),
      };
    },
    /** Windows currently kept. */
    get size(): number {
      return windows.size;
    },
  };
}

/** The in-memory limiter type. */
export type MemoryRateLimiter = ReturnType<typeof createMemoryRateLimiter>;

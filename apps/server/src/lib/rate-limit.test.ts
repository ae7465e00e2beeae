import { expect, it } from "vitest";
import { describeEachDialect, useTestDatabase } from "../test/harness.js";
import { createRateLimiter } from "./rate-limit.js";

const rule = { name: "test", limit: 3, windowSec: 900 };

describeEachDialect("rate limiter", (dialect) => {
  const database = useTestDatabase(dialect);

  /** Hits `n` times at `atSec` and returns the outcome of each (ok or the Retry-After). */
  async function hits(limiter: ReturnType<typeof createRateLimiter>, subject: string, n: number) {
    const out: (string | number)[] = [];
    for (let i = 0; i < n; i++) {
      try {
        await limiter.hit(rule, subject);
        out.push("ok");
      } catch (err) {
        out.push(Number((err as { headers?: Record<string, string> }).headers?.["retry-after"]));
      }
    }
    return out;
  }

  it("keeps a window from the first hit, so a burst across a clock boundary is still limited", async () => {
    // 899 s past a 15-minute clock boundary: a clock-aligned window would reset one second later.
    let t = (1_800_000_000 - (1_800_000_000 % 900) + 899) * 1000;
    const limiter = createRateLimiter(database, () => t);
    expect(await hits(limiter, "a", 2)).toEqual(["ok", "ok"]);
    t += 2000;
    expect(await hits(limiter, "a", 2)).toEqual(["ok", 898]);
    // Another subject has its own window.
    expect(await hits(limiter, "b", 1)).toEqual(["ok"]);
  });

  it("starts a new window once the old one has run out", async () => {
    let t = 1_700_000_000_000;
    const limiter = createRateLimiter(database, () => t);
    expect(await hits(limiter, "c", 4)).toEqual(["ok", "ok", "ok", 900]);
    t += 900_000;
    expect(await hits(limiter, "c", 4)).toEqual(["ok", "ok", "ok", 900]);
  });

  it("records without refusing, peeks without counting, and resets a key", async () => {
    let t = 1_750_000_000_000;
    const limiter = createRateLimiter(database, () => t);
    expect(await limiter.peek(rule, "d")).toBe(0);
    for (let i = 1; i <= 5; i++) expect(await limiter.record(rule, "d")).toBe(i);
    expect(await limiter.peek(rule, "d")).toBe(5);
    expect(await limiter.peek(rule, "d")).toBe(5);
    await expect(limiter.refuse(rule, "d")).rejects.toMatchObject({ code: "rate_limited" });
    await limiter.reset(rule, "d");
    expect(await limiter.peek(rule, "d")).toBe(0);
    expect(await hits(limiter, "d", 1)).toEqual(["ok"]);
    t += 900_000;
    expect(await limiter.peek(rule, "d")).toBe(0);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { MESSAGES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, signUp, useTestApp } from "../../test/harness.js";

/** An event stream opened by hand: its status, its body when refused, and a way to end it. */
type Opened = { status: number; body: string; close(): void };

/**
 * Open GET /api/events from client address `from` (the suite trusts X-Forwarded-For, so each test has addresses
 * of its own); resolves once the status is known (a refusal's body read to its end).
 */
function open(base: string, from: string, cookie?: string): Promise<Opened> {
  const headers = { "x-forwarded-for": from, ...(cookie ? { cookie } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/events`, { headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (status === 200) {
        resolve({ status, body: "", close: () => req.destroy() });
        return;
      }
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status, body, close: () => req.destroy() }));
    });
    req.on("error", (err) => {
      if ((err as NodeJS.ErrnoException).code !== "ECONNRESET") reject(err);
    });
  });
}

/** Retry `fn` until it holds (a closed stream is released when the server sees the socket close). */
async function eventually(fn: () => Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Issue 24: 5,000 streams from one address were accepted, and every event was written 5,000 times (a favourite
// toggle went from 0.15 s to 1.7 s). A client address and a member may hold a few streams each.
describeEachDialect("events stream limits", (dialect) => {
  const ctx = useTestApp(dialect, {
    env: { EVENT_STREAMS_PER_ADDRESS: "4", EVENT_STREAMS_PER_USER: "2", TRUST_PROXY: "true" },
  });
  let base = "";
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  const refusedClearly = (res: Opened) => {
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body)).toEqual({ error: { code: "rate_limited", message: MESSAGES.tooManyStreams } });
  };

  it("holds a member to their cap and an address to its cap; one more is a 429 with a clear message", async () => {
    const here = "203.0.113.7";
    const alice = await signUp(ctx, "alice-cap@example.com");
    const streams: Opened[] = [];
    try {
      for (let i = 0; i < 2; i++) streams.push(await open(base, here, alice));
      expect(streams.map((s) => s.status)).toEqual([200, 200]);
      // Alice's third is over her own cap, from here or from anywhere else.
      refusedClearly(await open(base, here, alice));
      refusedClearly(await open(base, "198.51.100.9", alice));
      // The address still has room for two visitors; then it is full, for visitors and other members alike.
      for (let i = 0; i < 2; i++) streams.push(await open(base, here));
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      refusedClearly(await open(base, here));
      refusedClearly(await open(base, here, await signUp(ctx, "bob-cap@example.com")));
      // Another address is not affected.
      const elsewhere = await open(base, "198.51.100.9");
      streams.push(elsewhere);
      expect(elsewhere.status).toBe(200);
      // A stream that ends frees its place.
      streams.shift()?.close();
      await eventually(async () => {
        const again = await open(base, here, alice);
        if (again.status === 200) streams.push(again);
        return again.status === 200;
      });
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("lets no more than the cap through when many streams open at once", async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, () => open(base, "192.0.2.44")));
    const member = await signUp(ctx, "carol-cap@example.com");
    const memberBurst = await Promise.all(Array.from({ length: 30 }, () => open(base, "192.0.2.45", member)));
    try {
      expect(burst.filter((s) => s.status === 200)).toHaveLength(4);
      expect(memberBurst.filter((s) => s.status === 200)).toHaveLength(2);
      for (const s of [...burst, ...memberBurst].filter((r) => r.status !== 200)) refusedClearly(s);
    } finally {
      for (const s of [...burst, ...memberBurst]) s.close();
    }
  });
});

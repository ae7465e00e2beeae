import { describe, expect, it } from "vitest";
import { createPublicCache, etagOf, invalidateFor, songCacheKey } from "./public-cache.js";

const text = (v: string) => v;

describe("public cache", () => {
  it("serves a stored answer until its TTL, then computes it again", async () => {
    let now = 0;
    let calls = 0;
    const cache = createPublicCache({ ttlMs: 1000, maxBytes: 1_000_000, now: () => now });
    const produce = async () => `body ${++calls}`;
    const first = await cache.through("k", produce, text);
    expect(first).toEqual({ value: "body 1", body: "body 1", etag: etagOf("body 1") });
    now = 999;
    expect((await cache.through("k", produce, text)).body).toBe("body 1");
    now = 1000;
    expect((await cache.through("k", produce, text)).body).toBe("body 2");
  });

  it("computes once for concurrent misses of one key", async () => {
    let calls = 0;
    const cache = createPublicCache({ ttlMs: 1000, maxBytes: 1_000_000 });
    const produce = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return "x";
    };
    await Promise.all(Array.from({ length: 20 }, () => cache.through("k", produce, text)));
    expect(calls).toBe(1);
  });

  it("does not keep an answer computed before a clear", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 1_000_000 });
    let release: (v: string) => void = () => {};
    const slow = cache.through("k", () => new Promise<string>((r) => (release = r)), text);
    cache.clear();
    release("stale");
    expect((await slow).body).toBe("stale");
    expect((await cache.through("k", async () => "fresh", text)).body).toBe("fresh");
  });

  it("stays within its bytes, weighing each answer", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 1000, sizeOf: (_v, body) => body.length });
    for (let i = 0; i < 50; i++) {
      await cache.through(`k${i}`, async () => "x".repeat(100), text);
      expect(cache.bytes).toBeLessThanOrEqual(1000);
    }
    // Ten answers of about 100 bytes (and their keys) fit; the rest were evicted.
    expect(cache.size).toBeGreaterThanOrEqual(8);
    expect(cache.size).toBeLessThanOrEqual(10);
  });

  // Issue 38: first in, first out let one address flush a fresh home page with one-off URLs in under 5 s.
  it("keeps an answer asked for often through a scan of 20,000 one-off keys", async () => {
    const cache = createPublicCache({ ttlMs: 600_000, maxBytes: 20_000, sizeOf: (_v, body) => body.length });
    let homeRenders = 0;
    const home = () => cache.through("/", async () => `home ${++homeRenders} ${"h".repeat(200)}`, text);
    for (let i = 0; i < 5; i++) await home();
    for (let i = 0; i < 20_000; i++) {
      await cache.through(`/?x=${i}`, async () => "o".repeat(200), text);
      expect(cache.bytes).toBeLessThanOrEqual(20_000);
      // Visitors keep asking for the home page meanwhile, far less often than the scan's URLs come.
      if (i % 200 === 0) await home();
    }
    expect(homeRenders).toBe(1);
    expect(cache.peek("/")).toBeDefined();
  });

  it("keeps an expired answer for lastKnown only as long as it was told, and never after a change", async () => {
    let now = 0;
    const cache = createPublicCache({ ttlMs: 1000, maxBytes: 1_000_000, keepStaleMs: 5000, now: () => now });
    await cache.through("k", async () => "old", text);
    now = 3000;
    expect(cache.peek("k")).toBeUndefined();
    expect(cache.lastKnown("k")?.body).toBe("old");
    now = 6000;
    expect(cache.lastKnown("k")).toBeUndefined();
    await cache.through("k", async () => "new", text);
    now = 7500;
    expect(cache.lastKnown("k")?.body).toBe("new");
    cache.forget("k");
    expect(cache.lastKnown("k")).toBeUndefined();
    await cache.through("k", async () => "again", text);
    now = 9000;
    cache.clear();
    expect(cache.lastKnown("k")).toBeUndefined();
  });

  it("does not store a failed computation", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 1000 });
    await expect(
      cache.through("k", async (): Promise<string> => Promise.reject(new Error("boom")), text),
    ).rejects.toThrow("boom");
    expect((await cache.through("k", async () => "ok", text)).body).toBe("ok");
  });

  it("forgets one key, and does not keep that key's answer computed before", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 1_000_000 });
    await cache.through("other", async () => "kept", text);
    let release: (v: string) => void = () => {};
    const slow = cache.through("k", () => new Promise<string>((r) => (release = r)), text);
    cache.forget("k");
    release("stale");
    expect((await slow).body).toBe("stale");
    expect((await cache.through("k", async () => "fresh", text)).body).toBe("fresh");
    expect((await cache.through("other", async () => "recomputed", text)).body).toBe("kept");
  });

  // Issue 24: each favourite toggle cleared everything, so one member toggling fast slowed every visitor's feed.
  it("drops only the song's page on a favourite count, and everything on any other song change", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 1_000_000 });
    const fill = async () => {
      for (const k of ["feed:newest", songCacheKey("s1"), songCacheKey("s2")])
        await cache.through(k, async () => k, text);
    };
    await fill();
    invalidateFor(cache, { type: "song.changed", songId: "s1", data: { favoriteCount: 4 } });
    expect(cache.size).toBe(2);
    expect((await cache.through("feed:newest", async () => "recomputed", text)).body).toBe("feed:newest");
    for (const data of [
      { isHidden: true },
      { status: "verified", statusChanged: true },
      { favoriteCount: 1, edited: true },
    ]) {
      await fill();
      invalidateFor(cache, { type: "song.changed", songId: "s1", data });
      expect(cache.size, JSON.stringify(data)).toBe(0);
    }
    await fill();
    invalidateFor(cache, { type: "me.changed", userId: "u" });
    expect(cache.size).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { createPublicCache, etagOf, invalidateFor, songCacheKey } from "./public-cache.js";

const text = (v: string) => v;

describe("public cache", () => {
  it("serves a stored answer until its TTL, then computes it again", async () => {
    let now = 0;
    let calls = 0;
    const cache = createPublicCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
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
    const cache = createPublicCache({ ttlMs: 1000, maxEntries: 10 });
    const produce = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return "x";
    };
    await Promise.all(Array.from({ length: 20 }, () => cache.through("k", produce, text)));
    expect(calls).toBe(1);
  });

  it("does not keep an answer computed before a clear", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxEntries: 10 });
    let release: (v: string) => void = () => {};
    const slow = cache.through("k", () => new Promise<string>((r) => (release = r)), text);
    cache.clear();
    release("stale");
    expect((await slow).body).toBe("stale");
    expect((await cache.through("k", async () => "fresh", text)).body).toBe("fresh");
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxEntries: 2 });
    for (const k of ["a", "b", "c"]) await cache.through(k, async () => k, text);
    expect(cache.size).toBe(2);
    expect((await cache.through("a", async () => "a again", text)).body).toBe("a again");
  });

  it("does not store a failed computation", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxEntries: 2 });
    await expect(
      cache.through("k", async (): Promise<string> => Promise.reject(new Error("boom")), text),
    ).rejects.toThrow("boom");
    expect((await cache.through("k", async () => "ok", text)).body).toBe("ok");
  });

  it("forgets one key, and does not keep that key's answer computed before", async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxEntries: 10 });
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
    const cache = createPublicCache({ ttlMs: 60_000, maxEntries: 10 });
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

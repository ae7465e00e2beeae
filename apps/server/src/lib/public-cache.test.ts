import { describe, expect, it } from "vitest";
import { createPublicCache, etagOf } from "./public-cache.js";

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
});

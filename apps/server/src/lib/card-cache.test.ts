import type { Song } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { createCardCache, invalidateCards } from "./card-cache.js";

const song = (id: string, title = id) => ({ id, title }) as unknown as Song;

describe("card cache", () => {
  it("reads only the cards it does not keep, and keeps them for the TTL", async () => {
    let clock = 0;
    const cache = createCardCache({ ttlMs: 1000, maxEntries: 100, now: () => clock });
    const asked: string[][] = [];
    const load = async (ids: string[]) => {
      asked.push(ids);
      return ids.map((id) => song(id));
    };
    expect((await cache.through(["a", "b"], load)).map((s) => s.id)).toEqual(["a", "b"]);
    expect((await cache.through(["b", "c", "a"], load)).map((s) => s.id)).toEqual(["b", "c", "a"]);
    expect(asked).toEqual([["a", "b"], ["c"]]);
    clock = 1500;
    await cache.through(["a"], load);
    expect(asked.at(-1)).toEqual(["a"]);
  });

  it("leaves out ids the loader does not return (gone since the index found them)", async () => {
    const cache = createCardCache({ ttlMs: 1000, maxEntries: 100 });
    const cards = await cache.through(["a", "gone", "b"], async (ids) =>
      ids.filter((id) => id !== "gone").map((id) => song(id)),
    );
    expect(cards.map((s) => s.id)).toEqual(["a", "b"]);
  });

  it("does not keep a card read before a change that dropped it", async () => {
    const cache = createCardCache({ ttlMs: 1000, maxEntries: 100 });
    let release = () => {};
    const slow = cache.through(["a"], async (ids) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return ids.map((id) => song(id, "old"));
    });
    await Promise.resolve();
    cache.forget("a");
    release();
    expect((await slow)[0]?.title).toBe("old");
    const fresh = await cache.through(["a"], async (ids) => ids.map((id) => song(id, "new")));
    expect(fresh[0]?.title).toBe("new");
  });

  it("stays within its size, dropping the oldest half", async () => {
    const cache = createCardCache({ ttlMs: 60_000, maxEntries: 10 });
    for (let i = 0; i < 40; i++) await cache.through([`s${i}`], async (ids) => ids.map((id) => song(id)));
    expect(cache.size).toBeLessThanOrEqual(10);
    let reads = 0;
    await cache.through(["s39", "s0"], async (ids) => {
      reads += ids.length;
      return ids.map((id) => song(id));
    });
    expect(reads).toBe(1);
  });

  it("drops one card for a favourite count, every card for any other song change or an artist change", async () => {
    const cache = createCardCache({ ttlMs: 60_000, maxEntries: 100 });
    const fill = () => cache.through(["a", "b"], async (ids) => ids.map((id) => song(id)));
    await fill();
    invalidateCards(cache, { type: "song.changed", songId: "a", data: { favoriteCount: 3 } });
    expect(cache.size).toBe(1);
    invalidateCards(cache, { type: "song.changed", songId: "b", data: { upvotes: 2, downvotes: 0 } });
    expect(cache.size).toBe(0);
    await fill();
    invalidateCards(cache, { type: "artist.changed", artistId: "x" });
    expect(cache.size).toBe(0);
    await fill();
    invalidateCards(cache, { type: "me.changed", userId: "u" });
    expect(cache.size).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { searchNormalize } from "../../lib/search-text.js";
import { compareHits, type IndexDoc, SearchIndex } from "./search-index.js";

const doc = (key: string, title: string, artists: string[], popularity = 0): IndexDoc => ({
  key,
  fields: [searchNormalize(title).split(" "), artists.flatMap((a) => searchNormalize(a).split(" "))],
  popularity,
});

function top(index: SearchIndex, q: string, n = 5): string[] {
  return index
    .search(searchNormalize(q) + (q.endsWith(" ") ? " " : ""), 50)
    .sort(compareHits)
    .slice(0, n)
    .map((h) => h.key);
}

describe("search index", () => {
  const index = new SearchIndex();
  index.build([
    doc("love1", "Love Me Now", ["Nova Reyes"], 90),
    doc("love2", "Lovely Night", ["Kid Halcyon"], 80),
    doc("mid", "Midnight Shadows", ["Nova Reyes"], 10),
    doc("mids", "Midnight Circuit", ["Mara Vance"], 50),
    doc("salt", "Saltwater Letters", ["Mara Vance", "DJ Ketsu"], 5),
    doc("bey", "Halo", ["Beyoncé"], 1),
    ...Array.from({ length: 2000 }, (_, i) => doc(`filler${i}`, `Love Song ${i}`, ["Filler Band"], 100 + i)),
  ]);

  it("finds exact titles first", () => {
    expect(top(index, "midnight circuit")[0]).toBe("mids");
    expect(top(index, "saltwater letters")[0]).toBe("salt");
  });

  it("treats the last word as a prefix", () => {
    expect(top(index, "midnight sh")[0]).toBe("mid");
    expect(top(index, "saltw")[0]).toBe("salt");
  });

  it("tolerates one typo per word, transpositions included", () => {
    expect(top(index, "midnigth circuit")[0]).toBe("mids");
    expect(top(index, "saltwatr leters")[0]).toBe("salt");
    expect(top(index, "mdinight shadows")[0]).toBe("mid");
  });

  it("tolerates a typo in a partial last word", () => {
    expect(top(index, "midnight shda")).toContain("mid");
    expect(top(index, "saltwater lrtt")).toContain("salt");
  });

  it("finds songs by artist words and title words together, accents dropped", () => {
    expect(top(index, "halo beyonce")[0]).toBe("bey");
    expect(top(index, "midnight mara")[0]).toBe("mids");
  });

  it("ranks an exact word above a completion, and popularity within", () => {
    // 'love' is exact in 'Love Me Now' and 2000 filler songs; 'Lovely' is only a completion.
    const hits = top(index, "love", 10);
    expect(hits).not.toContain("love2");
    expect(hits[0]).toBe("filler1999");
  });

  it("bounds the work for a common word: collects what it needs, popular first", () => {
    const hits = index.search("love", 24);
    expect(hits.length).toBe(24);
    // Built most popular first: the walk met the 24 most popular songs holding the word and stopped there.
    expect(hits.map((h) => h.key).sort()).toEqual(Array.from({ length: 24 }, (_, i) => `filler${1976 + i}`).sort());
  });

  it("falls back to documents holding some of the words", () => {
    expect(top(index, "saltwater zzqxw")[0]).toBe("salt");
  });

  it("keeps in step: replaced and removed documents", () => {
    const small = new SearchIndex();
    small.build([doc("a", "Paper Crowns", ["Kid Halcyon"])]);
    expect(top(small, "paper crowns")).toEqual(["a"]);
    small.add(doc("a", "Cold Open", ["Kid Halcyon"]));
    expect(top(small, "paper crowns")).toEqual([]);
    expect(top(small, "cold open")).toEqual(["a"]);
    small.remove("a");
    expect(top(small, "cold open")).toEqual([]);
    expect(small.size).toBe(0);
    small.add(doc("b", "Cold Open", ["Kid Halcyon"]));
    expect(top(small, "cold")).toEqual(["b"]);
  });

  it("takes a typo in a three-letter last word as a whole word, not as the start of anything", () => {
    // 'loe' is 'love' mistyped; its misspellings are not completed ('lot...', 'low...').
    expect(index.spellings("loe", true)).toEqual(expect.arrayContaining(["love"]));
    expect(index.spellings("loe", true)).not.toContain("lovely");
    expect(top(index, "lovel")).toContain("love2");
  });

  it("ranks the song whose whole title was typed above longer titles holding it", () => {
    const small = new SearchIndex();
    small.build([doc("long", "Broken Love Galaxy", ["Graba"], 100), doc("whole", "Love Galaxy", ["Miles Torres"], 1)]);
    expect(top(small, "loove galay")[0]).toBe("whole");
  });

  it("never matches short words with typos, nor unrelated words", () => {
    expect(index.spellings("mi", false)).toEqual([]);
    expect(index.spellings("mi", true)).toEqual(expect.arrayContaining(["midnight"]));
    expect(top(index, "qqqq")).toEqual([]);
  });

  it("compacts: a rebuild from its snapshot finds the same, in rank order", async () => {
    const small = new SearchIndex();
    small.build([doc("a", "Paper Crowns", ["Kid Halcyon"], 1), doc("b", "Paper Moons", ["Lumen Park"], 5)]);
    for (let i = 0; i < 5; i++) small.add(doc("a", `Paper Crowns ${i}`, ["Kid Halcyon"], 10));
    expect(small.deadShare).toBeGreaterThan(1 / 3);
    const fresh = new SearchIndex();
    await fresh.buildInSlices(small.snapshot(), 1);
    expect(fresh.deadShare).toBe(0);
    expect(top(fresh, "paper")).toEqual(["a", "b"]);
    expect(top(fresh, "crowns 4")).toEqual(["a"]);
    expect(top(fresh, "lumen")).toEqual(["b"]);
  });

  it("finds a word added after the same query was asked (remembered spellings are dropped)", () => {
    const small = new SearchIndex();
    small.build([doc("a", "Paper Crowns", ["Kid Halcyon"])]);
    expect(top(small, "zephy")).toEqual([]);
    expect(top(small, "zephyr")).toEqual([]);
    small.add(doc("z", "Zephyr", ["Lumen Park"]));
    expect(top(small, "zephy")).toEqual(["z"]);
    expect(top(small, "zephyr")).toEqual(["z"]);
  });

  it("walks every block of ids: a rare match far behind thousands of popular documents, in rank order", () => {
    const big = new SearchIndex();
    const docs = Array.from({ length: 12_000 }, (_, i) => doc(`f${i}`, `Love Song ${i % 50}`, ["Band"], 100_000 - i));
    // Ids are handed out by popularity: these land in the first, the third and the last block.
    docs.push(doc("early", "Love Zebra", ["Band"], 99_999.5));
    docs.push(doc("middle", "Love Zebra Two", ["Band"], 100_000 - 9000.5));
    docs.push(doc("late", "Zebra Love Three", ["Band"], 0));
    big.build(docs);
    expect(top(big, "love zeb", 5)).toEqual(["early", "middle", "late"]);
    expect(top(big, "zebra lvoe", 5).sort()).toEqual(["early", "late", "middle"]);
    // Three words, each in many documents, held together by one.
    expect(top(big, "zebra three band")).toEqual(["late"]);
    // A common word with a typo'd partner drives from the rarer group.
    expect(top(big, "sogn 7", 3).length).toBe(3);
  });

  it("ranks the words in the order typed above the same words swapped", () => {
    const small = new SearchIndex();
    small.build([doc("swapped", "First Midnight", ["Graba"], 100), doc("typed", "Midnight Fire", ["Esme Price"], 1)]);
    expect(top(small, "midnigt fir")).toEqual(["typed", "swapped"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRESET, deriveParams, type FingerprintConfig, SPEC_PRESET } from "./config.js";
import { computeSpectrogram, fingerprint, fingerprintQuery } from "./fingerprint.js";
import { distinctHashValues, lookupFromRows, MemoryIndex, match, rarestWithin } from "./match.js";
import { addNoise, randomNotesTrack, seeded } from "./test-signals.js";

const SR = 44100;
const TRACK_SECONDS = 30;
const tracks = new Map<string, Float32Array>();
const indexes = new Map<string, MemoryIndex>();

beforeAll(() => {
  for (let seed = 1; seed <= 4; seed++) tracks.set(`song-${seed}`, randomNotesTrack(TRACK_SECONDS, SR, seed));
  for (const preset of [DEFAULT_PRESET, SPEC_PRESET]) {
    const index = new MemoryIndex(preset);
    for (const [id, x] of tracks) index.add(id, fingerprint(x, SR, preset).hashes);
    indexes.set(preset.name, index);
  }
});

/** A clip of `seconds` from a track at a random sample-accurate offset. */
function cut(id: string, seconds: number, seed: number): { clip: Float32Array; offset: number } {
  const x = tracks.get(id) as Float32Array;
  const length = Math.round(seconds * SR);
  const start = Math.floor(seeded(seed)() * (x.length - length));
  return { clip: x.slice(start, start + length), offset: start / SR };
}

describe("fingerprint", () => {
  it("produces hashes, peaks and stats for music", () => {
    const fp = fingerprint(tracks.get("song-1") as Float32Array, SR, DEFAULT_PRESET);
    expect(fp.hashes.count).toBeGreaterThan(20 * TRACK_SECONDS);
    expect(fp.peaks.count).toBeGreaterThan(0);
    expect(fp.stats.durationSeconds).toBeCloseTo(TRACK_SECONDS, 6);
    expect(fp.stats.hashesPerSecond).toBeCloseTo(fp.hashes.count / TRACK_SECONDS, 6);
    expect(fp.spectrogram).toBeUndefined();
    for (let i = 0; i < fp.hashes.count; i++) expect((fp.hashes.hashes[i] as number) >= 0).toBe(true);
  });

  it("yields no hashes for silence with either preset", () => {
    for (const preset of [DEFAULT_PRESET, SPEC_PRESET]) {
      const silence = new Float32Array(SR * 20);
      expect(fingerprint(silence, SR, preset).hashes.count).toBe(0);
      const q = fingerprintQuery(silence, SR, preset);
      expect(q.hashes.count).toBe(0);
      const r = (indexes.get(preset.name) as MemoryIndex).match(q.hashes);
      expect(r.match).toBeNull();
      expect(r.candidates).toEqual([]);
    }
  });

  it("keeps the spectrogram on request, at the analysis rate", () => {
    const fp = fingerprint(tracks.get("song-1") as Float32Array, SR, DEFAULT_PRESET, { keepSpectrogram: true });
    const s = fp.spectrogram;
    expect(s?.sampleRate).toBe(DEFAULT_PRESET.sampleRate);
    expect(s?.frameCount).toBe(fp.frames);
    const again = computeSpectrogram(tracks.get("song-1") as Float32Array, SR).data;
    expect(again.length).toBe(s?.data.length);
    expect(again.every((v, i) => v === s?.data[i])).toBe(true);
  });

  it("analyses at most maxFrames frames (spec: 2000)", () => {
    const c: FingerprintConfig = { ...SPEC_PRESET, maxFrames: 20 };
    expect(fingerprint(tracks.get("song-1") as Float32Array, SR, c).frames).toBe(20);
  });
});

describe("recognition of a clip cut from a synthesised track", () => {
  it("default preset: finds the song and where the clip starts, for several random offsets", () => {
    const index = indexes.get("default") as MemoryIndex;
    const hop = deriveParams(DEFAULT_PRESET).hopSeconds;
    for (let seed = 10; seed < 16; seed++) {
      const id = `song-${1 + (seed % 4)}`;
      const { clip, offset } = cut(id, 5, seed);
      const r = index.match(fingerprintQuery(clip, SR, DEFAULT_PRESET).hashes);
      expect(r.match?.songId).toBe(id);
      expect(Math.abs((r.match?.offsetSeconds ?? -1) - offset)).toBeLessThanOrEqual(2 * hop);
      expect(r.match?.confidence).toBeGreaterThan(0.5);
    }
  });

  it("default preset: still finds a 3 s clip under white noise at 10 dB SNR", () => {
    const { clip, offset } = cut("song-3", 3, 42);
    const r = (indexes.get("default") as MemoryIndex).match(
      fingerprintQuery(addNoise(clip, 10, 1), SR, DEFAULT_PRESET).hashes,
    );
    expect(r.match?.songId).toBe("song-3");
    expect(Math.abs((r.match?.offsetSeconds ?? -1) - offset)).toBeLessThan(0.05);
  });

  it("spec preset: finds a long clean clip within its 0.5 s tolerance", () => {
    const { clip, offset } = cut("song-2", 20, 7);
    const r = (indexes.get("spec") as MemoryIndex).match(fingerprintQuery(clip, SR, SPEC_PRESET).hashes);
    expect(r.match?.songId).toBe("song-2");
    expect(Math.abs((r.match?.offsetSeconds ?? -1) - offset)).toBeLessThanOrEqual(0.5);
    expect(r.match?.ratio).toBeGreaterThan(0.1);
  });

  it("default preset: does not match music that is not in the index", () => {
    const stranger = randomNotesTrack(10, SR, 99);
    const r = (indexes.get("default") as MemoryIndex).match(fingerprintQuery(stranger, SR, DEFAULT_PRESET).hashes);
    expect(r.match).toBeNull();
  });

  it("a query at several sub-hop shifts contains the unshifted query's hashes and no duplicates", () => {
    const { clip } = cut("song-1", 4, 3);
    const single = fingerprintQuery(clip, SR, { ...DEFAULT_PRESET, query: { shifts: 1 } }).hashes;
    const multi = fingerprintQuery(clip, SR, DEFAULT_PRESET).hashes;
    expect(multi.count).toBeGreaterThan(single.count);
    const keys = new Set<string>();
    for (let i = 0; i < multi.count; i++) keys.add(`${multi.hashes[i]}:${multi.offsets[i]}`);
    expect(keys.size).toBe(multi.count);
    for (let i = 0; i < single.count; i++) expect(keys.has(`${single.hashes[i]}:${single.offsets[i]}`)).toBe(true);
  });
});

describe("match and MemoryIndex", () => {
  it("gives the same answer from database rows as from the in-memory index", () => {
    const index = indexes.get("default") as MemoryIndex;
    const { clip } = cut("song-4", 5, 5);
    const q = fingerprintQuery(clip, SR, DEFAULT_PRESET).hashes;
    const values = distinctHashValues(q);
    expect(values.length).toBe(new Set(q.hashes).size);
    const rows = values.flatMap((hash) => index.lookup(hash).map((p) => ({ hash, ...p })));
    expect(match(q, lookupFromRows(rows.reverse()), DEFAULT_PRESET)).toEqual(index.match(q));
  });

  it("returns rows ordered by offset, and the spec reads only the first 10 per hash", () => {
    const hashes = {
      count: 30,
      hashes: new Int32Array(30).fill(1234),
      offsets: Int32Array.from({ length: 30 }, (_, i) => 29 - i),
    };
    const index = new MemoryIndex(SPEC_PRESET);
    index.add("a", hashes);
    const rows = index.lookup(1234);
    expect(rows.map((r) => r.offset)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // A query hash at offset 0: only the rows at offsets 0..9 are read, each its own alignment.
    const r = index.match({ count: 1, hashes: Int32Array.of(1234), offsets: Int32Array.of(0) });
    expect(r.candidates[0]?.hits).toBe(10);
  });

  it("lookupFromRows: each hash's rows by offset, one number per song", () => {
    const rows = [
      { hash: 5, songId: "b", offset: 40 },
      { hash: 9, songId: "a", offset: 3 },
      { hash: 5, songId: "a", offset: 7 },
      { hash: 5, songId: "b", offset: 2 },
      { hash: -3, songId: "c", offset: 1 },
      { hash: 9, songId: "c", offset: 1 },
    ];
    const lookup = lookupFromRows(rows);
    expect(lookup(5).map((p) => [p.songId, p.offset])).toEqual([
      ["b", 2],
      ["a", 7],
      ["b", 40],
    ]);
    expect(lookup(9).map((p) => [p.songId, p.offset])).toEqual([
      ["c", 1],
      ["a", 3],
    ]);
    expect(lookup(-3).map((p) => p.offset)).toEqual([1]);
    expect(lookup(6)).toEqual([]);
    const numbers = new Map<string, Set<number>>();
    for (const h of [5, 9, -3])
      for (const p of lookup(h)) numbers.set(p.songId, (numbers.get(p.songId) ?? new Set()).add(p.song));
    expect([...numbers.values()].map((s) => s.size)).toEqual([1, 1, 1]);
    expect(new Set([...numbers.values()].map((s) => [...s][0])).size).toBe(3);
  });

  it("drops over-common hashes at index time (default) and keeps them dropped", () => {
    const c: FingerprintConfig = { ...DEFAULT_PRESET, index: { maxPostingsPerHash: 2, rowBudget: null } };
    const index = new MemoryIndex(c);
    const common = { count: 4, hashes: Int32Array.of(7, 7, 7, 8), offsets: Int32Array.of(1, 2, 3, 4) };
    index.add("a", common);
    index.add("b", { count: 1, hashes: Int32Array.of(8), offsets: Int32Array.of(5) });
    expect(index.lookup(7)).toEqual([]);
    expect(index.lookup(8)).toHaveLength(2);
    index.add("c", { count: 1, hashes: Int32Array.of(7), offsets: Int32Array.of(9) });
    expect(index.lookup(7)).toEqual([]);
    expect(index.stats()).toMatchObject({ songs: 3, postings: 2, prunedHashes: 1, prunedPostings: 4 });
  });

  it("reads stored hashes rarest first while their rows fit the budget, skipping those over the per-hash cap", () => {
    const hashes = [10, 11, 12, 13, 14, 15];
    const counts = [5, 0, 1, 700, 3, 3];
    expect(rarestWithin(hashes, counts, null, null)).toEqual([12, 14, 15, 10, 13]);
    expect(rarestWithin(hashes, counts, null, 500)).toEqual([12, 14, 15, 10]);
    // 1 + 3 + 3 = 7 rows fit a budget of 8; hash 10's 5 more would not.
    expect(rarestWithin(hashes, counts, 8, 500)).toEqual([12, 14, 15]);
    expect(rarestWithin(hashes, counts, 0, 500)).toEqual([]);
  });

  it("matches in memory on the rarest hashes within the row budget, as the server's store reads them", () => {
    // Song "a" lines up 12 hashes stored 3 times each (36 rows); song "b" 11 rare ones (1 row each).
    const rows = (c: FingerprintConfig) => {
      const index = new MemoryIndex(c);
      index.add("a", {
        count: 12,
        hashes: Int32Array.from({ length: 12 }, (_, i) => 100 + i),
        offsets: Int32Array.from({ length: 12 }, (_, i) => 50 + i),
      });
      for (const id of ["x", "y"])
        index.add(id, {
          count: 12,
          hashes: Int32Array.from({ length: 12 }, (_, i) => 100 + i),
          offsets: Int32Array.from({ length: 12 }, (_, i) => 900 + 37 * i),
        });
      index.add("b", {
        count: 11,
        hashes: Int32Array.from({ length: 11 }, (_, i) => 200 + i),
        offsets: Int32Array.from({ length: 11 }, (_, i) => 70 + i),
      });
      return index;
    };
    const query = {
      count: 23,
      hashes: Int32Array.from([
        ...Array.from({ length: 12 }, (_, i) => 100 + i),
        ...Array.from({ length: 11 }, (_, i) => 200 + i),
      ]),
      offsets: Int32Array.from({ length: 23 }, (_, i) => (i < 12 ? i : i - 12)),
    };
    const unbounded = rows({ ...DEFAULT_PRESET, index: { maxPostingsPerHash: null, rowBudget: null } }).match(query);
    expect(unbounded.candidates[0]?.songId).toBe("a");
    // 20 rows: the 11 rare hashes (11 rows) and 3 of the common ones (9): "a" falls to 3 aligned.
    const budgeted = rows({ ...DEFAULT_PRESET, index: { maxPostingsPerHash: null, rowBudget: 20 } }).match(query);
    expect(budgeted.candidates[0]).toMatchObject({ songId: "b", aligned: 11 });
    expect(budgeted.candidates.find((c) => c.songId === "a")?.aligned).toBe(3);
  });

  it("ranks only the best maxCandidates songs, the same ones ranking every song gives", () => {
    const rnd = seeded(21);
    const rows: { hash: number; songId: string; offset: number }[] = [];
    // 3,000 songs share query hashes at random offsets; a few hold only runs of aligned ones, several tied at 11.
    for (let s = 0; s < 3000; s++) {
      const aligned = s % 500 === 0 ? 8 + (s / 500) * 3 : s % 250 === 0 ? 11 : 0;
      for (let h = 0; h < 60; h++) {
        if (h < aligned) rows.push({ hash: h, songId: `s${s}`, offset: 500 + h });
        else if (aligned === 0 && rnd() < 0.08)
          rows.push({ hash: h, songId: `s${s}`, offset: Math.floor(rnd() * 5000) });
      }
    }
    const q = {
      count: 60,
      hashes: Int32Array.from({ length: 60 }, (_, h) => h),
      offsets: Int32Array.from({ length: 60 }, (_, h) => h),
    };
    const lookup = lookupFromRows(rows);
    const every = match(q, lookup, { ...DEFAULT_PRESET, match: { ...DEFAULT_PRESET.match, maxCandidates: 1e9 } });
    expect(every.candidates.length).toBeGreaterThan(2900);
    for (const k of [1, 3, 10]) {
      const top = match(q, lookup, { ...DEFAULT_PRESET, match: { ...DEFAULT_PRESET.match, maxCandidates: k } });
      expect(top.candidates.map((c) => [c.songId, c.aligned, c.hits])).toEqual(
        every.candidates.slice(0, k).map((c) => [c.songId, c.aligned, c.hits]),
      );
    }
  });

  it("ranks by aligned hashes and reports where the query starts", () => {
    const c = DEFAULT_PRESET;
    const rows: { hash: number; songId: string; offset: number }[] = [];
    // Song x holds hashes 0..19 at offsets 100..119; song y holds the same hashes scattered.
    for (let h = 0; h < 20; h++)
      rows.push({ hash: h, songId: "x", offset: 100 + h }, { hash: h, songId: "y", offset: h * 37 });
    const q = {
      count: 20,
      hashes: Int32Array.from({ length: 20 }, (_, h) => h),
      offsets: Int32Array.from({ length: 20 }, (_, h) => h),
    };
    const r = match(q, lookupFromRows(rows), c);
    expect(r.match?.songId).toBe("x");
    expect(r.match?.aligned).toBe(20);
    expect(r.match?.offsetFrames).toBe(100);
    expect(r.match?.offsetSeconds).toBeCloseTo(100 * deriveParams(c).hopSeconds, 9);
    expect(r.candidates[1]?.songId).toBe("y");
  });
});

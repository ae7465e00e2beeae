import { describe, expect, it } from "vitest";
import { resample } from "./dsp.js";
import { invariantFingerprint, invariantQuery, packInvariantEntry } from "./invariant.js";
import {
  compositeKey,
  INVARIANT_INDEX,
  invariantWarp,
  keyOfComposite,
  planInvariantLookup,
  SUFFIX_BANDS,
  suffixCount,
} from "./invariant-lookup.js";
import { randomNotesTrack } from "./test-signals.js";

const SR = 8000;

describe("the invariant index's layout and lookup plan (decision 033)", () => {
  it("has 330 suffixes per key, the divisor migration 0020's count triggers use", () => {
    expect(suffixCount(SUFFIX_BANDS)).toBe(330);
    expect(keyOfComposite(compositeKey(123_456, 0))).toBe(123_456);
    expect(keyOfComposite(compositeKey(123_456, 2 ** 32 - 1))).toBe(123_456);
  });

  it("reads, for a clip sped up 15%, the composite ranges that hold the song's entries of the keys they share", () => {
    const song = randomNotesTrack(30, SR, 39);
    const stored = invariantFingerprint(song, SR, INVARIANT_INDEX.analysis).triplets;
    const clip = resample(song.subarray(8 * SR, 16 * SR), SR * 1.15, SR);
    const q = invariantQuery(clip, SR, INVARIANT_INDEX.analysis, INVARIANT_INDEX.widening);
    const counts = new Map<number, number>();
    for (let i = 0; i < stored.count; i++)
      counts.set(stored.keys[i] as number, (counts.get(stored.keys[i] as number) ?? 0) + 1);
    const units = planInvariantLookup(q.triplets, q.primary, counts);
    const byKey = new Map(units.map((u) => [u.key, u.ranges]));
    // Stored entries of the clip's passage (8-16 s of the song) under keys the clip forms: the ranges must hold them.
    let shared = 0;
    let held = 0;
    for (let i = 0; i < stored.count; i++) {
      const t = stored.times[i] as number;
      const ranges = byKey.get(stored.keys[i] as number);
      if (t < 8.5 || t > 15 || !ranges) continue;
      shared++;
      const c = compositeKey(stored.keys[i] as number, packInvariantEntry(0, stored, i).lo);
      if (ranges.some(([a, b]) => c >= a && c <= b)) held++;
    }
    expect(shared).toBeGreaterThan(50);
    // Not all: a shared key may come from another place in the song, with another pitch or span.
    expect(held / shared).toBeGreaterThan(0.6);
  });

  it("orders keys by rows, a primary key's rows counting primaryWeight times fewer", () => {
    const song = randomNotesTrack(12, SR, 7);
    const q = invariantQuery(song, SR, INVARIANT_INDEX.analysis, INVARIANT_INDEX.widening);
    const primary = new Set(Array.from(q.primary));
    const keys = [...new Set(q.triplets.keys.subarray(0, q.triplets.count))];
    const counts = new Map(keys.map((k, i) => [k, 10 + (i % 50)]));
    const units = planInvariantLookup(q.triplets, q.primary, counts);
    expect(units.length).toBe(keys.length);
    for (const u of units) {
      const rows = counts.get(u.key) as number;
      expect(u.cost).toBe(primary.has(u.key) ? rows / INVARIANT_INDEX.primaryWeight : rows);
    }
    for (let i = 1; i < units.length; i++) expect(units[i]?.cost).toBeGreaterThanOrEqual(units[i - 1]?.cost as number);
    // Keys with no stored rows are not read at all.
    expect(planInvariantLookup(q.triplets, q.primary, new Map())).toEqual([]);
  });

  it("reads a match's factors as the edit people make: speed, pitch shift, time-stretch, or none", () => {
    // Sped up 12% (+1.96 semitones): the factor is read from the pitch, also when the time factor is 2% off.
    const sped = 2 ** (1.96 / 12);
    expect(invariantWarp(1.12, 1.96)).toEqual({ tempo: sped, pitch: sped });
    expect(invariantWarp(1.1, 1.96)).toEqual({ tempo: sped, pitch: sped });
    const slowed = 2 ** (-2.81 / 12);
    expect(invariantWarp(0.85, -2.81)).toEqual({ tempo: slowed, pitch: slowed });
    // Sped up 2%: too little pitch to read the factor from; the time factor and pitch agree within the snap.
    expect(invariantWarp(1.02, 0.3)).toEqual({ tempo: 1.02, pitch: 1.02 });
    // Pitch-shifted 2 semitones, tempo kept (within 0.4%).
    expect(invariantWarp(1.003, -2.02)).toEqual({ tempo: 1, pitch: 2 ** (-2.02 / 12) });
    // Time-stretched, pitch kept.
    expect(invariantWarp(0.95, 0.05)).toEqual({ tempo: 0.95, pitch: 1 });
    // As stored.
    expect(invariantWarp(0.999, -0.04)).toEqual({ tempo: 1, pitch: 1 });
    // Both changed apart: kept as estimated.
    expect(invariantWarp(1.1, 3).pitch).toBeCloseTo(2 ** 0.25, 10);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRESET, deriveParams, PRESETS } from "./config.js";
import { packHash, pairPeaks, unpackHash } from "./hashes.js";
import type { Peaks } from "./peaks.js";

describe("packHash / unpackHash", () => {
  for (const preset of Object.values(PRESETS)) {
    it(`round-trips every valid field combination of the ${preset.name} preset within 31 bits`, () => {
      const d = deriveParams(preset);
      const zone = preset.pairing.maxDeltaBins;
      const arb = fc
        .record({
          f1: fc.integer({ min: d.minBin, max: d.maxBin }),
          df: fc.integer({ min: -(zone ?? d.maxBin), max: zone ?? d.maxBin }),
          dt: fc.integer({ min: d.minDeltaFrames, max: d.maxDeltaFrames }),
        })
        .map(({ f1, df, dt }) => ({ f1, f2: f1 + df, dt }))
        .filter(({ f2 }) => f2 >= d.minBin && f2 <= d.maxBin);
      fc.assert(
        fc.property(arb, (fields) => {
          const h = packHash(fields, preset);
          expect(Number.isInteger(h)).toBe(true);
          expect(h).toBeGreaterThanOrEqual(0);
          expect(h).toBeLessThan(2 ** 31);
          expect(h | 0).toBe(h); // a signed 32-bit integer, as stored in SQLite / PostgreSQL `integer`
          expect(unpackHash(h, preset)).toEqual(fields);
        }),
      );
    });
  }

  it("rejects fields outside the layout", () => {
    const d = deriveParams(DEFAULT_PRESET);
    expect(() => packHash({ f1: 10, f2: 10, dt: d.maxDeltaFrames + 1 }, DEFAULT_PRESET)).toThrow();
    expect(() => packHash({ f1: 10, f2: 300, dt: 2 }, DEFAULT_PRESET)).toThrow();
  });
});

describe("pairPeaks", () => {
  const peaksOf = (list: [number, number][]): Peaks => ({
    count: list.length,
    frames: Int32Array.from(list.map(([f]) => f)),
    bins: Int32Array.from(list.map(([, b]) => b)),
    levels: new Float32Array(list.length),
  });

  it("pairs each anchor with following peaks inside the time range and target zone only", () => {
    const c = { ...DEFAULT_PRESET, pairing: { ...DEFAULT_PRESET.pairing, maxDeltaBins: 20 } };
    const d = deriveParams(c);
    const zone = 20;
    const peaks = peaksOf([
      [0, 50],
      [0, 60], // same frame: never a target of the first
      [d.minDeltaFrames, 55],
      [d.minDeltaFrames, 50 + zone + 1], // outside the zone
      [d.maxDeltaFrames + 1, 52], // too late for frame 0
    ]);
    const h = pairPeaks(peaks, c);
    const fromFirst = [];
    for (let i = 0; i < h.count; i++) {
      const f = unpackHash(h.hashes[i] as number, c);
      if (h.offsets[i] === 0 && f.f1 === 50) fromFirst.push(f);
    }
    expect(fromFirst).toEqual([{ f1: 50, f2: 55, dt: d.minDeltaFrames }]);
  });

  it("stops at fanOut targets per anchor", () => {
    const c = { ...DEFAULT_PRESET, pairing: { ...DEFAULT_PRESET.pairing, fanOut: 2 } };
    const peaks = peaksOf([
      [0, 100],
      [2, 100],
      [3, 100],
      [4, 100],
      [5, 100],
    ]);
    const h = pairPeaks(peaks, c);
    expect(Array.from(h.offsets).filter((o) => o === 0).length).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_PRESET, deriveParams, type FingerprintConfig, PRESETS, SPEC_PRESET } from "./config.js";

describe("spec preset", () => {
  it("reproduces the spec §9 constants literally", () => {
    expect(SPEC_PRESET.sampleRate).toBe(5512);
    expect(SPEC_PRESET.windowSize).toBe(4096);
    expect(SPEC_PRESET.hopSize).toBe(2048);
    expect(SPEC_PRESET.maxFrames).toBe(2000);
    expect(SPEC_PRESET.peaks.thresholdDb).toBe(-40);
    expect(SPEC_PRESET.peaks.thresholdReference).toBe("clip-max");
    expect(SPEC_PRESET.peaks.neighbourhoodBins).toBe(5);
    expect(SPEC_PRESET.peaks.neighbourhoodFrames).toBe(3);
    expect(SPEC_PRESET.peaks.maxPerFrame).toBeNull();
    expect(SPEC_PRESET.pairing).toEqual({ fanOut: 5, minDeltaSeconds: 0.5, maxDeltaSeconds: 1.5, maxDeltaBins: null });
    expect(SPEC_PRESET.query.shifts).toBe(1);
    expect(SPEC_PRESET.index.maxPostingsPerHash).toBeNull();
    expect(SPEC_PRESET.match.toleranceSeconds).toBe(0.5);
    expect(SPEC_PRESET.match.maxResultsPerHash).toBe(10);
    expect(SPEC_PRESET.match.scoring).toBe("ratio");
    expect(SPEC_PRESET.match.minRatio).toBe(0.1);
    expect(SPEC_PRESET.match.distinctHashes).toBe(false);
  });

  it("turns the spec's seconds into whole frames, rounding inwards", () => {
    const d = deriveParams(SPEC_PRESET);
    expect(d.hopSeconds).toBeCloseTo(2048 / 5512, 10);
    expect(d.minDeltaFrames).toBe(2); // 0.5 s = 1.35 frames
    expect(d.maxDeltaFrames).toBe(4); // 1.5 s = 4.04 frames
    expect(d.toleranceFrames).toBe(1); // 0.5 s
    expect([d.f1Bits, d.f2Bits, d.dtBits]).toEqual([11, 11, 2]);
  });
});

describe("default preset", () => {
  it("has the documented frame grid and hash layout", () => {
    const d = deriveParams(DEFAULT_PRESET);
    expect(d.hopSeconds).toBeCloseTo(128 / 5512, 10); // 23 ms
    expect([d.minDeltaFrames, d.maxDeltaFrames, d.toleranceFrames]).toEqual([1, 51, 1]);
    expect([d.f1Bits, d.f2Bits, d.dtBits]).toEqual([8, 8, 6]);
  });
});

describe("deriveParams", () => {
  it("keeps every preset's hash within 31 bits", () => {
    for (const preset of Object.values(PRESETS)) {
      const d = deriveParams(preset);
      expect(d.f1Bits + d.f2Bits + d.dtBits).toBeLessThanOrEqual(31);
    }
  });

  it("rejects unusable configs", () => {
    const bad = (patch: (c: FingerprintConfig) => void) => {
      const c = structuredClone(DEFAULT_PRESET);
      patch(c);
      return () => deriveParams(c);
    };
    expect(bad((c) => (c.windowSize = 1000))).toThrow(/power of two/);
    expect(bad((c) => (c.peaks.neighbourhoodBins = 4))).toThrow(/odd/);
    expect(bad((c) => (c.pairing.maxDeltaSeconds = 0.001))).toThrow(/time range/);
    expect(bad((c) => Object.assign(c, { windowSize: 65536, pairing: { ...c.pairing, maxDeltaBins: null } }))).toThrow(
      /bits/,
    );
  });
});

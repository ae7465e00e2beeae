import { describe, expect, it } from "vitest";
import { DEFAULT_PRESET, type FingerprintConfig, SPEC_PRESET } from "./config.js";
import { stft } from "./dsp.js";
import { peakThresholdDb, pickPeaks } from "./peaks.js";
import { tone, whiteNoise } from "./test-signals.js";

const sr = 5512;

function sum(...xs: Float32Array[]): Float32Array {
  const out = new Float32Array(Math.min(...xs.map((x) => x.length)));
  for (const x of xs) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (x[i] as number);
  return out;
}

describe("pickPeaks", () => {
  it("finds two steady tones in their bins", () => {
    const c = DEFAULT_PRESET;
    const binHz = sr / c.windowSize;
    const x = sum(tone(40 * binHz, 2, sr, 0.5), tone(150 * binHz, 2, sr, 0.25));
    const peaks = pickPeaks(stft(x, sr, c.windowSize, c.hopSize), c);
    expect(peaks.count).toBeGreaterThan(0);
    expect(new Set(peaks.bins)).toEqual(new Set([40, 150]));
    // Frames are in order, and a peak's level is its bin's level.
    for (let i = 1; i < peaks.count; i++)
      expect(peaks.frames[i] as number).toBeGreaterThanOrEqual(peaks.frames[i - 1] as number);
  });

  it("yields nothing for digital silence or a signal under the silence floor", () => {
    for (const c of [SPEC_PRESET, DEFAULT_PRESET]) {
      expect(pickPeaks(stft(new Float32Array(sr * 5), sr, c.windowSize, c.hopSize), c).count).toBe(0);
      const dither = whiteNoise(5, sr, 1, 1e-7); // -140 dBFS
      expect(pickPeaks(stft(dither, sr, c.windowSize, c.hopSize), c).count).toBe(0);
    }
  });

  it("measures the threshold from the loudest bin ('clip-max') or from full scale ('dbfs')", () => {
    const x = sum(tone(500, 10, sr, 0.5), tone(1500, 10, sr, 0.001)); // the second tone is 54 dB down
    const spec = stft(x, sr, SPEC_PRESET.windowSize, SPEC_PRESET.hopSize);
    expect(peakThresholdDb(spec, SPEC_PRESET)).toBeCloseTo(spec.maxDb - 40, 6);
    const strong = pickPeaks(spec, SPEC_PRESET);
    expect(strong.count).toBeGreaterThan(0);
    const hz = (b: number) => (b * sr) / SPEC_PRESET.windowSize;
    expect(Array.from(strong.bins).every((b) => Math.abs(hz(b) - 500) < 5)).toBe(true);
    const absolute: FingerprintConfig = {
      ...SPEC_PRESET,
      peaks: { ...SPEC_PRESET.peaks, thresholdReference: "dbfs", thresholdDb: -70 },
    };
    const both = pickPeaks(spec, absolute);
    expect(Array.from(both.bins).some((b) => Math.abs(hz(b) - 1500) < 5)).toBe(true);
  });

  it("keeps only the loudest peaks of a frame when capped", () => {
    const noise = whiteNoise(3, sr, 7, 0.5);
    const c = DEFAULT_PRESET;
    const uncapped: FingerprintConfig = { ...c, peaks: { ...c.peaks, maxPerFrame: null } };
    const capped: FingerprintConfig = { ...c, peaks: { ...c.peaks, maxPerFrame: 2 } };
    const spec = stft(noise, sr, c.windowSize, c.hopSize);
    const all = pickPeaks(spec, uncapped);
    const few = pickPeaks(spec, capped);
    const perFrame = new Map<number, number>();
    for (const f of few.frames) perFrame.set(f, (perFrame.get(f) ?? 0) + 1);
    expect(Math.max(...perFrame.values())).toBeLessThanOrEqual(2);
    expect(few.count).toBeLessThan(all.count);
  });
});

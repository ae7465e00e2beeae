import { describe, expect, it } from "vitest";
import {
  COLOR_LUT,
  columnFrames,
  type FrequencyAxis,
  frequencyTicks,
  frequencyToY,
  rowBins,
  spectrogramPixels,
  timeTicks,
  yToFrequency,
} from "./spectrogram";

const log: FrequencyAxis = { scale: "log", minHz: 40, maxHz: 2756, height: 300 };

describe("frequency axis", () => {
  it("maps frequencies to rows and back", () => {
    expect(frequencyToY(2756, log)).toBe(0);
    expect(frequencyToY(40, log)).toBe(300);
    expect(yToFrequency(frequencyToY(440, log), log)).toBeCloseTo(440, 6);
    // An octave takes the same height anywhere on a log axis.
    expect(frequencyToY(100, log) - frequencyToY(200, log)).toBeCloseTo(
      frequencyToY(1000, log) - frequencyToY(2000, log),
    );
    const linear: FrequencyAxis = { scale: "linear", minHz: 0, maxHz: 1000, height: 100 };
    expect(frequencyToY(250, linear)).toBe(75);
  });

  it("covers every row with at least one bin, low rows with low bins", () => {
    const { lo, hi } = rowBins(log, 5512 / 512, 257);
    for (let y = 0; y < 300; y++) expect(hi[y]).toBeGreaterThanOrEqual(lo[y] as number);
    expect(hi[0]).toBe(256);
    expect(lo[299]).toBeLessThanOrEqual(4);
  });

  it("spreads frames over columns", () => {
    const many = columnFrames(100, 1000);
    expect([many.lo[0], many.hi[0], many.lo[99], many.hi[99]]).toEqual([0, 9, 990, 999]);
    const few = columnFrames(100, 10);
    expect([few.lo[0], few.hi[0], few.lo[99]]).toEqual([0, 0, 9]);
  });

  it("picks round ticks", () => {
    expect(timeTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(timeTicks(180)).toEqual([0, 30, 60, 90, 120, 150, 180]);
    expect(frequencyTicks(log)).toEqual([50, 100, 200, 500, 1000, 2000]);
  });
});

describe("spectrogramPixels", () => {
  it("draws a loud bin bright and silence dark", () => {
    const binCount = 257;
    const frameCount = 4;
    const data = new Float32Array(frameCount * binCount).fill(-200);
    for (let f = 0; f < frameCount; f++) data[f * binCount + 41] = 0; // ~441 Hz
    const spec = { data, frameCount, binCount, sampleRate: 5512, windowSize: 512, hopSize: 128, maxDb: 0 };
    const px = spectrogramPixels(spec, { width: 4, height: 100, scale: "log" });
    const axis: FrequencyAxis = { scale: "log", minHz: 40, maxHz: 2756, height: 100 };
    const y = Math.floor(frequencyToY(41 * (5512 / 512), axis));
    const at = (x: number, row: number) => Array.from(px.subarray((row * 4 + x) * 4, (row * 4 + x) * 4 + 3));
    expect(at(0, y)).toEqual(Array.from(COLOR_LUT.subarray(255 * 3, 255 * 3 + 3)));
    expect(at(0, 0)).toEqual(Array.from(COLOR_LUT.subarray(0, 3)));
    expect(px[3]).toBe(255);
  });
});

import { describe, expect, it } from "vitest";
import { analyzeAudio, reportTransferables, spectrumCurve } from "./analysis";

/** A few seconds of a melody of tones with noise, like the demo songs. */
function tune(seconds: number, rate: number, amp = 0.4): Float32Array {
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const out = new Float32Array(Math.round(seconds * rate));
  const note = Math.round(rate / 4);
  let f = 440;
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    if (i % note === 0) f = 220 * 2 ** (Math.floor(rand() * 24) / 12);
    phase += (2 * Math.PI * f) / rate;
    out[i] = amp * Math.sin(phase) * Math.min(1, (i % note) / 200) + 0.002 * (rand() * 2 - 1);
  }
  return out;
}

describe("analyzeAudio", () => {
  it("measures a stereo tune and judges it with both verdicts", () => {
    const left = tune(12, 22050);
    const right = left.map((x) => x * 0.5);
    const report = analyzeAudio([left, right], 22050);
    expect(report.durationSeconds).toBeCloseTo(12, 5);
    expect(report.channels).toBe(2);
    expect(report.sampleRate).toBe(22050);
    // Levels are measured on the mono mixdown: (1 + 0.5) / 2 of a 0.4 peak.
    expect(report.peakDbfs).toBeCloseTo(20 * Math.log10(0.3), 0);
    expect(report.fingerprints).toBeGreaterThan(50);
    expect(report.specFingerprints).toBeGreaterThan(0);
    // 12 s is under the spec's 30 s.
    expect(report.specVerdict.likelyValid).toBe(false);
    expect(report.specVerdict.reasons).toContain("shorter than 30 s");
    expect(["good", "usable", "poor"]).toContain(report.verdict.verdict);
    expect(report.spectrogram.frameCount).toBeGreaterThan(0);
    expect(report.peaks.count).toBe(report.peaks.frames.length);
    expect(report.spectrum.hz.length).toBeLessThanOrEqual(400);
    expect(Math.max(...report.spectrum.db)).toBe(0);
    expect(reportTransferables(report).length).toBe(5);
  });

  it("sees silence as silence", () => {
    const report = analyzeAudio([new Float32Array(22050 * 3)], 22050);
    expect(report.silenceRatio).toBe(1);
    expect(report.fingerprints).toBe(0);
    expect(report.verdict.verdict).toBe("poor");
  });

  it("refuses empty audio", () => {
    expect(() => analyzeAudio([], 44100)).toThrow(/no audio/);
  });
});

describe("spectrumCurve", () => {
  it("keeps the maximum of each group, relative to the loudest", () => {
    const curve = spectrumCurve(Float32Array.from([-10, -20, -30, -5, -200, -200]), 100, 3);
    expect(Array.from(curve.db)).toEqual([-5, 0, -200]);
    expect(Array.from(curve.hz)).toEqual([50, 250, 450]);
  });
});

import { describe, expect, it } from "vitest";
import {
  analyzeQuality,
  clippingRatio,
  likelySourceFor,
  peakDbfs,
  qualityVerdict,
  relativeSilenceRatio,
  rmsDbfs,
  silenceRatio,
  spectralCutoff,
  specVerdict,
} from "./quality.js";
import { lowPass, randomNotesTrack, tone, whiteNoise } from "./test-signals.js";

const SR = 44100;

describe("levels", () => {
  it("a full-scale sine peaks at 0 dBFS with an RMS of -3 dBFS", () => {
    const x = tone(997, 1, SR, 1);
    expect(peakDbfs(x)).toBeCloseTo(0, 2);
    expect(rmsDbfs(x)).toBeCloseTo(-3.01, 1);
    const half = tone(997, 1, SR, 0.5);
    expect(peakDbfs(half)).toBeCloseTo(-6.02, 1);
  });

  it("counts clipped samples", () => {
    const x = tone(100, 1, SR, 2).map((v) => Math.max(-1, Math.min(1, v)));
    const ratio = clippingRatio(x);
    expect(ratio).toBeGreaterThan(0.5); // a sine driven 6 dB into the rails is flat for 2/3 of the time
    expect(clippingRatio(tone(100, 1, SR, 0.9))).toBe(0);
  });

  it("has the spec's silence ratio (|x| < 0.01) and a gain-independent one", () => {
    const loud = tone(440, 1, SR, 0.5);
    const gap = new Float32Array(SR);
    const x = new Float32Array(2 * SR);
    x.set(loud);
    x.set(gap, SR);
    expect(silenceRatio(x)).toBeGreaterThan(0.5);
    expect(relativeSilenceRatio(x, SR)).toBeCloseTo(0.5, 1);
    // The same music 50 dB quieter: the spec calls it silent, the relative measure does not.
    const quiet = loud.map((v) => v * 0.003);
    expect(silenceRatio(quiet)).toBe(1);
    expect(relativeSilenceRatio(quiet, SR)).toBe(0);
    expect(relativeSilenceRatio(new Float32Array(SR), SR)).toBe(1);
    // Faint noise (-80 dBFS) is silence whatever its own loudest frame.
    expect(relativeSilenceRatio(whiteNoise(1, SR, 9, 1e-4), SR)).toBe(1);
  });
});

describe("spectral cutoff", () => {
  it("finds about 11 kHz in noise low-passed at 11 kHz, and calls it a 64 kbps source", () => {
    const x = lowPass(whiteNoise(3, SR, 5, 0.5), 11000, SR);
    const c = spectralCutoff(x, SR);
    expect(c.cutoffHz).toBeGreaterThan(10500);
    expect(c.cutoffHz).toBeLessThan(11600);
    expect(c.sharp).toBe(true);
    expect(c.likelySource).toBe("about 64 kbps");
  });

  it("finds about 16 kHz (a 128 kbps source) in noise low-passed at 16 kHz", () => {
    const c = spectralCutoff(lowPass(whiteNoise(3, SR, 6, 0.5), 16000, SR), SR);
    expect(Math.abs(c.cutoffHz - 16000)).toBeLessThan(600);
    expect(c.likelySource).toBe("about 128 kbps");
  });

  it("sees full-band noise as not low-passed, and silence as silence", () => {
    const c = spectralCutoff(whiteNoise(2, SR, 7, 0.5), SR);
    expect(c.cutoffHz).toBeGreaterThan(21000);
    expect(c.likelySource).toMatch(/lossless/);
    expect(spectralCutoff(new Float32Array(SR), SR)).toMatchObject({ cutoffHz: 0, likelySource: "too quiet to judge" });
    const faint = whiteNoise(1, SR, 8, 1e-4); // -80 dBFS: an encoder's noise floor, not a source
    expect(spectralCutoff(faint, SR).likelySource).toBe("too quiet to judge");
  });

  it("maps cutoffs to typical encoder bitrates", () => {
    expect(likelySourceFor(11000)).toBe("about 64 kbps");
    expect(likelySourceFor(16000)).toBe("about 128 kbps");
    expect(likelySourceFor(15000)).toBe("about 96 kbps");
    expect(likelySourceFor(18600)).toBe("about 192 kbps");
    expect(likelySourceFor(20000)).toBe("256-320 kbps or lossless");
    expect(likelySourceFor(5000)).toMatch(/very low/);
  });
});

describe("verdicts", () => {
  it("applies the spec's rule literally", () => {
    expect(specVerdict({ durationSeconds: 31, fingerprints: 51, silenceRatio: 0.49 }).likelyValid).toBe(true);
    const bad = specVerdict({ durationSeconds: 30, fingerprints: 50, silenceRatio: 0.5 });
    expect(bad.likelyValid).toBe(false);
    expect(bad.reasons).toHaveLength(3);
  });

  it("judges a better-founded verdict from the measurements", () => {
    const good = {
      durationSeconds: 200,
      peakDbfs: -1,
      rmsDbfs: -14,
      clippingRatio: 0,
      relativeSilenceRatio: 0.02,
      hashesPerSecond: 80,
      cutoffHz: 20000,
      cutoffSharp: true,
    };
    expect(qualityVerdict(good).verdict).toBe("good");
    expect(qualityVerdict({ ...good, cutoffHz: 11000 }).verdict).toBe("poor");
    expect(qualityVerdict({ ...good, cutoffHz: 14000, cutoffSharp: false }).warnings[0]).toMatch(/narrow-band/);
    expect(qualityVerdict({ ...good, durationSeconds: 20 }).verdict).toBe("usable");
    expect(qualityVerdict({ ...good, clippingRatio: 0.05 }).problems[0]).toMatch(/clipped/);
  });

  it("analyses decoded channels end to end", () => {
    const music = randomNotesTrack(35, SR, 3);
    const report = analyzeQuality([music, music], SR);
    expect(report.channels).toBe(2);
    expect(report.durationSeconds).toBeCloseTo(35, 6);
    expect(report.fingerprints).toBeGreaterThan(50);
    expect(report.specVerdict.likelyValid).toBe(report.silenceRatio < 0.5);
    expect(report.fingerprint.spectrogram?.frameCount).toBeGreaterThan(0);
    expect(report.fingerprint.peaks.count).toBeGreaterThan(0);
  });
});

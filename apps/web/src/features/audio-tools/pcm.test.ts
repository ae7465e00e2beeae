import { describe, expect, it } from "vitest";
import { blockLevel, meterFraction, PcmRecording, RECOGNITION_SAMPLE_RATE, toPcm16 } from "./pcm";

const sine = (hz: number, seconds: number, rate: number, amp = 0.5) =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / rate));

describe("toPcm16", () => {
  it("writes clamped 16-bit little-endian samples", () => {
    const view = new DataView(toPcm16(Float32Array.from([0, 1, -1, 0.5, 2, -3])));
    expect(view.byteLength).toBe(12);
    expect([0, 1, 2, 3, 4, 5].map((i) => view.getInt16(i * 2, true))).toEqual([0, 32767, -32768, 16384, 32767, -32768]);
    // Little-endian: the low byte first.
    expect(view.getUint8(2)).toBe(0xff);
    expect(view.getUint8(3)).toBe(0x7f);
  });
});

describe("levels", () => {
  it("measures RMS and peak in dBFS", () => {
    const { rmsDb, peakDb } = blockLevel(sine(1000, 0.1, 48000, 1));
    expect(peakDb).toBeCloseTo(0, 1);
    expect(rmsDb).toBeCloseTo(-3.01, 1);
    expect(blockLevel(new Float32Array(128)).rmsDb).toBe(Number.NEGATIVE_INFINITY);
  });

  it("maps dBFS to a meter position", () => {
    expect(meterFraction(0)).toBe(1);
    expect(meterFraction(-30)).toBeCloseTo(0.5);
    expect(meterFraction(-90)).toBe(0);
    expect(meterFraction(Number.NEGATIVE_INFINITY)).toBe(0);
  });
});

describe("PcmRecording", () => {
  it("joins blocks and resamples the whole recording to 11025 Hz", () => {
    const rate = 48000;
    const signal = sine(440, 2, rate);
    const rec = new PcmRecording(rate);
    for (let at = 0; at < signal.length; at += 4096) rec.push(signal.subarray(at, at + 4096));
    expect(rec.seconds).toBeCloseTo(2, 5);
    expect(rec.captured()).toEqual(signal);
    const out = rec.snapshot();
    expect(Math.abs(out.length - (signal.length * RECOGNITION_SAMPLE_RATE) / rate)).toBeLessThanOrEqual(1);
    // Away from the edges the 440 Hz tone survives with its level.
    const mid = out.subarray(2000, 20000);
    expect(blockLevel(mid).rmsDb).toBeCloseTo(blockLevel(signal).rmsDb, 0);
  });

  it("keeps growing after a snapshot", () => {
    const rec = new PcmRecording(44100);
    rec.push(sine(300, 1, 44100));
    const first = rec.snapshot().length;
    rec.push(sine(300, 1, 44100));
    expect(Math.abs(rec.snapshot().length - 2 * first)).toBeLessThanOrEqual(1);
  });
});

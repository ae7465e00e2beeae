import { describe, expect, it } from "vitest";
import { hannWindow, mixdown, resample, type Spectrogram, stft, suppressLateReverb } from "./dsp.js";
import { chirp, tone } from "./test-signals.js";

/** Frequency of the loudest bin of a long FFT of the middle of a signal. */
function dominantFrequency(x: Float32Array, sampleRate: number): number {
  const size = 8192;
  const mid = Math.floor((x.length - size) / 2);
  const s = stft(x.subarray(mid, mid + size), sampleRate, size, size);
  let best = 0;
  for (let b = 1; b < s.binCount; b++) if ((s.data[b] as number) > (s.data[best] as number)) best = b;
  return (best * sampleRate) / size;
}

describe("mixdown", () => {
  it("averages channels and passes a single channel through", () => {
    const left = Float32Array.from([1, 0.5, -1]);
    const right = Float32Array.from([0, 0.5, 1]);
    expect(Array.from(mixdown([left, right]))).toEqual([0.5, 0.5, 0]);
    expect(mixdown([left])).toBe(left);
    expect(mixdown([]).length).toBe(0);
  });
});

describe("resample", () => {
  it("preserves a tone's frequency and level from 44.1 kHz to 5512 Hz", () => {
    const x = tone(1000, 3, 44100, 0.5);
    const y = resample(x, 44100, 5512);
    expect(y.length).toBe(Math.floor(x.length / (44100 / 5512)));
    expect(Math.abs(dominantFrequency(y, 5512) - 1000)).toBeLessThan(1);
    let peak = 0;
    for (let i = 1000; i < y.length - 1000; i++) peak = Math.max(peak, Math.abs(y[i] as number));
    expect(peak).toBeGreaterThan(0.49);
    expect(peak).toBeLessThan(0.51);
  });

  it("works upwards and at other rates (48 kHz microphone, 8 kHz phone)", () => {
    expect(Math.abs(dominantFrequency(resample(tone(700, 2, 48000), 48000, 5512), 5512) - 700)).toBeLessThan(1);
    expect(Math.abs(dominantFrequency(resample(tone(700, 2, 4000), 4000, 5512), 5512) - 700)).toBeLessThan(1);
  });

  it("removes content above the new Nyquist frequency instead of aliasing it", () => {
    // 4 kHz at 44.1 kHz would alias to 1512 Hz at 5512 Hz without the low-pass.
    const y = resample(tone(4000, 2, 44100, 1), 44100, 5512);
    let sum = 0;
    for (let i = 500; i < y.length - 500; i++) sum += (y[i] as number) ** 2;
    const rmsDb = 10 * Math.log10(sum / (y.length - 1000));
    expect(rmsDb).toBeLessThan(-60);
  });

  it("returns the input when the rates are equal", () => {
    const x = tone(100, 0.1, 5512);
    expect(resample(x, 5512, 5512)).toBe(x);
  });
});

describe("stft", () => {
  it("reads a full-scale sine at a bin centre as 0 dBFS in the right bin", () => {
    const sr = 5512;
    const bin = 100;
    const s = stft(tone((bin * sr) / 1024, 1, sr, 1), sr, 1024, 512);
    expect(s.binCount).toBe(513);
    expect(s.frameCount).toBe(Math.floor((sr - 1024) / 512) + 1);
    expect(s.data[s.binCount + bin]).toBeCloseTo(0, 1);
    expect(s.maxDb).toBeCloseTo(0, 1);
    expect(s.data[s.binCount + bin + 10] as number).toBeLessThan(-60);
  });

  it("follows a chirp upwards", () => {
    const sr = 5512;
    const s = stft(chirp(200, 2000, 4, sr), sr, 512, 128);
    const loudest = (f: number) => {
      let best = 0;
      for (let b = 1; b < s.binCount; b++) {
        if ((s.data[f * s.binCount + b] as number) > (s.data[f * s.binCount + best] as number)) best = b;
      }
      return best;
    };
    const first = loudest(2);
    const last = loudest(s.frameCount - 3);
    expect(first * (sr / 512)).toBeLessThan(300);
    expect(last * (sr / 512)).toBeGreaterThan(1900);
  });

  it("has a periodic Hann window", () => {
    const w = hannWindow(8);
    expect(w[0]).toBe(0);
    expect(w[4]).toBeCloseTo(1, 12);
  });

  it("yields no frames for a signal shorter than the window and honours maxFrames", () => {
    expect(stft(new Float32Array(100), 5512, 512, 128).frameCount).toBe(0);
    expect(stft(new Float32Array(10000), 5512, 512, 128, 5).frameCount).toBe(5);
  });
});

describe("suppressLateReverb", () => {
  /** One bin: a note at frame 0 ringing out with a room's decay, and a second note at frame 20. */
  function ringing(decayPerFrame: number): Spectrogram {
    const frames = 40;
    const data = new Float32Array(frames);
    for (let f = 0; f < frames; f++) {
      const first = decayPerFrame ** f;
      const second = f >= 20 ? decayPerFrame ** (f - 20) : 0;
      data[f] = 10 * Math.log10(first + second);
    }
    return { data, frameCount: frames, binCount: 1, sampleRate: 5512, windowSize: 512, hopSize: 128, maxDb: 0 };
  }

  it("takes a room's tail down to the floor and keeps the notes' onsets", () => {
    const s = ringing(0.7);
    const dry = suppressLateReverb(s, { delayFrames: 2, decayPerFrame: 0.7, floorDb: 20 });
    // The onsets and the early part (before the delay) are as they were.
    expect(dry.data[0]).toBeCloseTo(s.data[0] as number, 3);
    expect(dry.data[1]).toBeCloseTo(s.data[1] as number, 3);
    expect(dry.data[20]).toBeGreaterThan((s.data[20] as number) - 0.1);
    // The late tail is taken off, down to the floor (20 dB under its level).
    for (const f of [5, 10, 15, 25, 30]) expect(dry.data[f]).toBeLessThan((s.data[f] as number) - 15);
    expect(dry.maxDb).toBeCloseTo(Math.max(...dry.data), 5);
  });

  it("leaves a spectrogram without reverberation's decay nearly as it is", () => {
    // Notes every 8 frames with silence between: nothing to take off but the tails of the notes themselves.
    const data = new Float32Array(32).fill(-120);
    for (let f = 0; f < 32; f += 8) data[f] = -10;
    const s: Spectrogram = {
      data,
      frameCount: 32,
      binCount: 1,
      sampleRate: 5512,
      windowSize: 512,
      hopSize: 128,
      maxDb: -10,
    };
    const dry = suppressLateReverb(s, { delayFrames: 2, decayPerFrame: 0.65, floorDb: 20 });
    for (let f = 0; f < 32; f += 8) expect(Math.abs((dry.data[f] as number) + 10)).toBeLessThan(0.25);
  });
});

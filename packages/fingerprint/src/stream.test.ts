import { describe, expect, it } from "vitest";
import { DEFAULT_PRESET, SPEC_PRESET } from "./config.js";
import { resample } from "./dsp.js";
import { fingerprint } from "./fingerprint.js";
import { createResampler, createStreamingFingerprinter } from "./stream.js";
import { randomNotesTrack, seeded } from "./test-signals.js";

const music = (seconds: number, rate: number, seed = 3) => randomNotesTrack(seconds, rate, seed);

/** Feed a signal in uneven chunks. */
function chunks(x: Float32Array, seed = 9): Float32Array[] {
  const rand = seeded(seed);
  const out: Float32Array[] = [];
  for (let i = 0; i < x.length; ) {
    const n = 1 + Math.floor(rand() * 20_000);
    out.push(x.subarray(i, i + n));
    i += n;
  }
  return out;
}

describe("createResampler", () => {
  it.each([
    [44_100, 5512],
    [48_000, 5512],
    [22_050, 44_100],
  ])("gives the samples of a whole-signal resample from %i to %i Hz", (from, to) => {
    const x = music(3, from);
    const whole = resample(x, from, to);
    const r = createResampler(from, to);
    const parts = chunks(x).map((c) => r.push(c));
    parts.push(r.finish());
    const streamed = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      streamed.set(p, at);
      at += p.length;
    }
    expect(streamed.length).toBe(whole.length);
    let maxDiff = 0;
    for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs((whole[i] ?? 0) - (streamed[i] ?? 0)));
    expect(maxDiff).toBeLessThan(1e-6);
  });
});

describe("createStreamingFingerprinter", () => {
  const rate = DEFAULT_PRESET.sampleRate;

  it("gives the hashes and offsets of the whole signal when it fits in one segment", () => {
    const x = music(20, rate);
    const whole = fingerprint(x, rate, DEFAULT_PRESET).hashes;
    const fp = createStreamingFingerprinter(DEFAULT_PRESET);
    for (const c of chunks(x)) fp.push(c);
    const streamed = fp.finish();
    expect(streamed.count).toBe(whole.count);
    expect(Array.from(streamed.hashes)).toEqual(Array.from(whole.hashes));
    expect(Array.from(streamed.offsets)).toEqual(Array.from(whole.offsets));
    expect(streamed.durationSeconds).toBeCloseTo(20, 3);
  });

  it("keeps the hashes of a long signal across segment joins", () => {
    // Small segments force many joins; a constant level keeps the per-segment threshold equal to the whole one.
    const x = music(60, rate, 5);
    const whole = fingerprint(x, rate, DEFAULT_PRESET).hashes;
    const fp = createStreamingFingerprinter(DEFAULT_PRESET, 300);
    for (const c of chunks(x)) fp.push(c);
    const streamed = fp.finish();
    const key = (h: number, o: number) => `${h}@${o}`;
    const wholeKeys = new Set(Array.from(whole.hashes, (h, i) => key(h, whole.offsets[i] ?? 0)));
    let shared = 0;
    for (let i = 0; i < streamed.count; i++)
      if (wholeKeys.has(key(streamed.hashes[i] ?? 0, streamed.offsets[i] ?? 0))) shared++;
    expect(shared / whole.count).toBeGreaterThan(0.97);
    expect(streamed.count / whole.count).toBeGreaterThan(0.97);
    expect(streamed.count / whole.count).toBeLessThan(1.03);
  });

  it("analyses only the first maxFrames frames of a preset that caps them", () => {
    const x = music(300, rate, 7);
    const whole = fingerprint(x, rate, SPEC_PRESET).hashes;
    const fp = createStreamingFingerprinter(SPEC_PRESET);
    for (const c of chunks(x)) fp.push(c);
    const streamed = fp.finish();
    expect(Array.from(streamed.hashes)).toEqual(Array.from(whole.hashes));
  });
});

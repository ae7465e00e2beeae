import { describe, expect, it } from "vitest";
import { demoSeconds, hashString, planTrack, synthesizeTrack } from "./synth.js";

describe("demo synthesizer", () => {
  it("gives each title its own tempo, key, chords and sound, 30 to 60 seconds long", () => {
    const titles = Array.from({ length: 40 }, (_, i) => `Song ${i}`);
    const plans = titles.map((t) => planTrack(hashString(t), demoSeconds(hashString(t)), "Pop"));
    expect(new Set(plans.map((p) => p.bpm)).size).toBeGreaterThan(10);
    expect(new Set(plans.map((p) => p.rootMidi)).size).toBeGreaterThan(6);
    expect(new Set(plans.map((p) => p.lead)).size).toBeGreaterThan(2);
    for (const t of titles) {
      const s = demoSeconds(hashString(t));
      expect(s).toBeGreaterThanOrEqual(30);
      expect(s).toBeLessThanOrEqual(60);
    }
    // Genres shape the style: electronic is faster than rap.
    const bpm = (g: string) => planTrack(hashString("x"), 40, g).bpm;
    expect(bpm("Electronic")).toBeGreaterThan(bpm("Rap"));
  });

  it("renders the same audio for the same seed, different audio for another, within -1..1", () => {
    const a = synthesizeTrack(hashString("A"), 30, 11_025, "Rock");
    expect(a).toHaveLength(30 * 11_025);
    expect(synthesizeTrack(hashString("A"), 30, 11_025, "Rock")).toEqual(a);
    const b = synthesizeTrack(hashString("B"), 30, 11_025, "Rock");
    let diff = 0;
    let peak = 0;
    let loud = 0;
    for (let i = 0; i < a.length; i++) {
      diff += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
      peak = Math.max(peak, Math.abs(a[i] ?? 0));
      if (Math.abs(a[i] ?? 0) > 0.01) loud++;
    }
    expect(diff / a.length).toBeGreaterThan(0.01);
    expect(peak).toBeLessThanOrEqual(1);
    expect(peak).toBeGreaterThan(0.5);
    expect(loud / a.length).toBeGreaterThan(0.5);
  });
});

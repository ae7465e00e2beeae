// Signals synthesised for the unit tests (deterministic: every generator takes a seed). Not part of the API.
import { seededRandom } from "@unheard/shared";

/** A seeded uniform generator in [0, 1) (mulberry32), the one the demo audio uses. */
export const seeded = seededRandom;

/** A sine of `frequency` Hz and `amplitude`. */
export function tone(frequency: number, seconds: number, sampleRate: number, amplitude = 1): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

/** A linear chirp from `f0` to `f1` Hz. */
export function chirp(f0: number, f1: number, seconds: number, sampleRate: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const k = (f1 - f0) / seconds;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    out[i] = amplitude * Math.sin(2 * Math.PI * (f0 * t + (k * t * t) / 2));
  }
  return out;
}

/** Uniform white noise of the given peak amplitude. */
export function whiteNoise(seconds: number, sampleRate: number, seed: number, amplitude = 0.5): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * (2 * random() - 1);
  return out;
}

/** Windowed-sinc FIR low-pass (Blackman, odd length), applied directly: slow but exact enough for tests. */
export function lowPass(x: Float32Array, cutoffHz: number, sampleRate: number, taps = 255): Float32Array {
  const fc = cutoffHz / sampleRate;
  const h = new Float64Array(taps);
  const m = (taps - 1) / 2;
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const t = i - m;
    const sinc = t === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * t) / (Math.PI * t);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (taps - 1));
    h[i] = sinc * w;
    sum += sinc * w;
  }
  const out = new Float32Array(x.length);
  for (let n = 0; n < x.length; n++) {
    let acc = 0;
    for (let i = 0; i < taps; i++) {
      const k = n + m - i;
      if (k >= 0 && k < x.length) acc += (h[i] as number) * (x[k] as number);
    }
    out[n] = acc / sum;
  }
  return out;
}

/**
 * A synthetic "track": overlapping notes at random pitches (harmonic tones with attack/decay envelopes), like a
 * simple piece of music, plus a little noise. Different seeds give different tracks.
 */
export function randomNotesTrack(seconds: number, sampleRate: number, seed: number): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  let t = 0;
  while (t < seconds) {
    const voices = 1 + Math.floor(random() * 3);
    const duration = 0.12 + random() * 0.4;
    for (let v = 0; v < voices; v++) {
      const midi = 45 + Math.floor(random() * 36); // 110 Hz .. 880 Hz fundamentals
      const f0 = 440 * 2 ** ((midi - 69) / 12);
      const amp = 0.08 + random() * 0.12;
      const start = Math.round(t * sampleRate);
      const length = Math.round(duration * sampleRate);
      // Four harmonics as sines by recurrence (s[n] = 2 cos(w) s[n-1] - s[n-2]): far cheaper than Math.sin.
      const k = [1, 2, 3, 4].map((h) => 2 * Math.cos((2 * Math.PI * f0 * h) / sampleRate));
      const prev = [1, 2, 3, 4].map((h) => -Math.sin((2 * Math.PI * f0 * h) / sampleRate));
      const cur = [0, 0, 0, 0];
      const decay = Math.exp(-4 / sampleRate);
      let env = 1;
      for (let i = 0; i < length && start + i < out.length; i++) {
        let s = 0;
        for (let h = 0; h < 4; h++) {
          const next = (k[h] as number) * (cur[h] as number) - (prev[h] as number);
          prev[h] = cur[h] as number;
          cur[h] = next;
          s += next / (h + 1);
        }
        env *= decay;
        const attack = Math.min(1, i / (0.01 * sampleRate));
        out[start + i] = (out[start + i] as number) + amp * attack * env * s;
      }
    }
    t += duration * (0.5 + random() * 0.5);
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + 0.002 * (2 * random() - 1);
  return out;
}

/** Add white Gaussian-like noise at `snrDb` relative to the signal's RMS. */
export function addNoise(x: Float32Array, snrDb: number, seed: number): Float32Array {
  const random = seeded(seed);
  let power = 0;
  for (let i = 0; i < x.length; i++) power += (x[i] as number) ** 2;
  const sigma = Math.sqrt(power / x.length) * 10 ** (-snrDb / 20);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    // Sum of uniforms: close enough to Gaussian for a test.
    let g = 0;
    for (let k = 0; k < 4; k++) g += random() - 0.5;
    out[i] = (x[i] as number) + sigma * g * Math.sqrt(3);
  }
  return out;
}

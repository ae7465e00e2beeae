import FFT from "fft.js";
import { seeded } from "../../packages/fingerprint/src/test-signals";

/**
 * A small room's impulse response at `sampleRate`: the direct sound, a dozen early reflections off walls 1.5-6 m
 * away (delays and gains from the path lengths), then a diffuse tail of decaying noise with reverberation time
 * `rt60` seconds, scaled so the reverberant energy is `drrDb` below the direct sound (a phone across a room).
 */
export function roomImpulse(sampleRate: number, rt60 = 0.6, drrDb = -3, seed = 11): Float32Array {
  const rand = seeded(seed);
  const n = Math.round(rt60 * sampleRate);
  const h = new Float32Array(n);
  h[0] = 1;
  const speedOfSound = 343;
  for (let k = 0; k < 12; k++) {
    const extra = 1.5 + rand() * 4.5; // metres of extra path
    const at = Math.round((extra / speedOfSound) * sampleRate);
    if (at < n) h[at] = (h[at] as number) + ((rand() < 0.5 ? -1 : 1) * 0.8) / (1 + extra);
  }
  const tail = new Float32Array(n);
  let energy = 0;
  const start = Math.round(0.02 * sampleRate);
  for (let i = start; i < n; i++) {
    // Uniform noise is enough for a diffuse tail; the envelope makes it decay by 60 dB over rt60.
    tail[i] = (rand() * 2 - 1) * Math.exp((-6.9 * i) / n);
    energy += (tail[i] as number) ** 2;
  }
  const gain = Math.sqrt(10 ** (-drrDb / 10) / energy);
  for (let i = start; i < n; i++) h[i] = (h[i] as number) + (tail[i] as number) * gain;
  return h;
}

/** Linear convolution of a signal with an impulse response (one FFT of the padded length), normalised to peak 0.9. */
export function convolve(x: Float32Array, h: Float32Array): Float32Array {
  let size = 1;
  while (size < x.length + h.length) size *= 2;
  const fft = new FFT(size);
  const pad = (a: Float32Array) => {
    const out = new Array<number>(size).fill(0);
    for (let i = 0; i < a.length; i++) out[i] = a[i] as number;
    return out;
  };
  const X = fft.createComplexArray() as number[];
  const H = fft.createComplexArray() as number[];
  fft.realTransform(X, pad(x));
  fft.completeSpectrum(X);
  fft.realTransform(H, pad(h));
  fft.completeSpectrum(H);
  const Y = fft.createComplexArray() as number[];
  for (let k = 0; k < size; k++) {
    const [a, b, c, d] = [X[2 * k] as number, X[2 * k + 1] as number, H[2 * k] as number, H[2 * k + 1] as number];
    Y[2 * k] = a * c - b * d;
    Y[2 * k + 1] = a * d + b * c;
  }
  const y = fft.createComplexArray() as number[];
  fft.inverseTransform(y, Y);
  const out = new Float32Array(x.length);
  let peak = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = y[2 * i] as number;
    peak = Math.max(peak, Math.abs(out[i] as number));
  }
  for (let i = 0; i < out.length; i++) out[i] = ((out[i] as number) * 0.9) / (peak || 1);
  return out;
}

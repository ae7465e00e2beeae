/** Deterministic PRNG (mulberry32), so demo audio is the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable number from a string (FNV-1a). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const SCALE = [0, 2, 4, 7, 9, 12, 14, 16]; // major pentatonic, two octaves

/** A short synthesized tune (lead, bass, hats) unique to `seed`: real audio for the demo songs. */
export function synthesizeTrack(seed: number, seconds: number, sampleRate: number): Float32Array {
  const rand = rng(seed);
  const out = new Float32Array(Math.floor(seconds * sampleRate));
  const bpm = 84 + Math.floor(rand() * 60);
  const beat = (60 / bpm) * sampleRate;
  const root = 196 * 2 ** (Math.floor(rand() * 7) / 12);
  const melody = Array.from({ length: 16 }, () => SCALE[Math.floor(rand() * SCALE.length)] ?? 0);
  const bass = Array.from({ length: 4 }, () => [0, 5, 7, 9][Math.floor(rand() * 4)] ?? 0);
  const noise = rng(seed ^ 0x5bd1e995);
  for (let i = 0; i < out.length; i++) {
    const b = i / beat;
    const step = Math.floor(b * 2); // eighth notes
    const inStep = b * 2 - step;
    const note = melody[step % melody.length] ?? 0;
    const f = root * 2 ** (note / 12);
    const env = Math.exp(-4 * inStep);
    const t = i / sampleRate;
    const lead = 0.32 * env * (Math.sin(2 * Math.PI * f * t) + 0.35 * Math.sin(4 * Math.PI * f * t));
    const bassNote = bass[Math.floor(b / 4) % bass.length] ?? 0;
    const fb = (root / 2) * 2 ** (bassNote / 12);
    const bassV = 0.22 * Math.sin(2 * Math.PI * fb * t);
    const hat = inStep < 0.05 && step % 2 === 1 ? 0.08 * (noise() * 2 - 1) : 0;
    // Gentle fade in and out.
    const fade = Math.min(1, t / 0.5, (seconds - t) / 0.8);
    out[i] = Math.max(-1, Math.min(1, (lead + bassV + hat) * fade));
  }
  return out;
}

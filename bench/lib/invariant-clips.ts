// Clips of bench:invariant: positions drawn with a seeded generator in the real corpus (bench/lib/scale-corpus.ts,
// mono PCM at the recognition page's rate), cut and transformed with ffmpeg (bench/lib/transforms.ts), then white
// noise. The same positions in every condition; unknown music is cut from the held-out tracks.

import { createRandom } from "./random.js";
import { type Corpus, catalogueOf, heldOutIndexes } from "./scale-corpus.js";
import { applyTransform, sourceSecondsFor, TRANSFORMS, type Transform } from "./transforms.js";

/** A condition: how a clip is made from its source, and the true factors a match should report. */
export type InvariantCondition = {
  name: string;
  /** ffmpeg transform of the source (null: the clip as it is). */
  transform: Transform | null;
  /** White noise after the transform, dB below the clip's RMS. */
  snrDb: number;
  /** Clip tempo relative to the song (1.1 = sped up 10%) and pitch shift (semitones), as matchInvariant reports them. */
  tempo: number;
  semitones: number;
  /** Unknown music: clips of held-out tracks, whose right answer is no match. */
  unknown?: boolean;
  /** Also run at the synthetic catalogue sizes (the others run on the real corpus only). */
  atScale: boolean;
};

const semis = (ratio: number) => 12 * Math.log2(ratio);
const speed = (f: number, name: string): Transform => ({
  name,
  truth: { tempo: f, pitch: f },
  filter: (rate) => ["-af", `asetrate=${rate * f},aresample=${rate}`],
});
const pitch = (s: number): Transform => ({
  name: `pitch ${s > 0 ? "+" : ""}${s} st`,
  truth: { tempo: 1, pitch: 2 ** (s / 12) },
  filter: () => ["-af", `rubberband=pitch=${2 ** (s / 12)}`],
});
const stretch = (f: number): Transform => ({
  name: `time-stretch x${f.toFixed(2)}`,
  truth: { tempo: f, pitch: 1 },
  filter: () => ["-af", `rubberband=tempo=${f}`],
});
const named = (prefix: string): Transform => {
  const t = TRANSFORMS.find((x) => x.name.startsWith(prefix));
  if (!t) throw new Error(`no transform ${prefix}`);
  return t;
};

/** The conditions of the table and of bench:fingerprint's transformed ones (10 dB SNR unless named). */
export function invariantConditions(): InvariantCondition[] {
  const c = (transform: Transform | null, atScale: boolean, name = transform?.name ?? "plain", snrDb = 10) => ({
    name: `${name}, ${snrDb} dB SNR`,
    transform,
    snrDb,
    tempo: transform?.truth.tempo ?? 1,
    semitones: semis(transform?.truth.pitch ?? 1),
    atScale,
  });
  return [
    c(null, true),
    c(null, false, "noisy", 0),
    c(speed(1.1, "sped up x1.10"), false),
    c(speed(1.15, "sped up x1.15"), true),
    c(speed(0.9, "slowed x0.90"), false),
    c(speed(0.85, "slowed x0.85"), true),
    c(pitch(2), false),
    c(pitch(-2), true),
    c(stretch(1.15), false),
    c(stretch(0.85), false),
    c(named("slowed x0.85 + reverb RT60 0.5"), true),
    c(named("slowed x0.85 + reverb RT60 1.0"), false),
    c(named("room RT60 0.5"), false),
    c(named("room RT60 1.0"), false),
    { ...c(null, true, "unknown music"), unknown: true },
  ];
}

/** Where a clip comes from: a corpus track and a start (samples at the corpus rate). */
export type ClipSpec = { track: number; start: number; seconds: number; seed: number; unknown: boolean };

/**
 * `perLength` positions for each clip length in catalogue tracks and as many in held-out ones, drawn uniformly over
 * tracks long enough for the fastest transform's source, then uniformly within the track.
 */
export function drawClips(corpus: Corpus, lengths: number[], perLength: number, seed: number): ClipSpec[] {
  const random = createRandom(seed);
  const catalogue = catalogueOf(corpus).indexes;
  const held = [...heldOutIndexes(corpus)];
  const out: ClipSpec[] = [];
  for (const seconds of lengths) {
    const need = sourceSecondsFor(seconds) + 0.5;
    for (const unknown of [false, true]) {
      const pool = (unknown ? held : catalogue).filter((i) => (corpus.tracks[i]?.seconds ?? 0) >= need);
      for (let q = 0; q < perLength; q++) {
        const track = pool[random.int(pool.length)] as number;
        const t = corpus.tracks[track] as Corpus["tracks"][number];
        const rate = t.pcm.length / t.seconds;
        let start = random.int(Math.floor(t.pcm.length - need * rate));
        // Near-silence is redrawn (no method recognises it), as bench:fingerprint does.
        for (let tries = 0; tries < 50 && peak(t.pcm, start, Math.round(seconds * rate)) < 300; tries++)
          start = random.int(Math.floor(t.pcm.length - need * rate));
        out.push({ track, start, seconds, seed: random.int(2 ** 31), unknown });
      }
    }
  }
  return out;
}

function peak(pcm: Int16Array, start: number, length: number): number {
  let p = 0;
  for (let i = start; i < start + length && i < pcm.length; i++) p = Math.max(p, Math.abs(pcm[i] as number));
  return p;
}

function rms(x: Float32Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] as number) ** 2;
  return Math.sqrt(s / Math.max(1, x.length));
}

/** The clip of `spec` under `condition`, at the corpus rate. */
export function makeClip(corpus: Corpus, spec: ClipSpec, condition: InvariantCondition, rate: number): Float32Array {
  const t = corpus.tracks[spec.track] as Corpus["tracks"][number];
  const n = Math.round(sourceSecondsFor(spec.seconds) * rate);
  const source = Float32Array.from(t.pcm.subarray(spec.start, spec.start + n), (v) => v / 32768);
  const out = condition.transform ? applyTransform(source, rate, condition.transform) : source;
  const clip = out.slice(0, Math.round(spec.seconds * rate));
  const random = createRandom(spec.seed + 104729);
  const sigma = rms(clip) * 10 ** (-condition.snrDb / 20);
  for (let i = 0; i < clip.length; i++) clip[i] = (clip[i] as number) + sigma * random.gaussian();
  return clip;
}

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Warp } from "@unheard/fingerprint";
import { createRandom } from "./random.js";

/**
 * The transformed-query conditions of issue 17, each made with Debian's ffmpeg (asetrate for speed edits, the
 * rubberband filter for pitch shifts and time-stretches, afir for reverb, biquads for a phone speaker, libmp3lame).
 */
export type Transform = {
  name: string;
  /** How the output relates to the source (see `Warp`); the identity for the non-geometric ones. */
  truth: Warp;
  /** ffmpeg arguments between the input and the output (the IR file is input 1 when `ir` is set). */
  filter: (rate: number) => string[];
  /** Convolve with a room's impulse response of this RT60 (s), direct-to-reverberant ratio 0 dB (input 1). */
  ir?: { rt60: number };
  /** White noise at this SNR instead of the benchmark's transform SNR (10 dB). */
  snrDb?: number;
  /** Encode to MP3 at this bitrate and decode back, instead of filtering. */
  mp3Kbps?: number;
};

const speed = (f: number): Transform => ({
  name: `speed x${f.toFixed(2)}`,
  truth: { tempo: f, pitch: f },
  filter: (rate) => ["-af", `asetrate=${rate * f},aresample=${rate}`],
});
const pitch = (semis: number): Transform => ({
  name: `pitch ${semis > 0 ? "+" : ""}${semis} st`,
  truth: { tempo: 1, pitch: 2 ** (semis / 12) },
  filter: () => ["-af", `rubberband=pitch=${2 ** (semis / 12)}`],
});
const tempo = (f: number): Transform => ({
  name: `tempo x${f.toFixed(2)}`,
  truth: { tempo: f, pitch: 1 },
  filter: () => ["-af", `rubberband=tempo=${f}`],
});

/** A room: reverberation of RT60 `rt60` seconds (issue 30 asks for 0.5 and 1 s). */
const room = (rt60: number): Transform => ({
  name: `room RT60 ${rt60.toFixed(1)} s`,
  truth: { tempo: 1, pitch: 1 },
  filter: () => ["-filter_complex", "afir=gtype=none"],
  ir: { rt60 },
});
/** The "slowed + reverb" edit of short-video apps: speed x0.85 (tempo and pitch), then a room of RT60 `rt60`. */
const slowedReverb = (rt60: number): Transform => ({
  name: `slowed x0.85 + reverb RT60 ${rt60.toFixed(1)} s`,
  truth: { tempo: 0.85, pitch: 0.85 },
  filter: (rate) => ["-filter_complex", `[0:a]asetrate=${rate * 0.85},aresample=${rate}[s];[s][1:a]afir=gtype=none`],
  ir: { rt60 },
});

/** Every condition, for 5 s clips at 10 dB SNR (unless one says otherwise) in the benchmark. */
export const TRANSFORMS: Transform[] = [
  speed(0.85),
  speed(0.92),
  speed(1.08),
  speed(1.15),
  pitch(-2),
  pitch(-1),
  pitch(1),
  pitch(2),
  tempo(0.9),
  tempo(0.95),
  tempo(1.05),
  tempo(1.1),
  room(0.5),
  room(1),
  slowedReverb(0.5),
  slowedReverb(1),
  { ...speed(1.1), name: "sped up x1.10", snrDb: 5 },
  { ...speed(0.9), name: "slowed x0.90", snrDb: 5 },
  { ...speed(1.1), name: "sped up x1.10", snrDb: 0 },
  {
    name: "phone band 300-3400 Hz",
    truth: { tempo: 1, pitch: 1 },
    filter: () => ["-af", "highpass=f=300,highpass=f=300,lowpass=f=3400,lowpass=f=3400"],
  },
  { name: "MP3 64 kbps", truth: { tempo: 1, pitch: 1 }, filter: () => [], mp3Kbps: 64 },
];

/** Source seconds a transformed clip of `seconds` needs (the fastest speed-up reads 15% more, plus filter tails). */
export const sourceSecondsFor = (seconds: number) => seconds * 1.2 + 1;

/**
 * A hall-like impulse response: the direct sound, then exponentially decaying noise with RT60 `rt60` whose energy
 * equals the direct sound's (direct-to-reverberant ratio 0 dB), starting after 10 ms.
 */
export function reverbImpulse(rate: number, rt60 = 1, seed = 3): Float32Array {
  const random = createRandom(seed);
  const n = Math.round(rt60 * rate);
  const h = new Float32Array(n);
  const gap = Math.round(0.01 * rate);
  let energy = 0;
  for (let i = gap; i < n; i++) {
    h[i] = random.gaussian() * Math.exp((-6.9 * i) / n);
    energy += (h[i] as number) ** 2;
  }
  const g = 1 / Math.sqrt(energy);
  for (let i = gap; i < n; i++) h[i] = (h[i] as number) * g;
  h[0] = 1;
  return h;
}

const f32 = (x: Float32Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
const fromBuffer = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));

/** Apply a transform to mono audio with ffmpeg (raw float32 in and out at `rate`). */
export function applyTransform(x: Float32Array, rate: number, t: Transform): Float32Array {
  const raw = ["-f", "f32le", "-ar", String(rate), "-ac", "1"];
  const quiet = ["-hide_banner", "-loglevel", "error"];
  const dir = mkdtempSync(join(tmpdir(), "unheard-transform-"));
  try {
    if (t.mp3Kbps) {
      const enc = spawnSync(
        "ffmpeg",
        [...quiet, ...raw, "-i", "pipe:0", "-c:a", "libmp3lame", "-b:a", `${t.mp3Kbps}k`, "-f", "mp3", "pipe:1"],
        {
          input: f32(x),
          maxBuffer: 1 << 28,
        },
      );
      if (enc.status !== 0) throw new Error(`ffmpeg mp3 encode failed: ${enc.stderr}`);
      const dec = spawnSync("ffmpeg", [...quiet, "-f", "mp3", "-i", "pipe:0", ...raw, "pipe:1"], {
        input: enc.stdout,
        maxBuffer: 1 << 28,
      });
      if (dec.status !== 0) throw new Error(`ffmpeg mp3 decode failed: ${dec.stderr}`);
      return fromBuffer(dec.stdout);
    }
    const inputs = [...raw, "-i", "pipe:0"];
    if (t.ir) {
      const file = join(dir, "ir.f32");
      writeFileSync(file, f32(reverbImpulse(rate, t.ir.rt60)));
      inputs.push(...raw, "-i", file);
    }
    const r = spawnSync("ffmpeg", [...quiet, ...inputs, ...t.filter(rate), ...raw, "pipe:1"], {
      input: f32(x),
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`ffmpeg ${t.name} failed: ${r.stderr}`);
    return fromBuffer(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether this machine's ffmpeg has what the transforms need; the reason when not. */
export function transformsUnavailable(): string | null {
  const r = spawnSync("ffmpeg", ["-hide_banner", "-filters"], { encoding: "utf8" });
  if (r.status !== 0) return "ffmpeg is not installed (apt-get install ffmpeg)";
  for (const f of ["rubberband", "afir", "asetrate"])
    if (!r.stdout.includes(` ${f} `)) return `ffmpeg lacks the ${f} filter`;
  return null;
}

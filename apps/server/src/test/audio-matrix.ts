import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Mp3Encoder } from "@breezystack/lamejs";
import { seeded } from "@unheard/fingerprint/test-signals";

/** The reference signal: 12 s of a stereo melody (notes with harmonics, a bass line), below 4 kHz. */
export const REFERENCE_SECONDS = 12;

type Note = { f: number; bass: number };

const NOTES: Note[] = (() => {
  const rand = seeded(0x5eed);
  return Array.from({ length: REFERENCE_SECONDS * 4 }, () => ({
    f: 220 * 2 ** (Math.floor(rand() * 24) / 12),
    bass: 55 * 2 ** (Math.floor(rand() * 12) / 12),
  }));
})();

/** The reference at time `t` (seconds) on channel 0 (left) or 1 (right). */
function referenceAt(t: number, channel: 0 | 1): number {
  const note = NOTES[Math.min(NOTES.length - 1, Math.floor(t * 4))] as Note;
  const inNote = t * 4 - Math.floor(t * 4);
  const env = Math.exp(-3 * inNote) * Math.min(1, inNote * 200);
  const w = 2 * Math.PI * note.f * t;
  const lead = channel === 0 ? Math.sin(w) + 0.4 * Math.sin(2 * w) : Math.sin(w) + 0.3 * Math.sin(3 * w);
  const fade = Math.min(1, t / 0.05, (REFERENCE_SECONDS - t) / 0.05);
  return fade * (0.35 * env * lead + 0.2 * Math.sin(2 * Math.PI * note.bass * t));
}

/** The reference's mono mix (mean of both channels) sampled at `rate`. */
export function referenceMono(rate: number): Float32Array {
  const out = new Float32Array(Math.round(REFERENCE_SECONDS * rate));
  for (let i = 0; i < out.length; i++) out[i] = (referenceAt(i / rate, 0) + referenceAt(i / rate, 1)) / 2;
  return out;
}

/** Interleaved 16-bit stereo PCM of the reference at `rate`. */
function referencePcm16(rate: number, channels: 1 | 2): Int16Array[] {
  const n = Math.round(REFERENCE_SECONDS * rate);
  const out = Array.from({ length: channels }, () => new Int16Array(n));
  for (let i = 0; i < n; i++) {
    const l = referenceAt(i / rate, 0);
    const r = referenceAt(i / rate, 1);
    if (channels === 1) (out[0] as Int16Array)[i] = Math.round(((l + r) / 2) * 32767);
    else {
      (out[0] as Int16Array)[i] = Math.round(l * 32767);
      (out[1] as Int16Array)[i] = Math.round(r * 32767);
    }
  }
  return out;
}

/** One file of the matrix: how it is made and what decoding it must give. */
export type MatrixEntry = { name: string; file: string; sampleRate: number; channels: number };

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });

/** Fail with the install line when the encoders are missing (CI and the README install them). */
export function requireEncoders(): void {
  for (const tool of ["ffmpeg", "lame"]) {
    try {
      run(tool, [tool === "ffmpeg" ? "-version" : "--version"]);
    } catch {
      throw new Error(`${tool} is needed for the audio format matrix: apt-get install -y ffmpeg lame`);
    }
  }
}

/** Encode the reference with lamejs (pure JavaScript LAME, no LAME tag: the decoder must trim its delay). */
function lamejs(file: string, rate: number, channels: 1 | 2, kbps: number): void {
  const pcm = referencePcm16(rate, channels);
  const enc = new Mp3Encoder(channels, rate, kbps);
  const parts: Uint8Array[] = [];
  const left = pcm[0] as Int16Array;
  for (let i = 0; i < left.length; i += 1152) {
    const l = left.subarray(i, i + 1152);
    parts.push(
      channels === 2 ? enc.encodeBuffer(l, (pcm[1] as Int16Array).subarray(i, i + 1152)) : enc.encodeBuffer(l),
    );
  }
  parts.push(enc.flush());
  writeFileSync(file, Buffer.concat(parts.map((p) => Buffer.from(p))));
}

/** Write the reference in every format people share, with ffmpeg, lame and lamejs; returns what each must decode to. */
export function makeMatrix(dir: string): MatrixEntry[] {
  requireEncoders();
  const raw = path.join(dir, "reference.f32");
  const n = Math.round(REFERENCE_SECONDS * 48_000);
  const interleaved = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    interleaved[2 * i] = referenceAt(i / 48_000, 0);
    interleaved[2 * i + 1] = referenceAt(i / 48_000, 1);
  }
  writeFileSync(raw, Buffer.from(interleaved.buffer));
  const cover = path.join(dir, "cover.png");
  run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=500x500", "-frames:v", "1", cover]);
  const entries: MatrixEntry[] = [];
  const ff = (name: string, sampleRate: number, channels: number, args: string[], extraInputs: string[] = []) => {
    const file = path.join(dir, name);
    run("ffmpeg", [
      "-v",
      "error",
      "-y",
      ...["-f", "f32le", "-ar", "48000", "-ac", "2", "-i", raw],
      ...extraInputs,
      ...["-ar", String(sampleRate), "-ac", String(channels)],
      ...args,
      file,
    ]);
    entries.push({ name, file, sampleRate, channels });
  };
  ff("mp3-cbr-320k-44k-stereo.mp3", 44_100, 2, ["-c:a", "libmp3lame", "-b:a", "320k"]);
  ff("mp3-cbr-64k-44k-stereo.mp3", 44_100, 2, ["-c:a", "libmp3lame", "-b:a", "64k"]);
  ff("mp3-vbr-v2-48k-stereo.mp3", 48_000, 2, ["-c:a", "libmp3lame", "-q:a", "2"]);
  ff(
    "mp3-128k-id3v2-album-art.mp3",
    44_100,
    2,
    [
      ...["-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "128k", "-c:v", "mjpeg"],
      ...["-id3v2_version", "3", "-metadata", "title=Leak (v2)", "-metadata", "artist=Someone"],
      ...["-metadata:s:v", "comment=Cover (front)", "-disposition:v", "attached_pic"],
    ],
    ["-i", cover],
  );
  ff("mp3-mpeg2-64k-22k-stereo.mp3", 22_050, 2, ["-c:a", "libmp3lame", "-b:a", "64k"]);
  ff("mp3-mpeg2.5-32k-11k-mono.mp3", 11_025, 1, ["-c:a", "libmp3lame", "-b:a", "32k"]);
  ff("aac-128k-44k-stereo.m4a", 44_100, 2, ["-c:a", "aac", "-b:a", "128k"]);
  ff("aac-64k-22k-mono.m4a", 22_050, 1, ["-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart"]);
  ff("aac-adts-96k-44k-stereo.aac", 44_100, 2, ["-c:a", "aac", "-b:a", "96k", "-f", "adts"]);
  ff("flac-16bit-44k-stereo.flac", 44_100, 2, ["-c:a", "flac", "-sample_fmt", "s16"]);
  ff("flac-24bit-48k-stereo.flac", 48_000, 2, ["-c:a", "flac", "-sample_fmt", "s32", "-bits_per_raw_sample", "24"]);
  ff("vorbis-q4-44k-stereo.ogg", 44_100, 2, ["-c:a", "libvorbis", "-q:a", "4"]);
  ff("opus-96k-48k-stereo.opus", 48_000, 2, ["-c:a", "libopus", "-b:a", "96k"]);
  ff("opus-webm-64k-48k-mono.webm", 48_000, 1, ["-c:a", "libopus", "-b:a", "64k", "-f", "webm"]);
  ff("wav-16bit-44k-stereo.wav", 44_100, 2, ["-c:a", "pcm_s16le"]);
  ff("wav-16bit-48k-mono.wav", 48_000, 1, ["-c:a", "pcm_s16le"]);
  ff("wav-24bit-48k-stereo.wav", 48_000, 2, ["-c:a", "pcm_s24le"]);
  ff("wav-24bit-44k-mono.wav", 44_100, 1, ["-c:a", "pcm_s24le"]);
  ff("wav-float32-44k-stereo.wav", 44_100, 2, ["-c:a", "pcm_f32le"]);
  // The lame command line (MPEG-2 mono, and VBR with an ID3v2 tag), from a 16-bit WAV of the reference.
  const wav = path.join(dir, "wav-16bit-44k-stereo.wav");
  const lame = (name: string, sampleRate: number, channels: number, args: string[]) => {
    const file = path.join(dir, name);
    run("lame", ["--quiet", ...args, wav, file]);
    entries.push({ name, file, sampleRate, channels });
  };
  lame("lame-mpeg2-64k-22k-mono.mp3", 22_050, 1, ["-b", "64", "--resample", "22.05", "-m", "m"]);
  lame("lame-vbr-v0-44k-stereo-id3.mp3", 44_100, 2, ["-V", "0", "--add-id3v2", "--tt", "Leak", "--ta", "Someone"]);
  // lamejs writes no LAME tag: the decoder has to know the encoder delay on its own.
  const js = (name: string, sampleRate: number, channels: 1 | 2, kbps: number) => {
    const file = path.join(dir, name);
    lamejs(file, sampleRate, channels, kbps);
    entries.push({ name, file, sampleRate, channels });
  };
  js("lamejs-mpeg2-64k-22k-mono.mp3", 22_050, 1, 64);
  js("lamejs-mpeg2-64k-22k-stereo.mp3", 22_050, 2, 64);
  js("lamejs-mpeg2-32k-16k-mono.mp3", 16_000, 1, 32);
  js("lamejs-128k-44k-stereo.mp3", 44_100, 2, 128);
  return entries;
}

/** A copy of `file` cut to `fraction` of its bytes. */
export function truncated(file: string, fraction: number, out: string): string {
  const data = readFileSync(file);
  writeFileSync(out, data.subarray(0, Math.floor(data.length * fraction)));
  return out;
}

/**
 * Best normalised cross-correlation of `decoded` against `reference` over lags of up to `maxLag` samples, on a
 * window from the middle (codec delays shift the signal a little; a wrong decode correlates near 0).
 */
export function bestCorrelation(decoded: Float32Array, reference: Float32Array, rate: number, maxLag = 2048): number {
  const start = Math.floor(reference.length / 2 - rate / 2);
  const len = rate;
  let refEnergy = 0;
  for (let i = 0; i < len; i++) refEnergy += (reference[start + i] ?? 0) ** 2;
  let best = 0;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let dot = 0;
    let energy = 0;
    for (let i = 0; i < len; i++) {
      const d = decoded[start + lag + i] ?? 0;
      dot += d * (reference[start + i] ?? 0);
      energy += d * d;
    }
    const c = energy > 0 ? dot / Math.sqrt(energy * refEnergy) : 0;
    if (c > best) best = c;
  }
  return best;
}

// Test audio for the browser tests, the one place specs and helpers get it from. The WAV writer and the decoder are
// the server's, the signals the fingerprint package's test signals; this module only adds what the browser tests
// need on top: several channels, noisy excerpts, and a clip that is new every time.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { resample } from "@unheard/fingerprint";
import { decodeAudioFile, sniffAudio } from "../../apps/server/src/lib/audio";
import { encodeWav } from "../../apps/server/src/lib/wav";
import { addNoise, randomNotesTrack } from "../../packages/fingerprint/src/test-signals";

export { addNoise, randomNotesTrack };

/** Mono or multichannel PCM read from / written to a WAV file. */
export type Pcm = { sampleRate: number; channels: Float32Array[] };

/** Encode channels as a 16-bit PCM WAV (the server's mono writer over the interleaved samples). */
export function pcmWav({ sampleRate, channels }: Pcm): Buffer {
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const interleaved = new Float32Array(frames * count);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < count; c++) interleaved[i * count + c] = channels[c]?.[i] ?? 0;
  }
  const wav = encodeWav(interleaved, sampleRate);
  // The same bytes are a `count`-channel file once the format chunk says so: channels, byte rate, block align.
  wav.writeUInt16LE(count, 22);
  wav.writeUInt32LE(sampleRate * count * 2, 28);
  wav.writeUInt16LE(count * 2, 32);
  return wav;
}

/**
 * Decode a file in any format the server accepts (the demo songs are MP3, uploads often WAV) with the server's own
 * decoder: its mono mix at `sampleRate`.
 */
export async function decodeAudio(bytes: Buffer, sampleRate: number): Promise<Pcm> {
  const format = sniffAudio(bytes);
  if (!format) throw new Error("not audio the server decodes");
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-e2e-audio-"));
  const file = path.join(dir, `clip.${format.ext}`);
  try {
    writeFileSync(file, bytes);
    const { mono } = await decodeAudioFile(file, format, { monoRate: sampleRate });
    return { sampleRate, channels: [mono] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A real, decodable mono WAV of random notes, different on every call: the server refuses audio whose fingerprint
 * matches a song it already has, so every upload needs audio of its own.
 */
export function uniqueSongWav(seconds = 3, sampleRate = 22050): Buffer {
  const seed = Math.floor(Math.random() * 2 ** 32);
  return encodeWav(randomNotesTrack(seconds, sampleRate, seed), sampleRate);
}

/** `seconds` from the middle of a song with noise at `snrDb`, at `sampleRate`, mono (deterministic). */
export function noisyExcerpt(pcm: Pcm, seconds: number, snrDb: number, sampleRate: number): Pcm {
  const mono = pcm.channels[0] as Float32Array;
  const len = Math.min(mono.length, Math.round(seconds * pcm.sampleRate));
  const start = Math.floor((mono.length - len) / 2);
  const noisy = addNoise(mono.slice(start, start + len), snrDb, 7);
  return { sampleRate, channels: [resample(noisy, pcm.sampleRate, sampleRate)] };
}

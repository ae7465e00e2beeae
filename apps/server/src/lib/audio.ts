import { createReadStream } from "node:fs";
import { decodeChunked } from "audio-decode";
import audioType from "audio-type";

/** The audio formats we accept, by what their bytes say (never by file name). */
const FORMATS = {
  mp3: { mime: "audio/mpeg", ext: "mp3", decoder: "mp3" },
  wav: { mime: "audio/wav", ext: "wav", decoder: "wav" },
  oga: { mime: "audio/ogg", ext: "ogg", decoder: "oga" },
  opus: { mime: "audio/ogg; codecs=opus", ext: "opus", decoder: "opus" },
  flac: { mime: "audio/flac", ext: "flac", decoder: "flac" },
  m4a: { mime: "audio/mp4", ext: "m4a", decoder: "m4a" },
  aac: { mime: "audio/aac", ext: "aac", decoder: "aac" },
  webm: { mime: "audio/webm", ext: "webm", decoder: "webm" },
} as const;

/** A recognised audio format. */
export type AudioFormat = (typeof FORMATS)[keyof typeof FORMATS];

/** Identify an audio format from the first bytes of a file; undefined when it is not audio we accept. */
export function sniffAudio(head: Uint8Array): AudioFormat | undefined {
  const type = audioType(head) as keyof typeof FORMATS | undefined;
  return type && type in FORMATS ? FORMATS[type] : undefined;
}

/** What decoding a file tells us (spec §2 Upload: min, max, mean, silence ratio). */
export type AudioAnalysis = {
  durationSec: number;
  sampleRate: number;
  channels: number;
  stats: { min: number; max: number; mean: number; silenceRatio: number };
};

/** Spec §9: a sample is silent when its absolute value is under 0.01. */
export const SILENCE_LEVEL = 0.01;

/** Longest stretch kept as samples for fingerprinting; statistics still cover the whole file. */
export const MAX_SAMPLE_SECONDS = 20 * 60;

/** A decoded file: its measurements, and its mono samples (the first MAX_SAMPLE_SECONDS) for fingerprinting. */
export type DecodedAudio = AudioAnalysis & { mono: Float32Array };

/** Decode a whole file chunk by chunk and measure it; throws if it is not decodable audio. */
export async function decodeAudioFile(file: string, format: AudioFormat): Promise<DecodedAudio> {
  let sampleRate = 0;
  let channels = 0;
  let frames = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let silent = 0;
  const parts: Float32Array[] = [];
  let kept = 0;
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  for await (const chunk of decodeChunked(source, format.decoder)) {
    const data = chunk.channelData;
    if (data.length === 0 || !data[0]) continue;
    sampleRate ||= chunk.sampleRate;
    channels = Math.max(channels, data.length);
    const n = data[0].length;
    const limit = MAX_SAMPLE_SECONDS * sampleRate;
    const mono = kept < limit ? new Float32Array(Math.min(n, limit - kept)) : undefined;
    for (let i = 0; i < n; i++) {
      // Statistics of the mono mixdown, as the original page computed them.
      let v = 0;
      for (const ch of data) v += ch[i] ?? 0;
      v /= data.length;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      if (Math.abs(v) < SILENCE_LEVEL) silent++;
      if (mono && i < mono.length) mono[i] = v;
    }
    if (mono) {
      parts.push(mono);
      kept += mono.length;
    }
    frames += n;
  }
  if (frames === 0 || sampleRate <= 0) throw new Error("no audio frames decoded");
  const mono = new Float32Array(kept);
  let at = 0;
  for (const p of parts) {
    mono.set(p, at);
    at += p.length;
  }
  return {
    durationSec: frames / sampleRate,
    sampleRate,
    channels,
    stats: { min, max, mean: sum / frames, silenceRatio: silent / frames },
    mono,
  };
}

/** Decode and measure a file without keeping its samples. */
export async function analyzeAudioFile(file: string, format: AudioFormat): Promise<AudioAnalysis> {
  const { mono: _samples, ...analysis } = await decodeAudioFile(file, format);
  return analysis;
}

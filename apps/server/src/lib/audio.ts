import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createResampler, FINGERPRINT_SAMPLE_RATE } from "@unheard/fingerprint";
import { audioTooLongMessage, audioUnreadableMessage, MESSAGES } from "@unheard/shared";
import { decodeChunked } from "audio-decode";
import audioType from "audio-type";
import { AudioDecodeError } from "./audio-errors.js";
import { declaredLength } from "./audio-length.js";
import { decodeWav, type PcmChunk } from "./audio-wav.js";

export { AudioDecodeError } from "./audio-errors.js";

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

/** The extensions of the formats we read: a file named so says it is audio (issue 38). */
const AUDIO_EXTENSIONS = new Set([
  "mp3",
  "wav",
  "wave",
  "ogg",
  "oga",
  "opus",
  "flac",
  "m4a",
  "mp4",
  "aac",
  "webm",
  "weba",
]);

/**
 * The refusal of a file whose first bytes are no audio we read. A file named like audio (`song.mp3`) is damaged
 * or not what its name says: it is told that it could not be read as audio, not to upload the format it claims
 * to be (issue 38). Any other file is of a kind we do not take, and is told which kinds we do.
 */
export function unrecognisedAudioMessage(fileName: string | undefined): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(fileName ?? "")?.[1]?.toLowerCase();
  return ext && AUDIO_EXTENSIONS.has(ext) ? audioUnreadableMessage(ext) : MESSAGES.audioUnsupported;
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

/** The shortest audio accepted. */
const MIN_SECONDS = 0.5;

/** A file whose loudest sample stays under this (about -80 dBFS) holds no sound at all. */
const SILENT_PEAK = 1e-4;

/** Mono kept for matching, at the analysis rate: the first 20 minutes (26 MB at 5,512 Hz), whatever the file's length. */
export const MAX_SAMPLE_SECONDS = 20 * 60;

/** The longest audio accepted unless told (MAX_AUDIO_MINUTES): a 90-minute mix fits (decision 013). */
export const DEFAULT_MAX_AUDIO_MINUTES = 120;

/**
 * Issue 24: the fewest encoded bytes per second of sound any real file has (2 kbps; the lowest bitrates real
 * encoders use, 6 kbps Opus or 8 kbps MP3, are 3-4 times this). A file that decodes to longer than its size over
 * this is a decompression bomb (a 39 KB FLAC of CONSTANT subframes decodes to 68 minutes: 10 bytes per second).
 */
export const MIN_BYTES_PER_SECOND = 250;

/** Below this much sound, a file's bytes per second say nothing (tiny clips carry their headers). */
const PLAUSIBLE_GRACE_SECONDS = 30;

/**
 * The WASM decoders return what one input piece decodes to in one array: pieces are sized so that stays under
 * this many frames (about 23 s at 44.1 kHz, 4 MB a channel), within these bounds.
 */
const MAX_CHUNK_FRAMES = 1 << 20;
const PIECE_BYTES = { min: 256, first: 1024, max: 256 * 1024 };

/** Decoder delay (529) plus LAME's encoder delay (576): the lead-in an MP3 without a LAME tag decodes with. */
const MP3_UNTAGGED_DELAY = 529 + 576;

/** How much shorter than its headers promise a decode may be before the file counts as cut short. */
const TRUNCATION_TOLERANCE = { ratio: 0.02, seconds: 0.1 };

/** A decoded file: its measurements, and its mono mix at `monoRate` (the first MAX_SAMPLE_SECONDS). */
export type DecodedAudio = AudioAnalysis & { mono: Float32Array; monoRate: number };

/** Options of decodeAudioFile. */
export type DecodeOptions = {
  /** Rate of the kept mono and of `onMono` (default: the fingerprint's analysis rate). */
  monoRate?: number;
  /** Seconds of mono to keep (default MAX_SAMPLE_SECONDS); 0 keeps none. */
  keepSeconds?: number;
  /** Every stretch of mono at `monoRate`, in order, for consumers that stream the whole file (indexing). */
  onMono?: (samples: Float32Array) => void;
  /** The longest audio accepted, in seconds (default DEFAULT_MAX_AUDIO_MINUTES); the decode stops past it. */
  maxSeconds?: number;
};

/** The mean of the channels over samples [from, from + n). */
function mixdown(data: Float32Array[], from: number, n: number): Float32Array {
  const [a, b] = data as [Float32Array, Float32Array | undefined];
  if (data.length === 1) return a.slice(from, from + n);
  const mono = new Float32Array(n);
  if (data.length === 2 && b) {
    for (let i = 0; i < n; i++) mono[i] = ((a[from + i] as number) + (b[from + i] as number)) * 0.5;
    return mono;
  }
  for (const ch of data) for (let i = 0; i < n; i++) mono[i] = (mono[i] as number) + (ch[from + i] ?? 0);
  for (let i = 0; i < n; i++) mono[i] = (mono[i] as number) / data.length;
  return mono;
}

/** How big the next input piece may be: learnt from how many frames each piece decoded to (most per byte so far). */
type PieceSizer = { next: number; framesPerByte: number; last: number };

/** The file in pieces of the sizer's current size, each remembered as the last fed. */
async function* pieces(source: AsyncIterable<Buffer>, sizer: PieceSizer): AsyncGenerator<Buffer> {
  for await (const buf of source) {
    for (let at = 0; at < buf.length; ) {
      const piece = buf.subarray(at, at + sizer.next);
      at += piece.length;
      sizer.last = piece.length;
      yield piece;
    }
  }
}

/** After a piece decoded to `frames`: the next piece's size, so its decoded chunk stays under MAX_CHUNK_FRAMES. */
function learn(sizer: PieceSizer, frames: number): void {
  sizer.framesPerByte = Math.max(sizer.framesPerByte, frames / Math.max(1, sizer.last));
  const fits = sizer.framesPerByte > 0 ? Math.floor(MAX_CHUNK_FRAMES / sizer.framesPerByte) : sizer.next * 2;
  sizer.next = Math.min(PIECE_BYTES.max, Math.max(PIECE_BYTES.min, fits));
}

/**
 * The file's decoded chunks, by our WAV reader or the WASM decoders. A WASM decoder answers one input piece with
 * all it decodes to, so a bomb read in one 256 KB piece would come back as one array of gigabytes: it is fed small
 * pieces first, then pieces as large as keep each answer under MAX_CHUNK_FRAMES (issue 24).
 */
function decodeChunks(file: string, format: AudioFormat, sizer: PieceSizer): AsyncIterable<PcmChunk> {
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  return format.decoder === "wav" ? decodeWav(source) : decodeChunked(pieces(source, sizer), format.decoder);
}

/**
 * Decode a file chunk by chunk and measure it, holding at most one chunk of PCM plus the kept mono (decision 013).
 * Throws AudioDecodeError when the file is not decodable audio, ends before its headers say, or is silent; and
 * stops as soon as the sound decoded passes `maxSeconds` or what the file's size can plausibly hold (issue 24).
 */
export async function decodeAudioFile(
  file: string,
  format: AudioFormat,
  opts: DecodeOptions = {},
): Promise<DecodedAudio> {
  const { size } = await stat(file);
  if (size === 0) throw new AudioDecodeError("undecodable");
  const declared = await declaredLength(file, format.decoder, size);
  if (!declared.complete) throw new AudioDecodeError("truncated");
  const maxSeconds = opts.maxSeconds ?? DEFAULT_MAX_AUDIO_MINUTES * 60;
  // Headers promising more than is accepted: refused before any decoding (a shorter decode would be "truncated").
  if (declared.seconds !== null && declared.seconds > maxSeconds + 1)
    throw new AudioDecodeError("too_long", maxSeconds);
  const plausibleSeconds = Math.max(PLAUSIBLE_GRACE_SECONDS, size / MIN_BYTES_PER_SECOND);
  const sizer: PieceSizer = { next: PIECE_BYTES.first, framesPerByte: 0, last: 0 };
  const monoRate = opts.monoRate ?? FINGERPRINT_SAMPLE_RATE;
  let sampleRate = 0;
  let channels = 0;
  let frames = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let silent = 0;
  let skip = format.decoder === "mp3" && !declared.gapless ? MP3_UNTAGGED_DELAY : 0;
  let resampler: ReturnType<typeof createResampler> | undefined;
  const keepLimit = Math.floor((opts.keepSeconds ?? MAX_SAMPLE_SECONDS) * monoRate);
  const kept: Float32Array[] = [];
  let keptLength = 0;
  const emit = (x: Float32Array) => {
    if (x.length === 0) return;
    if (keptLength < keepLimit) {
      const part = x.subarray(0, keepLimit - keptLength);
      kept.push(part.slice());
      keptLength += part.length;
    }
    opts.onMono?.(x);
  };
  try {
    for await (const chunk of decodeChunks(file, format, sizer)) {
      const data = chunk.channelData;
      const first = data[0];
      if (!first || first.length === 0) continue;
      learn(sizer, first.length);
      if (!sampleRate) {
        sampleRate = chunk.sampleRate;
        resampler = createResampler(sampleRate, monoRate);
      }
      // Judged before the chunk is mixed, measured or resampled: past either ceiling, nothing more is decoded.
      const seconds = (frames + first.length) / sampleRate;
      if (seconds > maxSeconds + 1) throw new AudioDecodeError("too_long", maxSeconds);
      if (seconds > plausibleSeconds) throw new AudioDecodeError("implausible");
      channels = Math.max(channels, data.length);
      const from = Math.min(skip, first.length);
      skip -= from;
      const n = first.length - from;
      if (n <= 0) continue;
      const mono = mixdown(data, from, n);
      for (let i = 0; i < n; i++) {
        // Statistics of the mono mixdown, as the original page computed them.
        const v = mono[i] as number;
        if (v < min) min = v;
        if (v > max) max = v;
        sum += v;
        if (Math.abs(v) < SILENCE_LEVEL) silent++;
      }
      frames += n;
      // Past the kept stretch, with nobody streaming, the mono is only measured, never resampled.
      if (opts.onMono || keptLength < keepLimit) emit((resampler as ReturnType<typeof createResampler>).push(mono));
    }
  } catch (err) {
    if (err instanceof AudioDecodeError) throw err;
    throw new AudioDecodeError("undecodable");
  }
  if (frames === 0 || sampleRate <= 0 || !resampler) throw new AudioDecodeError("undecodable");
  emit(resampler.finish());
  const durationSec = frames / sampleRate;
  if (
    declared.seconds !== null &&
    durationSec < declared.seconds * (1 - TRUNCATION_TOLERANCE.ratio) - TRUNCATION_TOLERANCE.seconds
  ) {
    throw new AudioDecodeError("truncated");
  }
  // Under half a second is a fragment, not a song (and too short to be judged silent or not).
  if (durationSec < MIN_SECONDS) throw new AudioDecodeError("undecodable");
  if (Math.max(Math.abs(min), Math.abs(max)) < SILENT_PEAK) throw new AudioDecodeError("silent");
  const mono = new Float32Array(keptLength);
  let at = 0;
  for (const p of kept) {
    mono.set(p, at);
    at += p.length;
  }
  return {
    durationSec,
    sampleRate,
    channels,
    stats: { min, max, mean: sum / frames, silenceRatio: silent / frames },
    mono,
    monoRate,
  };
}

/** The user's message for a failed decode (any other error reads as undecodable). */
export function audioErrorMessage(err: unknown): string {
  if (!(err instanceof AudioDecodeError)) return MESSAGES.audioUndecodable;
  switch (err.reason) {
    case "truncated":
      return MESSAGES.audioTruncated;
    case "silent":
      return MESSAGES.audioSilent;
    case "too_long": {
      const minutes = (err.maxSeconds ?? DEFAULT_MAX_AUDIO_MINUTES * 60) / 60;
      return audioTooLongMessage(Number.isInteger(minutes) ? minutes : Number(minutes.toFixed(1)));
    }
    case "implausible":
      return MESSAGES.audioImplausible;
    case "too_costly":
      return MESSAGES.audioTooCostly;
    default:
      return MESSAGES.audioUndecodable;
  }
}

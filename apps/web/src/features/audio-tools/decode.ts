/** Decoded audio: one Float32Array per channel at `sampleRate`. */
export type DecodedAudio = {
  channels: Float32Array[];
  sampleRate: number;
  /** False when the file's own rate could not be read and the audio was decoded at `FALLBACK_RATE`. */
  nativeRate: boolean;
};

/** Rate used when the container's sample rate cannot be read. */
export const FALLBACK_RATE = 48000;

const ascii = (b: Uint8Array, at: number, s: string) => {
  if (at + s.length > b.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};
const u32le = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);

/** Find `s` in `b` from `from` (bytes, naive scan; used on headers only). */
function indexOf(b: Uint8Array, s: string, from = 0, limit = b.length): number {
  const end = Math.min(limit, b.length) - s.length;
  const first = s.charCodeAt(0);
  for (let i = from; i <= end; i++) if (b[i] === first && ascii(b, i, s)) return i;
  return -1;
}

const MPEG_RATES = [44100, 48000, 32000];

/** The sample rate of the first MPEG audio frame at or after `from` (MP3), or null. */
function mpegRate(b: Uint8Array, from: number): number | null {
  const end = Math.min(b.length - 2, from + 64 * 1024);
  for (let i = from; i < end; i++) {
    if (b[i] !== 0xff || ((b[i + 1] ?? 0) & 0xe0) !== 0xe0) continue;
    const version = ((b[i + 1] ?? 0) >> 3) & 3; // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
    const layer = ((b[i + 1] ?? 0) >> 1) & 3;
    const bitrate = ((b[i + 2] ?? 0) >> 4) & 15;
    const rateIndex = ((b[i + 2] ?? 0) >> 2) & 3;
    if (version === 1 || layer === 0 || bitrate === 15 || bitrate === 0 || rateIndex === 3) continue;
    const base = MPEG_RATES[rateIndex] as number;
    return version === 3 ? base : version === 2 ? base / 2 : base / 4;
  }
  return null;
}

/**
 * The sample rate a file's header declares (WAV/RF64, FLAC, Ogg Vorbis/Opus, MP3, MP4/M4A), or null. The
 * browser's decoder resamples to its context's rate, so the page decodes at the file's own rate to report it
 * and to see its real spectrum (an upsampled file would show a false cutoff at its old Nyquist).
 */
export function sniffSampleRate(b: Uint8Array): number | null {
  if ((ascii(b, 0, "RIFF") || ascii(b, 0, "RF64")) && ascii(b, 8, "WAVE")) {
    let at = 12;
    while (at + 8 <= b.length) {
      const size = u32le(b, at + 4);
      if (ascii(b, at, "fmt ")) return u32le(b, at + 12) || null;
      at += 8 + size + (size % 2);
    }
    return null;
  }
  if (ascii(b, 0, "fLaC") && b.length >= 21) {
    const rate = ((b[18] ?? 0) << 12) | ((b[19] ?? 0) << 4) | ((b[20] ?? 0) >> 4);
    return rate || null;
  }
  if (ascii(b, 0, "OggS")) {
    // Opus always decodes at 48 kHz (its header's "input rate" is informational).
    if (indexOf(b, "OpusHead", 0, 512) >= 0) return 48000;
    const vorbis = indexOf(b, "\x01vorbis", 0, 512);
    if (vorbis >= 0) return u32le(b, vorbis + 12) || null;
    return null;
  }
  if (ascii(b, 4, "ftyp")) {
    const entry = indexOf(b, "mp4a");
    // AudioSampleEntry: 6 reserved, data ref (2), 8 reserved, channels (2), size (2), 4 more, rate (16.16).
    if (entry >= 0) return u16be(b, entry + 4 + 24) || null;
    return null;
  }
  let start = 0;
  if (ascii(b, 0, "ID3") && b.length >= 10) {
    const size = (((b[6] ?? 0) & 0x7f) << 21) | (((b[7] ?? 0) & 0x7f) << 14) | (((b[8] ?? 0) & 0x7f) << 7);
    start = 10 + (size | ((b[9] ?? 0) & 0x7f)) + ((b[5] ?? 0) & 0x10 ? 10 : 0);
  }
  return mpegRate(b, start);
}

/**
 * Decode an audio file in the browser (Web Audio `decodeAudioData`) at its own sample rate: `rate` when the
 * caller knows it (a song's stored metadata), else what the header says, else `FALLBACK_RATE`.
 */
export async function decodeAudio(bytes: ArrayBuffer, rate?: number | null): Promise<DecodedAudio> {
  const declared =
    rate && rate > 0 ? rate : sniffSampleRate(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 1 << 20)));
  const mp4 = declared === null && bytes.byteLength > 8 && ascii(new Uint8Array(bytes, 0, 8), 4, "ftyp");
  // An MP4 keeps its sample description wherever the muxer put it: look through the whole file once.
  const sniffed = mp4 ? sniffSampleRate(new Uint8Array(bytes)) : declared;
  const nativeRate = sniffed !== null && sniffed >= 3000 && sniffed <= 768000;
  const sampleRate = nativeRate ? (sniffed as number) : FALLBACK_RATE;
  const context = new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate });
  const buffer = await context.decodeAudioData(bytes);
  const channels: Float32Array[] = [];
  for (let c = 0; c < buffer.numberOfChannels; c++) channels.push(buffer.getChannelData(c).slice());
  return { channels, sampleRate: buffer.sampleRate, nativeRate };
}

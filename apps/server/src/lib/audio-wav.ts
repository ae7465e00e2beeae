import { AudioDecodeError } from "./audio-errors.js";

/** Decoded samples of one stretch of a file, one array per channel. */
export type PcmChunk = { channelData: Float32Array[]; sampleRate: number };

type WavFormat = { channels: number; sampleRate: number; bits: number; float: boolean; dataBytes: number | null };

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Read the `fmt ` chunk; undefined for encodings we do not decode (e.g. ADPCM). */
function parseFmt(b: Buffer, at: number): Omit<WavFormat, "dataBytes"> | undefined {
  let tag = b.readUInt16LE(at);
  const channels = b.readUInt16LE(at + 2);
  const sampleRate = b.readUInt32LE(at + 4);
  const bits = b.readUInt16LE(at + 14);
  // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its sub-format GUID.
  if (tag === WAVE_FORMAT_EXTENSIBLE && b.length >= at + 26) tag = b.readUInt16LE(at + 24);
  const float = tag === WAVE_FORMAT_FLOAT;
  if (tag !== WAVE_FORMAT_PCM && !float) return undefined;
  if (channels < 1 || sampleRate < 1) return undefined;
  if (float ? bits !== 32 && bits !== 64 : ![8, 16, 24, 32].includes(bits)) return undefined;
  return { channels, sampleRate, bits, float };
}

/** The sample at byte `at`, scaled to [-1, 1]. */
function readSample(b: Buffer, at: number, f: WavFormat): number {
  if (f.float) return f.bits === 32 ? b.readFloatLE(at) : b.readDoubleLE(at);
  switch (f.bits) {
    case 8:
      return ((b[at] as number) - 128) / 128;
    case 16:
      return b.readInt16LE(at) / 32768;
    case 24:
      return b.readIntLE(at, 3) / 8388608;
    default:
      return b.readInt32LE(at) / 2147483648;
  }
}

/**
 * Decode a RIFF/WAVE file (integer PCM 8-32 bit, float 32/64 bit, extensible headers) chunk by chunk. Our own
 * reader: the WASM one misreads float files at unaligned offsets, and only the header says how long the file
 * should be, so a file cut short is refused as truncated (decision 013).
 */
export async function* decodeWav(source: AsyncIterable<Buffer>): AsyncGenerator<PcmChunk> {
  let pending: Buffer = Buffer.alloc(0);
  let format: WavFormat | undefined;
  let fmt: Omit<WavFormat, "dataBytes"> | undefined;
  let left = 0; // data bytes still expected (Infinity when the header does not say)
  let headerDone = false;
  let offset = 12;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    if (!headerDone) {
      if (pending.length < 12) continue;
      if (pending.toString("latin1", 0, 4) !== "RIFF" || pending.toString("latin1", 8, 12) !== "WAVE") {
        throw new AudioDecodeError("undecodable");
      }
      // Walk the chunks up to "data"; wait for more bytes when a header is incomplete.
      while (!headerDone && offset + 8 <= pending.length) {
        const id = pending.toString("latin1", offset, offset + 4);
        const size = pending.readUInt32LE(offset + 4);
        if (id === "data") {
          if (!fmt) throw new AudioDecodeError("undecodable");
          // 0 and 0xFFFFFFFF mark a file written as a stream, whose length was never filled in.
          const known = size !== 0 && size !== 0xffffffff;
          format = { ...fmt, dataBytes: known ? size : null };
          left = known ? size : Number.POSITIVE_INFINITY;
          pending = pending.subarray(offset + 8);
          headerDone = true;
          break;
        }
        if (offset + 8 + size > pending.length) break;
        if (id === "fmt ") {
          fmt = parseFmt(pending, offset + 8);
          if (!fmt) throw new AudioDecodeError("undecodable");
        }
        offset += 8 + size + (size % 2);
      }
      if (!headerDone) continue;
    }
    const f = format as WavFormat;
    const frameBytes = (f.bits / 8) * f.channels;
    const usable = Math.min(pending.length, left);
    const frames = Math.floor(usable / frameBytes);
    if (frames > 0) {
      const channelData = Array.from({ length: f.channels }, () => new Float32Array(frames));
      const step = f.bits / 8;
      for (let i = 0; i < frames; i++) {
        const base = i * frameBytes;
        for (let c = 0; c < f.channels; c++) {
          (channelData[c] as Float32Array)[i] = readSample(pending, base + c * step, f);
        }
      }
      left -= frames * frameBytes;
      pending = pending.subarray(frames * frameBytes);
      yield { channelData, sampleRate: f.sampleRate };
    }
    if (left <= 0) return;
  }
  if (!headerDone) throw new AudioDecodeError(fmt ? "truncated" : "undecodable");
  // The header promised more sample data than the file holds.
  if (Number.isFinite(left) && left >= ((format as WavFormat).bits / 8) * (format as WavFormat).channels) {
    throw new AudioDecodeError("truncated");
  }
}

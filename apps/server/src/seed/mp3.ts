import { createMp3Encoder } from "wasm-media-encoders";

type Encoder = Awaited<ReturnType<typeof createMp3Encoder>>;
let encoder: Promise<Encoder> | undefined;

/** Samples handed to the encoder per call. */
const CHUNK = 64 * 1024;

/**
 * Encode mono float samples (-1..1) as a constant-bitrate MP3 with LAME (compiled to WebAssembly: about ten times
 * faster than a JavaScript port). Constant bitrate, so browsers know the duration and can seek without a VBR header.
 */
export async function encodeMp3(
  samples: Float32Array,
  sampleRate: number,
  kbps: 32 | 40 | 48 | 64 | 96 | 128,
): Promise<Buffer> {
  encoder ??= createMp3Encoder();
  const enc = await encoder;
  // No await from here on: one encoder per thread, used by one song at a time.
  enc.configure({ sampleRate, channels: 1, bitrate: kbps });
  const parts: Buffer[] = [];
  for (let i = 0; i < samples.length; i += CHUNK) parts.push(Buffer.from(enc.encode([samples.subarray(i, i + CHUNK)])));
  parts.push(Buffer.from(enc.finalize()));
  return Buffer.concat(parts);
}

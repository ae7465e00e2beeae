// Fingerprinting an audio file in one streamed decode, and a content-addressed cache of the result: the demo
// catalogue's renders are fingerprinted where they are made (worker threads), so the server's index job only
// reads the hashes instead of decoding 300 songs again on its own thread.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createStreamingFingerprinter, type FingerprintConfig, type Hashes } from "@unheard/fingerprint";
import { hashString } from "@unheard/shared";
import { type AudioAnalysis, type AudioFormat, decodeAudioFile } from "../../lib/audio.js";

/**
 * Decode a file once: its measurements and its hashes (fingerprinted a segment at a time, decision 013); the
 * decode stops past `maxSeconds` (default: the decoder's) or when the file is a decompression bomb (issue 24).
 */
export async function fingerprintAudioFile(
  file: string,
  format: AudioFormat,
  preset: FingerprintConfig,
  opts: { maxSeconds?: number } = {},
): Promise<{ analysis: AudioAnalysis; hashes: Hashes }> {
  const stream = createStreamingFingerprinter(preset);
  const {
    mono: _mono,
    monoRate: _rate,
    ...analysis
  } = await decodeAudioFile(file, format, {
    monoRate: preset.sampleRate,
    keepSeconds: 0,
    onMono: (x) => stream.push(x),
    ...(opts.maxSeconds === undefined ? {} : { maxSeconds: opts.maxSeconds }),
  });
  return { analysis, hashes: stream.finish() };
}

/** The cache file of a content's hashes: its SHA-256 and every setting of the preset, so a changed preset misses. */
export function hashCacheFile(dir: string, sha256: string, preset: FingerprintConfig): string {
  const settings = hashString(JSON.stringify(preset)).toString(36);
  return path.join(dir, `${sha256}-${preset.name}-${settings}.fp`);
}

/** Keep hashes in the cache: a count, then the hashes, then the offsets (little-endian int32). */
export async function writeHashCache(file: string, h: Hashes): Promise<void> {
  const out = new Int32Array(1 + 2 * h.count);
  out[0] = h.count;
  out.set(h.hashes.subarray(0, h.count), 1);
  out.set(h.offsets.subarray(0, h.count), 1 + h.count);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, new Uint8Array(out.buffer));
  await rename(tmp, file);
}

/** Hashes from the cache, or undefined when the file is missing or not whole. */
export async function readHashCache(file: string): Promise<Hashes | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch {
    return undefined;
  }
  if (buf.length < 4 || buf.length % 4 !== 0) return undefined;
  const all = new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  const count = all[0] ?? -1;
  if (count < 0 || all.length !== 1 + 2 * count) return undefined;
  return { count, hashes: all.slice(1, 1 + count), offsets: all.slice(1 + count) };
}

/** The hash cache kept inside a render cache folder (the demo catalogue's, DEMO_CACHE_DIR). */
export function hashCacheDirIn(cacheDir: string): string {
  return path.join(cacheDir, "fingerprints");
}

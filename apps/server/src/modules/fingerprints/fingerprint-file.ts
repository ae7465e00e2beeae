// Fingerprinting an audio file in one streamed decode, and a content-addressed cache of the result: the demo
// catalogue's renders are fingerprinted where they are made (worker threads), so the server's index job only
// reads the hashes instead of decoding 300 songs again on its own thread.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  createStreamingFingerprinter,
  type FingerprintConfig,
  type Hashes,
  INVARIANT_INDEX,
  type InvariantIndexConfig,
  invariantFingerprint,
  packInvariantEntry,
} from "@unheard/fingerprint";
import { hashString } from "@unheard/shared";
import { type AudioAnalysis, type AudioFormat, decodeAudioFile } from "../../lib/audio.js";
import type { InvariantEntries } from "./triplets.repo.js";

/** What indexing a song stores: the plain pass's hashes and the invariant pass's entries (decision 033). */
export type SongPrints = Hashes & { invariant: InvariantEntries };

/** The invariant entries of a song's mono (its first `config.maxSeconds`), with song field 0. */
export function invariantEntriesOf(
  mono: Float32Array,
  sampleRate: number,
  config: InvariantIndexConfig = INVARIANT_INDEX,
): InvariantEntries {
  const { triplets } = invariantFingerprint(mono, sampleRate, config.analysis);
  const hi = new Uint32Array(triplets.count);
  const lo = new Uint32Array(triplets.count);
  for (let i = 0; i < triplets.count; i++) {
    const e = packInvariantEntry(0, triplets, i);
    hi[i] = e.hi;
    lo[i] = e.lo;
  }
  return { count: triplets.count, keys: triplets.keys.slice(0, triplets.count), hi, lo };
}

/** Chunks of mono kept up to a length, then joined. */
function monoCollector(sampleRate: number, maxSeconds: number) {
  const limit = Math.round(sampleRate * maxSeconds);
  const chunks: Float32Array[] = [];
  let length = 0;
  return {
    push(x: Float32Array) {
      if (length >= limit) return;
      const part = x.subarray(0, Math.min(x.length, limit - length));
      chunks.push(part.slice());
      length += part.length;
    },
    join(): Float32Array {
      const out = new Float32Array(length);
      let o = 0;
      for (const c of chunks) {
        out.set(c, o);
        o += c.length;
      }
      return out;
    },
  };
}

/**
 * Decode a file once: its measurements, its hashes (fingerprinted a segment at a time, decision 013) and its
 * invariant entries (its first minutes, analysed whole); the decode stops past `maxSeconds` (default: the
 * decoder's) or when the file is a decompression bomb (issue 24).
 */
export async function fingerprintAudioFile(
  file: string,
  format: AudioFormat,
  preset: FingerprintConfig,
  opts: { maxSeconds?: number; invariant?: InvariantIndexConfig } = {},
): Promise<{ analysis: AudioAnalysis; hashes: SongPrints }> {
  const config = opts.invariant ?? INVARIANT_INDEX;
  const stream = createStreamingFingerprinter(preset);
  const kept = monoCollector(preset.sampleRate, config.maxSeconds);
  const {
    mono: _mono,
    monoRate: _rate,
    ...analysis
  } = await decodeAudioFile(file, format, {
    monoRate: preset.sampleRate,
    keepSeconds: 0,
    onMono: (x) => {
      stream.push(x);
      kept.push(x);
    },
    ...(opts.maxSeconds === undefined ? {} : { maxSeconds: opts.maxSeconds }),
  });
  const hashes = stream.finish();
  return { analysis, hashes: { ...hashes, invariant: invariantEntriesOf(kept.join(), preset.sampleRate, config) } };
}

/**
 * The cache file of a content's prints: its SHA-256 and every setting of both presets, so a changed preset misses.
 */
export function hashCacheFile(
  dir: string,
  sha256: string,
  preset: FingerprintConfig,
  invariant: InvariantIndexConfig = INVARIANT_INDEX,
): string {
  const settings = hashString(JSON.stringify([preset, invariant])).toString(36);
  return path.join(dir, `${sha256}-${preset.name}-${invariant.name}-${settings}.fp`);
}

/**
 * Keep prints in the cache (little-endian int32): a count, the hashes, the offsets; then the invariant entries'
 * count, keys, high and low words.
 */
export async function writeHashCache(file: string, h: SongPrints): Promise<void> {
  const n = h.invariant.count;
  const out = new Int32Array(2 + 2 * h.count + 3 * n);
  out[0] = h.count;
  out.set(h.hashes.subarray(0, h.count), 1);
  out.set(h.offsets.subarray(0, h.count), 1 + h.count);
  const at = 1 + 2 * h.count;
  out[at] = n;
  out.set(h.invariant.keys.subarray(0, n), at + 1);
  out.set(new Int32Array(h.invariant.hi.buffer, h.invariant.hi.byteOffset, n), at + 1 + n);
  out.set(new Int32Array(h.invariant.lo.buffer, h.invariant.lo.byteOffset, n), at + 1 + 2 * n);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, new Uint8Array(out.buffer));
  await rename(tmp, file);
}

/** Prints from the cache, or undefined when the file is missing or not whole. */
export async function readHashCache(file: string): Promise<SongPrints | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch {
    return undefined;
  }
  if (buf.length < 4 || buf.length % 4 !== 0) return undefined;
  const all = new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  const count = all[0] ?? -1;
  if (count < 0 || all.length < 2 + 2 * count) return undefined;
  const at = 1 + 2 * count;
  const n = all[at] ?? -1;
  if (n < 0 || all.length !== at + 1 + 3 * n) return undefined;
  const words = (from: number) => new Uint32Array(all.slice(from, from + n).buffer);
  return {
    count,
    hashes: all.slice(1, 1 + count),
    offsets: all.slice(1 + count, at),
    invariant: { count: n, keys: all.slice(at + 1, at + 1 + n), hi: words(at + 1 + n), lo: words(at + 1 + 2 * n) },
  };
}

/** The hash cache kept inside a render cache folder (the demo catalogue's, DEMO_CACHE_DIR). */
export function hashCacheDirIn(cacheDir: string): string {
  return path.join(cacheDir, "fingerprints");
}

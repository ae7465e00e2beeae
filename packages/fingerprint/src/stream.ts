import type { FingerprintConfig } from "./config.js";
import { deriveParams } from "./config.js";
import { PHASES, polyphaseFilter, stft } from "./dsp.js";
import { type Hashes, pairPeaks } from "./hashes.js";
import { pickPeaks } from "./peaks.js";

/** A resampler fed chunk by chunk; the concatenated output equals `resample` of the whole signal. */
export type StreamResampler = {
  /** Resample the next chunk; returns the output samples that are complete so far. */
  push(chunk: Float32Array): Float32Array;
  /** The remaining output (the signal ends here). */
  finish(): Float32Array;
};

/** A growable window of a long signal: samples from absolute index `start` on. */
class SampleWindow {
  data = new Float32Array(1 << 16);
  length = 0;
  start = 0;

  append(chunk: Float32Array): void {
    if (this.length + chunk.length > this.data.length) {
      const next = new Float32Array(Math.max(this.data.length * 2, this.length + chunk.length));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** Forget the samples before absolute index `from`. */
  dropBefore(from: number): void {
    const n = Math.min(this.length, Math.max(0, from - this.start));
    if (n === 0) return;
    this.data.copyWithin(0, n, this.length);
    this.length -= n;
    this.start += n;
  }

  get end(): number {
    return this.start + this.length;
  }
}

/** Resample a signal that arrives in chunks, holding only the filter's reach of input (decision 013). */
export function createResampler(fromRate: number, toRate: number): StreamResampler {
  if (!(fromRate > 0 && toRate > 0)) throw new Error("sample rates must be positive");
  if (fromRate === toRate) return { push: (chunk) => chunk.slice(), finish: () => new Float32Array(0) };
  const ratio = fromRate / toRate;
  const { taps, half, table } = polyphaseFilter(fromRate, toRate);
  const input = new SampleWindow();
  let next = 0; // index of the next output sample

  // Output samples up to `maxOut` whose filter window ends before `limit` (input beyond the signal counts as zero).
  const produce = (limit: number, maxOut: number, total: number): Float32Array => {
    const { data, start: offset } = input;
    // At most this many outputs fit before `limit` (and never more than `maxOut`).
    const room = Math.max(0, Math.min(maxOut, Math.ceil((Math.min(limit, total + taps) + half) / ratio) + 1) - next);
    const out = new Float32Array(room);
    let produced = 0;
    while (next < maxOut && produced < room) {
      const centre = next * ratio;
      const base = Math.floor(centre);
      const first = base - half + 1;
      if (first + taps > limit) break;
      const row = Math.round((centre - base) * PHASES) * taps;
      let acc = 0;
      if (first >= 0 && first + taps <= total) {
        // Inside the signal: four accumulators, as in `resample` (about 3x faster in V8).
        const at = first - offset;
        let a0 = 0;
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        for (let j = 0; j < taps; j += 4) {
          a0 += (data[at + j] as number) * (table[row + j] as number);
          a1 += (data[at + j + 1] as number) * (table[row + j + 1] as number);
          a2 += (data[at + j + 2] as number) * (table[row + j + 2] as number);
          a3 += (data[at + j + 3] as number) * (table[row + j + 3] as number);
        }
        acc = a0 + a1 + a2 + a3;
      } else {
        for (let j = 0; j < taps; j++) {
          const k = first + j;
          if (k >= 0 && k < total) acc += (data[k - offset] as number) * (table[row + j] as number);
        }
      }
      out[produced++] = acc;
      next++;
    }
    input.dropBefore(Math.floor(next * ratio) - half + 1);
    return out.subarray(0, produced);
  };

  return {
    push(chunk) {
      input.append(chunk);
      return produce(input.end, Number.POSITIVE_INFINITY, input.end);
    },
    finish() {
      const total = input.end;
      return produce(Number.POSITIVE_INFINITY, Math.floor(total / ratio), total);
    },
  };
}

/** Hashes of a whole signal fingerprinted segment by segment. */
export type StreamFingerprint = Hashes & { durationSeconds: number };

/** Feeds samples at the config's rate into a fingerprint that never holds the whole signal. */
export type StreamFingerprinter = {
  push(samples: Float32Array): void;
  finish(): StreamFingerprint;
};

/** Frames per segment: about 48 s at the default preset, so a 90-minute mix never holds more than a minute. */
const SEGMENT_FRAMES = 2048;

/**
 * Fingerprint a long signal in overlapping segments (decision 013). Each segment is analysed with a margin of
 * frames on both sides (the peak neighbourhood and the pairing reach), and only hashes anchored in its core are
 * kept, so the hashes and their frame offsets are those of the whole signal, except that a "clip-max" peak
 * threshold is taken per segment instead of over the whole file.
 */
export function createStreamingFingerprinter(
  config: FingerprintConfig,
  segmentFrames = SEGMENT_FRAMES,
): StreamFingerprinter {
  const derived = deriveParams(config);
  const { windowSize, hopSize, maxFrames } = config;
  const margin = derived.maxDeltaFrames + config.peaks.neighbourhoodFrames + 1;
  // A preset that caps the frames (the spec's) is one segment of that many frames.
  const core = maxFrames ?? segmentFrames;
  const samples = new SampleWindow();
  let total = 0;
  let coreStart = 0;
  let count = 0;
  let hashes = new Int32Array(1 << 14);
  let offsets = new Int32Array(1 << 14);
  let done = false;

  const keep = (h: Hashes, firstFrame: number, coreEnd: number) => {
    for (let i = 0; i < h.count; i++) {
      const frame = (h.offsets[i] as number) + firstFrame;
      if (frame < coreStart || frame >= coreEnd) continue;
      if (count === hashes.length) {
        const grownH = new Int32Array(count * 2);
        grownH.set(hashes);
        hashes = grownH;
        const grownO = new Int32Array(count * 2);
        grownO.set(offsets);
        offsets = grownO;
      }
      hashes[count] = h.hashes[i] as number;
      offsets[count] = frame;
      count++;
    }
  };

  // Analyse the segment whose core starts at `coreStart`: its frames from the margin before it to `untilSample`.
  const analyse = (coreEnd: number, untilSample: number) => {
    const firstFrame = Math.max(0, coreStart - margin);
    const x = samples.data.subarray(firstFrame * hopSize - samples.start, untilSample - samples.start);
    const spectrogram = stft(x, config.sampleRate, windowSize, hopSize, maxFrames);
    keep(pairPeaks(pickPeaks(spectrogram, config), config, derived), firstFrame, coreEnd);
  };

  const samplesFor = (endFrame: number) => (endFrame - 1) * hopSize + windowSize;

  return {
    push(chunk) {
      if (done) return;
      total += chunk.length;
      if (maxFrames !== null) {
        // Only the first `maxFrames` frames are ever analysed: keep just their samples.
        const room = samplesFor(maxFrames) - samples.end;
        if (room > 0) samples.append(chunk.subarray(0, room));
        return;
      }
      samples.append(chunk);
      while (samples.end >= samplesFor(coreStart + core + margin)) {
        const coreEnd = coreStart + core;
        analyse(coreEnd, samplesFor(coreEnd + margin));
        coreStart = coreEnd;
        samples.dropBefore(Math.max(0, coreStart - margin) * hopSize);
      }
    },
    finish() {
      if (!done) {
        done = true;
        analyse(Number.POSITIVE_INFINITY, samples.end);
      }
      return {
        count,
        hashes: hashes.subarray(0, count),
        offsets: offsets.subarray(0, count),
        durationSeconds: total / config.sampleRate,
      };
    },
  };
}

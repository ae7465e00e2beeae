import { deriveParams, type FingerprintConfig } from "./config.js";
import type { Spectrogram } from "./dsp.js";

/** Picked spectral peaks, sorted by frame then bin (structure of arrays: cheap for long songs). */
export type Peaks = {
  count: number;
  frames: Int32Array;
  bins: Int32Array;
  /** Level of each peak in dBFS. */
  levels: Float32Array;
};

/** The absolute level (dBFS) a peak must reach for this spectrogram and config. */
export function peakThresholdDb(spectrogram: Spectrogram, config: FingerprintConfig): number {
  const { thresholdDb, thresholdReference, silenceFloorDb } = config.peaks;
  const relative = thresholdReference === "clip-max" ? spectrogram.maxDb + thresholdDb : thresholdDb;
  return Math.max(relative, silenceFloorDb);
}

/**
 * Maximum over [i - half, i + half] (clipped to the row) for every i of one row in O(1) per bin (van Herk /
 * Gil-Werman block-wise prefix and suffix maxima), where a naive scan costs the neighbourhood width per bin. The row
 * is padded with -Infinity so every window has exactly 2 * half + 1 elements.
 */
function slidingMax(
  src: Float32Array,
  offset: number,
  n: number,
  half: number,
  dst: Float32Array,
  prefix: Float64Array,
  suffix: Float64Array,
): void {
  const w = 2 * half + 1;
  const m = n + 2 * half;
  const at = (j: number) => (j < half || j >= n + half ? Number.NEGATIVE_INFINITY : (src[offset + j - half] as number));
  for (let j = 0; j < m; j++) prefix[j] = j % w === 0 ? at(j) : Math.max(prefix[j - 1] as number, at(j));
  for (let j = m - 1; j >= 0; j--)
    suffix[j] = j === m - 1 || (j + 1) % w === 0 ? at(j) : Math.max(suffix[j + 1] as number, at(j));
  // Window of bin i in padded coordinates: [i, i + w - 1], at most two blocks.
  for (let i = 0; i < n; i++) dst[offset + i] = Math.max(suffix[i] as number, prefix[i + w - 1] as number);
}

/**
 * Two-dimensional local maxima: a bin is a peak when it is the largest in its neighbourhood (`neighbourhoodBins`
 * in frequency by `neighbourhoodFrames` in time, centred), lies in the configured band and reaches the threshold.
 * With `maxPerFrame`, only the loudest peaks of each frame are kept.
 */
export function pickPeaks(spectrogram: Spectrogram, config: FingerprintConfig): Peaks {
  const { minBin, maxBin } = deriveParams(config);
  const { data, frameCount, binCount } = spectrogram;
  const threshold = peakThresholdDb(spectrogram, config);
  const halfBins = (config.peaks.neighbourhoodBins - 1) / 2;
  const halfFrames = (config.peaks.neighbourhoodFrames - 1) / 2;
  const cap = config.peaks.maxPerFrame;

  // Separable max filter: first across frequency within each frame (here), then across time (per candidate).
  const freqMax = new Float32Array(frameCount * binCount);
  const prefix = new Float64Array(binCount + 2 * halfBins);
  const suffix = new Float64Array(binCount + 2 * halfBins);
  for (let f = 0; f < frameCount; f++) slidingMax(data, f * binCount, binCount, halfBins, freqMax, prefix, suffix);

  let frames = new Int32Array(1024);
  let bins = new Int32Array(1024);
  let levels = new Float32Array(1024);
  let count = 0;
  const push = (f: number, b: number, level: number) => {
    if (count === frames.length) {
      const grow = <T extends Int32Array | Float32Array>(a: T, make: (n: number) => T): T => {
        const next = make(a.length * 2);
        next.set(a);
        return next;
      };
      frames = grow(frames, (n) => new Int32Array(n));
      bins = grow(bins, (n) => new Int32Array(n));
      levels = grow(levels, (n) => new Float32Array(n));
    }
    frames[count] = f;
    bins[count] = b;
    levels[count] = level;
    count++;
  };

  const candidates: { bin: number; level: number }[] = [];
  for (let f = 0; f < frameCount; f++) {
    const row = f * binCount;
    const f0 = Math.max(0, f - halfFrames);
    const f1 = Math.min(frameCount - 1, f + halfFrames);
    candidates.length = 0;
    for (let b = minBin; b <= maxBin; b++) {
      const v = data[row + b] as number;
      if (v < threshold || v < (freqMax[row + b] as number)) continue;
      let isMax = true;
      for (let g = f0; g <= f1 && isMax; g++) {
        if (g !== f && (freqMax[g * binCount + b] as number) > v) isMax = false;
      }
      // Ties (flat plateaus) keep only the earliest frame, so a steady tone gives one peak, not one per frame.
      for (let g = f0; g < f && isMax; g++) {
        if ((freqMax[g * binCount + b] as number) === v && (data[g * binCount + b] as number) === v) isMax = false;
      }
      if (isMax) candidates.push({ bin: b, level: v });
    }
    if (cap !== null && candidates.length > cap) {
      candidates.sort((a, b) => b.level - a.level);
      candidates.length = cap;
      candidates.sort((a, b) => a.bin - b.bin);
    }
    for (const c of candidates) push(f, c.bin, c.level);
  }
  return { count, frames: frames.subarray(0, count), bins: bins.subarray(0, count), levels: levels.subarray(0, count) };
}

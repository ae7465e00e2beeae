import { DEFAULT_PRESET, deriveParams, type FingerprintConfig } from "./config.js";
import { resample, type Spectrogram, stft } from "./dsp.js";
import { type Hashes, pairPeaks } from "./hashes.js";
import { type Peaks, peakThresholdDb, pickPeaks } from "./peaks.js";

/** The analysis sample rate of the spec (and of both presets). */
export const FINGERPRINT_SAMPLE_RATE = 5512;

/** Counts describing one fingerprinted signal. */
export type FingerprintStats = {
  durationSeconds: number;
  frames: number;
  peaks: number;
  hashes: number;
  peaksPerSecond: number;
  hashesPerSecond: number;
  /** The absolute level (dBFS) peaks had to reach. */
  thresholdDb: number;
};

/** Hashes of a signal plus what is needed to explain them (peaks, and the spectrogram on request). */
export type Fingerprint = {
  hashes: Hashes;
  peaks: Peaks;
  frames: number;
  stats: FingerprintStats;
  /** Only with `keepSpectrogram`: the spectrogram the peaks were picked from (at the config's sample rate). */
  spectrogram?: Spectrogram;
};

/** Mono audio at the config's sample rate (resampled when needed). */
export function toAnalysisRate(samples: Float32Array, sampleRate: number, config: FingerprintConfig): Float32Array {
  return resample(samples, sampleRate, config.sampleRate);
}

/** The config's spectrogram of audio already at its analysis rate. */
function analysisSpectrogram(x: Float32Array, config: FingerprintConfig): Spectrogram {
  return stft(x, config.sampleRate, config.windowSize, config.hopSize, config.maxFrames);
}

/** The spectrogram the fingerprint is computed from (resampled, windowed, in dBFS), e.g. to draw it. */
export function computeSpectrogram(
  samples: Float32Array,
  sampleRate: number,
  config: FingerprintConfig = DEFAULT_PRESET,
): Spectrogram {
  return analysisSpectrogram(toAnalysisRate(samples, sampleRate, config), config);
}

function fingerprintAnalysed(
  x: Float32Array,
  durationSeconds: number,
  config: FingerprintConfig,
  keepSpectrogram: boolean,
): Fingerprint {
  const derived = deriveParams(config);
  const spectrogram = analysisSpectrogram(x, config);
  const peaks = pickPeaks(spectrogram, config);
  const hashes = pairPeaks(peaks, config, derived);
  const seconds = Math.max(durationSeconds, 1e-9);
  const fp: Fingerprint = {
    hashes,
    peaks,
    frames: spectrogram.frameCount,
    stats: {
      durationSeconds,
      frames: spectrogram.frameCount,
      peaks: peaks.count,
      hashes: hashes.count,
      peaksPerSecond: peaks.count / seconds,
      hashesPerSecond: hashes.count / seconds,
      thresholdDb: peakThresholdDb(spectrogram, config),
    },
  };
  if (keepSpectrogram) fp.spectrogram = spectrogram;
  return fp;
}

/** Fingerprint mono audio (any sample rate) for indexing: hashes with anchor frame offsets, peaks and stats. */
export function fingerprint(
  samples: Float32Array,
  sampleRate: number,
  config: FingerprintConfig = DEFAULT_PRESET,
  options: { keepSpectrogram?: boolean } = {},
): Fingerprint {
  const x = toAnalysisRate(samples, sampleRate, config);
  return fingerprintAnalysed(x, samples.length / sampleRate, config, options.keepSpectrogram ?? false);
}

/**
 * Fingerprint a query clip. With `query.shifts` > 1 the clip is analysed again starting `hop / shifts` samples
 * later each time, because a clip starts anywhere between the stored frames; every shift's hashes are kept (offsets
 * in whole frames from the clip start) and duplicates are dropped.
 */
export function fingerprintQuery(
  samples: Float32Array,
  sampleRate: number,
  config: FingerprintConfig = DEFAULT_PRESET,
): Fingerprint {
  const x = toAnalysisRate(samples, sampleRate, config);
  const durationSeconds = samples.length / sampleRate;
  const shifts = config.query.shifts;
  const first = fingerprintAnalysed(x, durationSeconds, config, false);
  if (shifts <= 1) return first;
  const seen = new Set<number>();
  const hashes: number[] = [];
  const offsets: number[] = [];
  const add = (h: Hashes) => {
    for (let i = 0; i < h.count; i++) {
      const hash = h.hashes[i] as number;
      const offset = h.offsets[i] as number;
      const key = hash * 1048576 + offset; // offsets stay far below 2^20 frames in a query
      if (seen.has(key)) continue;
      seen.add(key);
      hashes.push(hash);
      offsets.push(offset);
    }
  };
  add(first.hashes);
  for (let s = 1; s < shifts; s++) {
    const shift = Math.round((s * config.hopSize) / shifts);
    add(fingerprintAnalysed(x.subarray(shift), durationSeconds, config, false).hashes);
  }
  const merged: Hashes = { count: hashes.length, hashes: Int32Array.from(hashes), offsets: Int32Array.from(offsets) };
  const seconds = Math.max(durationSeconds, 1e-9);
  return {
    ...first,
    hashes: merged,
    stats: { ...first.stats, hashes: merged.count, hashesPerSecond: merged.count / seconds },
  };
}

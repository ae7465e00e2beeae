/**
 * Spectral peaks on a log-frequency axis for the invariant fingerprint (invariant.ts): an ordinary STFT's local
 * maxima, their positions refined by parabolic interpolation and mapped to seconds and fractional semitones.
 */
import { MIN_DB, stft } from "./dsp.js";
import type { InvariantConfig } from "./invariant.js";

/** Spectral peaks with refined positions, sorted by time. */
export type LogPeaks = {
  count: number;
  /** Seconds from the start of the signal (the centre of the refined frame). */
  times: Float64Array;
  /** Fractional semitones, as MIDI numbers (69 is 440 Hz). */
  pitches: Float64Array;
  /** Levels (dBFS) at the peak bins. */
  levels: Float32Array;
};

/** Semitones (MIDI number) of a frequency in Hz. */
export const hzToSemitones = (hz: number): number => 69 + 12 * Math.log2(hz / 440);

/** Parabolic vertex offset (-0.5..0.5) of three equally spaced levels around a maximum. */
function vertex(l: number, c: number, r: number): number {
  const d = l - 2 * c + r;
  if (!(d < 0)) return 0;
  const x = (0.5 * (l - r)) / d;
  return x > 0.5 ? 0.5 : x < -0.5 ? -0.5 : x;
}

/** Frames analysed per block: bounds memory on hour-long songs (the block's spectrogram only, ~5 MB). */
const BLOCK_FRAMES = 2048;

/**
 * Peaks of mono audio already at `config.sampleRate`: a bin is a peak when it is the loudest within
 * `peaks.semitones` (at least `minBins` bins) and `peaks.seconds` of it and above the floor; positions are refined by
 * parabolic interpolation and mapped to seconds and semitones. Computed block by block with overlapping margins, so
 * the result does not depend on the block size.
 */
export function pickLogPeaks(x: Float32Array, config: InvariantConfig): LogPeaks {
  return pickLogPeakSets(x, config, [config.peaks.seconds])[0] as LogPeaks;
}

/** `pickLogPeaks` with several time neighbourhoods (seconds either side) from one spectrogram: one set for each. */
export function pickLogPeakSets(x: Float32Array, config: InvariantConfig, seconds: readonly number[]): LogPeaks[] {
  const { sampleRate, windowSize, hopSize } = config;
  const binHz = sampleRate / windowSize;
  const minBin = Math.max(1, Math.ceil(config.minHz / binHz));
  const maxBin = Math.min(windowSize / 2 - 1, Math.floor(config.maxHz / binHz));
  const halves = seconds.map((s) => Math.max(1, Math.round(s / (hopSize / sampleRate))));
  // Neighbourhood in bins per bin: the same interval in semitones at every height.
  const up = 2 ** (config.peaks.semitones / 12);
  const lo = new Int32Array(maxBin + 1);
  const hi = new Int32Array(maxBin + 1);
  for (let b = minBin; b <= maxBin; b++) {
    lo[b] = Math.max(1, Math.min(b - config.peaks.minBins, Math.floor(b / up)));
    hi[b] = Math.min(windowSize / 2, Math.max(b + config.peaks.minBins, Math.ceil(b * up)));
  }
  const frames = x.length < windowSize ? 0 : Math.floor((x.length - windowSize) / hopSize) + 1;
  const sets = halves.map(() => ({ times: [] as number[], pitches: [] as number[], levels: [] as number[] }));
  const floor = config.peaks.floorDb;
  const halfC = Math.round(config.peaks.contextSeconds / (hopSize / sampleRate));
  const margin = Math.max(halfC, ...halves) + 1;
  for (let c0 = 0; c0 < frames; c0 += BLOCK_FRAMES) {
    const c1 = Math.min(frames, c0 + BLOCK_FRAMES);
    const s0 = Math.max(0, c0 - margin);
    const s1 = Math.min(frames, c1 + margin);
    const s = stft(x.subarray(s0 * hopSize, (s1 - 1) * hopSize + windowSize), sampleRate, windowSize, hopSize);
    const { data, binCount, frameCount } = s;
    const loudest = contextMax(data, frameCount, binCount, minBin, maxBin, halfC);
    halves.forEach((halfT, n) => {
      const set = sets[n] as { times: number[]; pitches: number[]; levels: number[] };
      const tmax = timeMax(data, frameCount, binCount, halfT, lo[minBin] as number, hi[maxBin] as number);
      for (let f = c0; f < c1; f++) {
        const g = f - s0;
        const row = g * binCount;
        const threshold = Math.max(floor, (loudest[g] as number) - config.peaks.relativeDb);
        for (let b = minBin; b <= maxBin; b++) {
          const v = data[row + b] as number;
          if (v < threshold || v <= MIN_DB || v < (tmax[row + b] as number)) continue;
          let ok = true;
          for (let k = lo[b] as number; k <= (hi[b] as number) && ok; k++) {
            if (k !== b && (tmax[row + k] as number) > v) ok = false;
          }
          // A plateau in time keeps its first frame only.
          for (let e = Math.max(0, g - halfT); e < g && ok; e++)
            if ((data[e * binCount + b] as number) >= v) ok = false;
          if (!ok) continue;
          const df = vertex(data[row + b - 1] as number, v, data[row + b + 1] as number);
          const dt =
            g > 0 && g < frameCount - 1
              ? vertex(data[row - binCount + b] as number, v, data[row + binCount + b] as number)
              : 0;
          set.times.push(((f + dt) * hopSize + windowSize / 2) / sampleRate);
          set.pitches.push(hzToSemitones((b + df) * binHz));
          set.levels.push(v);
        }
      }
    });
  }
  return sets.map(({ times, pitches, levels }) => {
    // Refinement can move a peak half a frame: order by refined time, which is what the triplets read.
    const order = Array.from(times, (_, i) => i).sort((a, b) => (times[a] as number) - (times[b] as number) || a - b);
    return {
      count: order.length,
      times: Float64Array.from(order, (i) => times[i] as number),
      pitches: Float64Array.from(order, (i) => pitches[i] as number),
      levels: Float32Array.from(order, (i) => levels[i] as number),
    };
  });
}

/** The loudest bin of [b0, b1] within frames [f - half, f + half], for every frame f. */
function contextMax(data: Float32Array, frames: number, bins: number, b0: number, b1: number, half: number) {
  const rowMax = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let m = MIN_DB;
    for (let b = b0; b <= b1; b++) m = Math.max(m, data[f * bins + b] as number);
    rowMax[f] = m;
  }
  return timeMax(rowMax, frames, 1, half, 0, 0);
}

/**
 * Maximum over frames [f - half, f + half] (clipped) of every bin in [b0, b1], in O(1) per value (van Herk /
 * Gil-Werman: running maxima forward and backward within blocks of 2 * half + 1 frames), row by row so the inner
 * loops run along memory.
 */
function timeMax(data: Float32Array, frames: number, bins: number, half: number, b0: number, b1: number) {
  const out = new Float32Array(data.length);
  const w = 2 * half + 1;
  const m = frames + 2 * half; // padded: row j holds frame j - half, -Infinity outside
  const nb = b1 - b0 + 1;
  const prefix = new Float32Array(m * nb);
  const suffix = new Float32Array(m * nb);
  const rowOf = (j: number, dst: Float32Array, at: number) => {
    const f = j - half;
    if (f < 0 || f >= frames) dst.fill(Number.NEGATIVE_INFINITY, at, at + nb);
    else dst.set(data.subarray(f * bins + b0, f * bins + b0 + nb), at);
  };
  for (let j = 0; j < m; j++) {
    rowOf(j, prefix, j * nb);
    if (j % w !== 0) {
      for (let k = 0, a = j * nb, p = a - nb; k < nb; k++) {
        const prev = prefix[p + k] as number;
        if (prev > (prefix[a + k] as number)) prefix[a + k] = prev;
      }
    }
  }
  for (let j = m - 1; j >= 0; j--) {
    rowOf(j, suffix, j * nb);
    if (j !== m - 1 && (j + 1) % w !== 0) {
      for (let k = 0, a = j * nb, n = a + nb; k < nb; k++) {
        const next = suffix[n + k] as number;
        if (next > (suffix[a + k] as number)) suffix[a + k] = next;
      }
    }
  }
  for (let i = 0; i < frames; i++) {
    const s = i * nb;
    const p = (i + w - 1) * nb;
    const o = i * bins + b0;
    for (let k = 0; k < nb; k++) {
      const a = suffix[s + k] as number;
      const b = prefix[p + k] as number;
      out[o + k] = a > b ? a : b;
    }
  }
  return out;
}

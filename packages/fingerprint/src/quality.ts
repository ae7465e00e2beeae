import { DEFAULT_PRESET, type FingerprintConfig } from "./config.js";
import { MIN_DB, mixdown, stft } from "./dsp.js";
import { type Fingerprint, fingerprint } from "./fingerprint.js";

/** Spec §9: a sample is silent when its absolute value is under 0.01. */
export const SPEC_SILENCE_LEVEL = 0.01;
/** A sample at or above this absolute value counts as clipped (-0.01 dBFS; lossy decoders overshoot a little). */
export const CLIP_LEVEL = 0.999;

const toDb = (x: number): number => (x > 0 ? Math.max(MIN_DB, 20 * Math.log10(x)) : MIN_DB);

/** Peak level in dBFS (a full-scale sine reads 0). */
export function peakDbfs(samples: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const a = Math.abs(samples[i] as number);
    if (a > peak) peak = a;
  }
  return toDb(peak);
}

/** RMS level in dBFS relative to a full-scale square wave (a full-scale sine reads about -3 dBFS). */
export function rmsDbfs(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return samples.length ? toDb(Math.sqrt(sum / samples.length)) : MIN_DB;
}

/** Fraction of samples at or above `CLIP_LEVEL` in absolute value. */
export function clippingRatio(samples: Float32Array, level = CLIP_LEVEL): number {
  let n = 0;
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i] as number) >= level) n++;
  return samples.length ? n / samples.length : 0;
}

/** The spec's silence ratio: fraction of samples with |x| < 0.01 (depends on the recording's gain). */
export function silenceRatio(samples: Float32Array, level = SPEC_SILENCE_LEVEL): number {
  let n = 0;
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i] as number) < level) n++;
  return samples.length ? n / samples.length : 1;
}

/**
 * Gain-independent silence ratio: the fraction of 50 ms frames whose RMS is more than `belowLoudestDb` below the
 * loudest frame of the clip, so a quiet but real recording is not called silent. Frames under `floorDbfs` (-70 dBFS
 * RMS, below any real recording's quiet passages) always count, so a file of faint noise is silent too.
 */
export function relativeSilenceRatio(
  samples: Float32Array,
  sampleRate: number,
  options: { frameSeconds?: number; belowLoudestDb?: number; floorDbfs?: number } = {},
): number {
  const frame = Math.max(1, Math.round((options.frameSeconds ?? 0.05) * sampleRate));
  const below = options.belowLoudestDb ?? 45;
  const floor = options.floorDbfs ?? -70;
  const count = Math.floor(samples.length / frame);
  if (count === 0) return 1;
  const levels = new Float64Array(count);
  let loudest = MIN_DB;
  for (let f = 0; f < count; f++) {
    let sum = 0;
    for (let i = f * frame; i < (f + 1) * frame; i++) sum += (samples[i] as number) ** 2;
    const db = toDb(Math.sqrt(sum / frame));
    levels[f] = db;
    if (db > loudest) loudest = db;
  }
  let silent = 0;
  for (let f = 0; f < count; f++) {
    const db = levels[f] as number;
    if (db < floor || db < loudest - below) silent++;
  }
  return silent / count;
}

/** Power spectrum averaged over the non-silent frames of a signal, in dB (relative to full scale). */
export type AverageSpectrum = { binHz: number; levels: Float32Array };

/** Average spectrum over up to `maxFrames` windows of `windowSize` spread evenly over the signal. */
export function averageSpectrum(
  samples: Float32Array,
  sampleRate: number,
  options: { windowSize?: number; maxFrames?: number } = {},
): AverageSpectrum {
  const windowSize = options.windowSize ?? 4096;
  const maxFrames = options.maxFrames ?? 256;
  const binCount = windowSize / 2 + 1;
  const available = samples.length >= windowSize ? Math.floor((samples.length - windowSize) / windowSize) + 1 : 0;
  // A hop that spreads the frames over the whole signal keeps the cost bounded for long songs.
  const hop = available > maxFrames ? Math.floor((samples.length - windowSize) / (maxFrames - 1)) : windowSize;
  const spec = stft(samples, sampleRate, windowSize, hop, maxFrames);
  const power = new Float64Array(binCount);
  let used = 0;
  for (let f = 0; f < spec.frameCount; f++) {
    const row = f * binCount;
    let loud = false;
    for (let b = 0; b < binCount; b++) if ((spec.data[row + b] as number) > MIN_DB) loud = true;
    if (!loud) continue;
    used++;
    for (let b = 0; b < binCount; b++) power[b] = (power[b] as number) + 10 ** ((spec.data[row + b] as number) / 10);
  }
  const levels = new Float32Array(binCount);
  for (let b = 0; b < binCount; b++) {
    const p = used ? (power[b] as number) / used : 0;
    levels[b] = p > 0 ? Math.max(MIN_DB, 10 * Math.log10(p)) : MIN_DB;
  }
  return { binHz: sampleRate / windowSize, levels };
}

/** Where the signal's spectrum ends, and what that suggests about its source. */
export type SpectralCutoff = {
  /** Highest frequency with significant energy (Hz); 0 for silence or faint noise. */
  cutoffHz: number;
  /** True when the spectrum ends in a cliff (an encoder's low-pass), false when it just fades out. */
  sharp: boolean;
  /** Likely source bitrate, from typical MP3/AAC encoder low-pass frequencies. */
  likelySource: string;
};

/** Bands (Hz) the average spectrum is smoothed into before looking for the cutoff. */
const CUTOFF_BAND_HZ = 100;
/** A cutoff is a drop of at least this much (dB) to everything above it. */
const CLIFF_DB = 25;
/** Content more than this far (dB) below the loudest band does not count as significant. */
const SIGNIFICANT_DB = 80;
/** Below this peak level (dBFS) a signal is too faint for its spectrum to say anything about its source. */
const QUIET_PEAK_DBFS = -60;

/**
 * Spectral cutoff (0 with "too quiet to judge" when the peak is under -60 dBFS): the averaged spectrum is smoothed
 * into 100 Hz bands; scanning down from Nyquist, the cutoff is the
 * first band that is within 80 dB of the loudest band and at least 25 dB above every band more than 200 Hz above
 * it (a lossy encoder's low-pass). Without such a cliff it is the highest band within 80 dB of the loudest.
 */
export function spectralCutoff(samples: Float32Array, sampleRate: number): SpectralCutoff {
  // Faint noise has the shape of the encoder's noise floor, not of a source: nothing to judge.
  if (peakDbfs(samples) < QUIET_PEAK_DBFS) return { cutoffHz: 0, sharp: false, likelySource: "too quiet to judge" };
  const { binHz, levels } = averageSpectrum(samples, sampleRate);
  const perBand = Math.max(1, Math.round(CUTOFF_BAND_HZ / binHz));
  const bandCount = Math.floor((levels.length - 1) / perBand);
  const bands = new Float64Array(bandCount);
  for (let k = 0; k < bandCount; k++) {
    let p = 0;
    for (let b = 1 + k * perBand; b < 1 + (k + 1) * perBand; b++) p += 10 ** ((levels[b] as number) / 10);
    bands[k] = p > 0 ? Math.max(MIN_DB, 10 * Math.log10(p / perBand)) : MIN_DB;
  }
  let loudest = MIN_DB;
  for (const v of bands) if (v > loudest) loudest = v;
  const nyquist = sampleRate / 2;
  if (loudest <= MIN_DB) return { cutoffHz: 0, sharp: false, likelySource: "too quiet to judge" };
  const topOfBand = (k: number) => Math.min(nyquist, (1 + (k + 1) * perBand) * binHz);
  const gap = Math.max(1, Math.round(200 / (perBand * binHz)));
  let aboveMax = MIN_DB; // loudest band more than `gap` bands above the current one
  for (let k = bandCount - 1; k >= 0; k--) {
    const above = k + gap < bandCount ? (bands[k + gap] as number) : MIN_DB;
    if (above > aboveMax) aboveMax = above;
    const v = bands[k] as number;
    if (v >= loudest - SIGNIFICANT_DB && v - aboveMax >= CLIFF_DB && k + gap < bandCount) {
      const cutoffHz = topOfBand(k);
      return { cutoffHz, sharp: true, likelySource: likelySourceFor(cutoffHz, nyquist) };
    }
  }
  let k = bandCount - 1;
  while (k > 0 && (bands[k] as number) < loudest - SIGNIFICANT_DB) k--;
  const cutoffHz = topOfBand(k);
  return { cutoffHz, sharp: false, likelySource: likelySourceFor(cutoffHz, nyquist) };
}

/**
 * A likely source bitrate for a cutoff frequency, after the low-pass filters MP3 encoders apply at each bitrate
 * (LAME: 64 kbps ~10-11 kHz, 80-96 ~13.5-15.1 kHz, 112-160 ~15.6-17.5 kHz, 192-224 ~18.5-19.4 kHz, 256-320 ~19.7 kHz
 * and up; measured here with lamejs on the benchmark's music: 96 -> 15.0-15.1, 128 -> 16.1, 192 -> 18.5, 320 -> 20.2).
 */
export function likelySourceFor(cutoffHz: number, nyquistHz = 22050): string {
  if (cutoffHz <= 0) return "silence";
  if (cutoffHz >= nyquistHz * 0.96) return "no low-pass: lossless or high bitrate";
  if (cutoffHz < 8000) return "very low bitrate (48 kbps or less) or telephone-band audio";
  if (cutoffHz < 12500) return "about 64 kbps";
  if (cutoffHz < 15500) return "about 96 kbps";
  if (cutoffHz < 17800) return "about 128 kbps";
  if (cutoffHz < 19600) return "about 192 kbps";
  return "256-320 kbps or lossless";
}

/** The spec's report verdict (§5): likely valid when duration > 30 s, more than 50 fingerprints, silence < 0.5. */
export function specVerdict(input: { durationSeconds: number; fingerprints: number; silenceRatio: number }): {
  likelyValid: boolean;
  reasons: string[];
} {
  const reasons: string[] = [];
  if (!(input.durationSeconds > 30)) reasons.push("shorter than 30 s");
  if (!(input.fingerprints > 50)) reasons.push("50 fingerprints or fewer");
  if (!(input.silenceRatio < 0.5)) reasons.push("silence ratio 0.5 or more");
  return { likelyValid: reasons.length === 0, reasons };
}

/** Measurements the better-founded verdict looks at. */
export type VerdictInput = {
  durationSeconds: number;
  peakDbfs: number;
  rmsDbfs: number;
  clippingRatio: number;
  relativeSilenceRatio: number;
  hashesPerSecond: number;
  cutoffHz: number;
  cutoffSharp: boolean;
};

/** Overall judgement of an upload: "good", "usable" (with warnings) or "poor" (with problems). */
export type QualityVerdict = { verdict: "good" | "usable" | "poor"; problems: string[]; warnings: string[] };

/**
 * A verdict founded on what makes a file recognisable and a faithful copy: enough non-silent audio to fingerprint
 * (density from the default preset), a usable level, little clipping, and a full-band source.
 */
export function qualityVerdict(m: VerdictInput): QualityVerdict {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (m.durationSeconds < 10) problems.push("shorter than 10 s: too little audio to recognise reliably");
  else if (m.durationSeconds < 30) warnings.push("shorter than 30 s: probably a snippet, not a full song");
  if (m.peakDbfs <= MIN_DB || m.relativeSilenceRatio > 0.9) problems.push("almost entirely silent");
  else if (m.relativeSilenceRatio > 0.3) warnings.push("more than 30% silence");
  if (m.rmsDbfs < -45) problems.push("very quiet (RMS below -45 dBFS)");
  if (m.clippingRatio > 0.01) problems.push("heavily clipped (over 1% of samples at full scale)");
  else if (m.clippingRatio > 0.001) warnings.push("some clipping");
  // Real music gives about 85 hashes per second with the default preset (bench/fingerprint.ts); under 10 is a drone.
  if (m.hashesPerSecond < 10) problems.push("too few fingerprints per second: little distinct musical content");
  // A cliff is an encoder's low-pass; a gentle roll-off this low is a narrow-band source: either way not full quality.
  const kind = m.cutoffSharp ? "lossy source" : "narrow-band source";
  if (m.cutoffHz > 0 && m.cutoffHz < 12500)
    problems.push(`spectrum ends below 12.5 kHz: ${kind} (about 64 kbps or less)`);
  else if (m.cutoffHz > 0 && m.cutoffHz < 15000) warnings.push(`spectrum ends below 15 kHz: ${kind} (under 128 kbps)`);
  return { verdict: problems.length ? "poor" : warnings.length ? "usable" : "good", problems, warnings };
}

/** Everything the audio quality report shows, from decoded channels. */
export type QualityReport = {
  durationSeconds: number;
  sampleRate: number;
  channels: number;
  peakDbfs: number;
  rmsDbfs: number;
  clippingRatio: number;
  /** Spec §9: fraction of samples with |x| < 0.01. */
  silenceRatio: number;
  /** Fraction of 50 ms frames more than 45 dB below the loudest one. */
  relativeSilenceRatio: number;
  fingerprints: number;
  fingerprintsPerSecond: number;
  cutoff: SpectralCutoff;
  specVerdict: ReturnType<typeof specVerdict>;
  verdict: QualityVerdict;
  /** The fingerprint with its spectrogram and peaks, for drawing. */
  fingerprint: Fingerprint;
};

/** The level measures of the quality report, on a mono signal. */
export function measureLevels(mono: Float32Array, sampleRate: number) {
  return {
    peakDbfs: peakDbfs(mono),
    rmsDbfs: rmsDbfs(mono),
    clippingRatio: clippingRatio(mono),
    silenceRatio: silenceRatio(mono),
    relativeSilenceRatio: relativeSilenceRatio(mono, sampleRate),
  };
}

/** Measure decoded audio for the quality report (levels on the mono mixdown, fingerprints with `config`). */
export function analyzeQuality(
  channels: readonly Float32Array[],
  sampleRate: number,
  config: FingerprintConfig = DEFAULT_PRESET,
): QualityReport {
  const mono = mixdown(channels);
  const durationSeconds = mono.length / sampleRate;
  const fp = fingerprint(mono, sampleRate, config, { keepSpectrogram: true });
  const cutoff = spectralCutoff(mono, sampleRate);
  const m = measureLevels(mono, sampleRate);
  return {
    durationSeconds,
    sampleRate,
    channels: channels.length,
    ...m,
    fingerprints: fp.hashes.count,
    fingerprintsPerSecond: fp.stats.hashesPerSecond,
    cutoff,
    specVerdict: specVerdict({ durationSeconds, fingerprints: fp.hashes.count, silenceRatio: m.silenceRatio }),
    verdict: qualityVerdict({
      durationSeconds,
      peakDbfs: m.peakDbfs,
      rmsDbfs: m.rmsDbfs,
      clippingRatio: m.clippingRatio,
      relativeSilenceRatio: m.relativeSilenceRatio,
      hashesPerSecond: fp.stats.hashesPerSecond,
      cutoffHz: cutoff.cutoffHz,
      cutoffSharp: cutoff.sharp,
    }),
    fingerprint: fp,
  };
}

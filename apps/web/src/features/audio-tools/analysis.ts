import {
  averageSpectrum,
  DEFAULT_PRESET,
  fingerprint,
  MIN_DB,
  measureLevels,
  mixdown,
  type QualityReport,
  type QualityVerdict,
  qualityVerdict,
  resample,
  SPEC_PRESET,
  type Spectrogram,
  spectralCutoff,
  specVerdict,
} from "@unheard/fingerprint";

/** The average spectrum of the whole band, reduced to a few hundred points for the chart. */
export type SpectrumCurve = {
  /** Frequency (Hz) of each point. */
  hz: Float32Array;
  /** Level of each point, dB relative to the loudest point (0 at the top, `MIN_DB` for nothing). */
  db: Float32Array;
};

/** Everything the audio quality report shows; plain data, so it crosses from the worker by structured clone. */
export type AudioReport = Omit<QualityReport, "fingerprint" | "specVerdict" | "verdict"> & {
  /** Preset the browser-side fingerprints were computed with (the one the server indexes with). */
  preset: string;
  /** Fingerprints with the spec's own constants (§9), which its "more than 50 fingerprints" rule was written for. */
  specFingerprints: number;
  specFingerprintsPerSecond: number;
  specVerdict: ReturnType<typeof specVerdict>;
  verdict: QualityVerdict;
  /** The analysis spectrogram (at the preset's rate) and the peaks picked from it, for the picture. */
  spectrogram: Spectrogram;
  peaks: { count: number; frames: Int32Array; bins: Int32Array };
  spectrum: SpectrumCurve;
  /** Milliseconds the analysis took. */
  elapsedMs: number;
};

/** Reduce an average spectrum (dB per FFT bin) to at most `points` maxima, relative to the loudest. */
export function spectrumCurve(levels: Float32Array, binHz: number, points = 400): SpectrumCurve {
  const bins = levels.length;
  const per = Math.max(1, Math.ceil(bins / points));
  const n = Math.ceil(bins / per);
  const hz = new Float32Array(n);
  const db = new Float32Array(n);
  let top = MIN_DB;
  for (let i = 0; i < n; i++) {
    let m = MIN_DB;
    for (let b = i * per; b < Math.min(bins, (i + 1) * per); b++) m = Math.max(m, levels[b] as number);
    hz[i] = Math.min(bins - 1, i * per + (per - 1) / 2) * binHz;
    db[i] = m;
    if (m > top) top = m;
  }
  for (let i = 0; i < n; i++) db[i] = (db[i] as number) <= MIN_DB ? MIN_DB : (db[i] as number) - top;
  return { hz, db };
}

/**
 * Analyse decoded audio for the quality report, with the package's measures: levels, clipping, both silence
 * ratios and the spectral cutoff on the mono mixdown; fingerprints with the default preset (what the server
 * indexes with) for the density, the picture and the better-founded verdict, and with the spec preset for the
 * spec's own verdict. The same steps as the package's `analyzeQuality`, but the mixdown is resampled once for both
 * presets. Pure and synchronous: the page runs it in a worker.
 */
export function analyzeAudio(channels: readonly Float32Array[], sampleRate: number): AudioReport {
  const started = performance.now();
  if (channels.length === 0 || (channels[0]?.length ?? 0) === 0) throw new Error("the file contains no audio");
  const mono = mixdown(channels);
  const durationSeconds = mono.length / sampleRate;
  const seconds = Math.max(durationSeconds, 1e-9);
  const analysed = resample(mono, sampleRate, DEFAULT_PRESET.sampleRate);
  const fp = fingerprint(analysed, DEFAULT_PRESET.sampleRate, DEFAULT_PRESET, { keepSpectrogram: true });
  const specFp =
    SPEC_PRESET.sampleRate === DEFAULT_PRESET.sampleRate
      ? fingerprint(analysed, SPEC_PRESET.sampleRate, SPEC_PRESET)
      : fingerprint(mono, sampleRate, SPEC_PRESET);
  const spectrogram = fp.spectrogram;
  if (!spectrogram) throw new Error("no spectrogram was computed");
  const cutoff = spectralCutoff(mono, sampleRate);
  const avg = averageSpectrum(mono, sampleRate);
  const levels = measureLevels(mono, sampleRate);
  const fingerprintsPerSecond = fp.hashes.count / seconds;
  return {
    durationSeconds,
    sampleRate,
    channels: channels.length,
    ...levels,
    fingerprints: fp.hashes.count,
    fingerprintsPerSecond,
    cutoff,
    preset: DEFAULT_PRESET.name,
    specFingerprints: specFp.hashes.count,
    specFingerprintsPerSecond: specFp.hashes.count / seconds,
    specVerdict: specVerdict({ durationSeconds, fingerprints: specFp.hashes.count, silenceRatio: levels.silenceRatio }),
    verdict: qualityVerdict({
      durationSeconds,
      peakDbfs: levels.peakDbfs,
      rmsDbfs: levels.rmsDbfs,
      clippingRatio: levels.clippingRatio,
      relativeSilenceRatio: levels.relativeSilenceRatio,
      hashesPerSecond: fingerprintsPerSecond,
      cutoffHz: cutoff.cutoffHz,
      cutoffSharp: cutoff.sharp,
    }),
    spectrogram,
    peaks: {
      count: fp.peaks.count,
      frames: fp.peaks.frames.slice(0, fp.peaks.count),
      bins: fp.peaks.bins.slice(0, fp.peaks.count),
    },
    spectrum: spectrumCurve(avg.levels, avg.binHz),
    elapsedMs: performance.now() - started,
  };
}

/** The buffers of a report that can be moved (not copied) to another thread. */
export function reportTransferables(report: AudioReport): ArrayBuffer[] {
  const buffers = [
    report.spectrogram.data.buffer,
    report.peaks.frames.buffer,
    report.peaks.bins.buffer,
    report.spectrum.hz.buffer,
    report.spectrum.db.buffer,
  ];
  return [...new Set(buffers)].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

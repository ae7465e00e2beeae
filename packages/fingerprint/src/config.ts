/**
 * Every parameter of the fingerprinting pipeline, in one typed object, and the two named presets.
 *
 * Units: sample counts are at `sampleRate` (after resampling); "frames" are STFT frames `hopSize` samples apart;
 * "bins" are FFT bins `sampleRate / windowSize` Hz wide. Spectrogram levels are in dB calibrated so that a
 * full-scale sine reads 0 dB (dBFS), see `dsp.ts`.
 */

/** What the peak threshold is measured against. */
export type ThresholdReference =
  /** The loudest bin of the whole analysed spectrogram (song or clip): gain-independent. */
  | "clip-max"
  /** Absolute dBFS of the frame spectrum (a full-scale sine reads 0 dB): depends on the recording's gain. */
  | "dbfs";

/** How a candidate song's score is turned into a decision. */
export type Scoring =
  /** Spec §9: aligned hashes / query hashes must exceed `minRatio`. */
  | "ratio"
  /** Count of offset-aligned hashes, with a floor and a margin over the runner-up song. */
  | "aligned";

/** All parameters of the pipeline; see `SPEC_PRESET` and `DEFAULT_PRESET`. */
export type FingerprintConfig = {
  /** Preset name, for logs and reports. */
  name: string;
  /** Audio is mixed to mono and resampled to this rate (Hz) before analysis. */
  sampleRate: number;
  /** STFT window (Hann) and FFT length, in samples; a power of two. */
  windowSize: number;
  /** STFT hop between frames, in samples. */
  hopSize: number;
  /** Only the first `maxFrames` frames are analysed; null analyses everything. */
  maxFrames: number | null;
  /** Peaks are only picked between these frequencies (Hz); the DC and Nyquist bins are always excluded. */
  minFrequencyHz: number;
  maxFrequencyHz: number;
  peaks: {
    /** A peak must be at least this loud (dB, negative) relative to `thresholdReference`. */
    thresholdDb: number;
    thresholdReference: ThresholdReference;
    /** Bins below this absolute level (dBFS) never make peaks, so digital silence and dither yield nothing. */
    silenceFloorDb: number;
    /** Local-maximum neighbourhood: full width in frequency bins (odd, centred on the candidate). */
    neighbourhoodBins: number;
    /** Local-maximum neighbourhood: full width in time frames (odd, centred on the candidate). */
    neighbourhoodFrames: number;
    /** Keep at most this many (loudest) peaks per frame; null keeps all. */
    maxPerFrame: number | null;
  };
  pairing: {
    /** Each anchor peak is paired with up to this many following peaks (in time, then frequency order). */
    fanOut: number;
    /** Time between anchor and target, in seconds (converted to whole frames, rounding inwards). */
    minDeltaSeconds: number;
    maxDeltaSeconds: number;
    /** Target zone height: |f2 - f1| at most this many bins; null pairs across the whole band. */
    maxDeltaBins: number | null;
  };
  query: {
    /** A query is fingerprinted this many times, shifted by hopSize / shifts samples each time. */
    shifts: number;
  };
  index: {
    /** Index-time pruning: a hash stored for more than this many (song, offset) rows is dropped; null keeps all. */
    maxPostingsPerHash: number | null;
    /**
     * A query reads its rarest hashes first, while their rows fit this many (null: all of them). Unlike a fixed
     * per-hash cap this scales with the catalogue: on a small one every hash is read, on a large one the rarest
     * (decision 029).
     */
    rowBudget: number | null;
  };
  match: {
    /** Offsets of two matched hashes agree when they differ by at most this (seconds; at least one frame). */
    toleranceSeconds: number;
    /** Count each distinct query hash once per alignment (true) or every matching row (false, the spec). */
    distinctHashes: boolean;
    /** Lookup cap: only the first N rows per hash, ordered by offset (spec §7); null reads every row. */
    maxResultsPerHash: number | null;
    scoring: Scoring;
    /** `ratio` scoring: a match needs aligned / query hashes above this. */
    minRatio: number;
    /** `aligned` scoring: a match needs at least this many aligned hashes... */
    minAligned: number;
    /** ...and this many more than the runner-up song... */
    minMargin: number;
    /** ...and at least this many times the runner-up's count. */
    minMarginRatio: number;
    /** How many ranked candidates to return. */
    maxCandidates: number;
  };
};

/**
 * Spec §9 taken literally: resample to 5512 Hz, window 4096, hop 2048, at most 2000 frames, peak threshold -40 dB
 * (read as 40 dB below the loudest bin of the analysed spectrogram), neighbourhood 5 by 3 (5 frequency bins by
 * 3 frames), pairs with up to 5 following peaks 0.5-1.5 s later, match tolerance 0.5 s, 10 rows per hash
 * (ordered by offset), a match when aligned / query hashes > 0.1.
 */
export const SPEC_PRESET: FingerprintConfig = {
  name: "spec",
  sampleRate: 5512,
  windowSize: 4096,
  hopSize: 2048,
  maxFrames: 2000,
  minFrequencyHz: 0,
  maxFrequencyHz: 2756,
  peaks: {
    thresholdDb: -40,
    thresholdReference: "clip-max",
    silenceFloorDb: -120,
    neighbourhoodBins: 5,
    neighbourhoodFrames: 3,
    maxPerFrame: null,
  },
  pairing: { fanOut: 5, minDeltaSeconds: 0.5, maxDeltaSeconds: 1.5, maxDeltaBins: null },
  query: { shifts: 1 },
  index: { maxPostingsPerHash: null, rowBudget: null },
  match: {
    toleranceSeconds: 0.5,
    distinctHashes: false,
    maxResultsPerHash: 10,
    scoring: "ratio",
    minRatio: 0.1,
    minAligned: 1,
    minMargin: 0,
    minMarginRatio: 1,
    maxCandidates: 10,
  },
};

/**
 * The preset the benchmark (bench/fingerprint.ts) shows works on real music: the spec preset with the departures
 * below, each justified in docs/decisions/008-fingerprint-presets.md.
 */
export const DEFAULT_PRESET: FingerprintConfig = {
  ...SPEC_PRESET,
  name: "default",
  windowSize: 512,
  hopSize: 128,
  maxFrames: null,
  peaks: { ...SPEC_PRESET.peaks, thresholdDb: -60, neighbourhoodBins: 21, neighbourhoodFrames: 13 },
  pairing: { ...SPEC_PRESET.pairing, fanOut: 3, minDeltaSeconds: 0.02, maxDeltaSeconds: 1.2 },
  query: { shifts: 4 },
  // Decision 029: a row budget instead of a fixed cap of 500 rows per hash, which at 1,000 h dropped every hash
  // heard twice in the synthesized catalogue and left the plain pass half its clips.
  index: { maxPostingsPerHash: null, rowBudget: 150_000 },
  match: {
    ...SPEC_PRESET.match,
    toleranceSeconds: 0.025,
    distinctHashes: true,
    maxResultsPerHash: null,
    scoring: "aligned",
    minRatio: 0,
    minAligned: 10,
    minMargin: 5,
    minMarginRatio: 3,
  },
};

/** The named presets, by name. */
export const PRESETS = { spec: SPEC_PRESET, default: DEFAULT_PRESET } as const;

/** A preset name. */
export type PresetName = keyof typeof PRESETS;

/** Quantities derived from a config (frame rates, bin ranges, frame deltas, hash bit layout). */
export type DerivedParams = {
  hopSeconds: number;
  binHz: number;
  binCount: number;
  minBin: number;
  maxBin: number;
  minDeltaFrames: number;
  maxDeltaFrames: number;
  toleranceFrames: number;
  /** Bit widths of the packed hash fields, most significant first: f1, then f2 (or f2 - f1), then dt. */
  f1Bits: number;
  f2Bits: number;
  dtBits: number;
};

const bitsFor = (maxValue: number): number => Math.max(1, Math.ceil(Math.log2(maxValue + 1)));

/** Compute derived quantities and check the config is usable; throws on an invalid config. */
export function deriveParams(config: FingerprintConfig): DerivedParams {
  const { sampleRate, windowSize, hopSize } = config;
  if (!(sampleRate > 0)) throw new Error("sampleRate must be positive");
  if (windowSize < 16 || (windowSize & (windowSize - 1)) !== 0) throw new Error("windowSize must be a power of two");
  if (!(hopSize >= 1 && hopSize <= windowSize && Number.isInteger(hopSize))) throw new Error("bad hopSize");
  const { neighbourhoodBins, neighbourhoodFrames } = config.peaks;
  if (neighbourhoodBins % 2 !== 1 || neighbourhoodFrames % 2 !== 1) throw new Error("neighbourhood sizes must be odd");
  if (!(config.query.shifts >= 1)) throw new Error("query.shifts must be at least 1");
  const hopSeconds = hopSize / sampleRate;
  const binHz = sampleRate / windowSize;
  const binCount = windowSize / 2 + 1;
  const minBin = Math.max(1, Math.ceil(config.minFrequencyHz / binHz));
  // The Nyquist bin is excluded like DC: the resampler's low-pass leaves nothing reliable there.
  const maxBin = Math.min(binCount - 2, Math.floor(config.maxFrequencyHz / binHz));
  if (maxBin < minBin) throw new Error("empty frequency band");
  // Rounding inwards keeps every pair inside the stated time range (spec: 0.5-1.5 s -> 2-4 frames of 0.37 s).
  const minDeltaFrames = Math.max(1, Math.ceil(config.pairing.minDeltaSeconds / hopSeconds - 1e-9));
  const maxDeltaFrames = Math.floor(config.pairing.maxDeltaSeconds / hopSeconds + 1e-9);
  if (maxDeltaFrames < minDeltaFrames) throw new Error("empty pairing time range");
  const toleranceFrames = Math.max(1, Math.floor(config.match.toleranceSeconds / hopSeconds + 1e-9));
  const f1Bits = bitsFor(maxBin);
  const maxDeltaBins = config.pairing.maxDeltaBins;
  const f2Bits = maxDeltaBins === null ? f1Bits : bitsFor(2 * maxDeltaBins);
  const dtBits = bitsFor(maxDeltaFrames - minDeltaFrames);
  // 31 bits keeps every hash a non-negative signed 32-bit integer (SQLite and PostgreSQL `integer`).
  if (f1Bits + f2Bits + dtBits > 31) throw new Error(`hash needs ${f1Bits + f2Bits + dtBits} bits; at most 31 fit`);
  return {
    hopSeconds,
    binHz,
    binCount,
    minBin,
    maxBin,
    minDeltaFrames,
    maxDeltaFrames,
    toleranceFrames,
    f1Bits,
    f2Bits,
    dtBits,
  };
}

/**
 * Speed- and pitch-invariant fingerprints (issue 39, part 1), after Panako (Joren Six, "Panako: a scalable audio
 * search system robust to time-scale and pitch modification", ISMIR 2014): keys hashed from TRIPLETS of spectral
 * peaks by quantities a transform leaves alone.
 *
 * A peak is (t seconds, f semitones on a log-frequency axis). A clip transformed from the stored recording has its
 * peaks at (t / tempo, f + shift): a time-stretch changes tempo only, a pitch shift adds `shift` only, and a
 * resampling-style speed change (a sped-up clip) does both with shift = 12 log2(tempo). For a triplet
 * (t1,f1),(t2,f2),(t3,f3) with t1 < t2 < t3, the time ratio (t2 - t1) / (t3 - t1) does not depend on tempo, and
 * frequency DIFFERENCES on a log axis (f2 - f1, f3 - f1) do not depend on the shift. On a log axis these cover the
 * resampling case too: Panako's ratios of frequency differences exist because its axis is bins; semitone
 * differences are already invariant to scaling every frequency, and keep one more degree of freedom in the key.
 *
 * Log-frequency axis: peaks are picked on an ordinary STFT and their parabolically refined frequencies mapped to
 * fractional semitones (MIDI numbers), rather than on a constant-Q transform. Above ~400 Hz the 7.8 Hz bins are
 * narrower than a constant-Q grid of 36 bands per octave (33 cents), so resampling onto a log grid would lose
 * precision where most peaks are; below, interpolation still places a tone within 5 cents (a test checks 150 Hz).
 * What makes the picking itself pitch-covariant is the neighbourhood: a fixed number of SEMITONES wide (the same
 * musical interval at every height), not a fixed number of bins.
 *
 * Files: this one (keys, triplets, stored entries), invariant-peaks.ts (peaks), invariant-match.ts (matching).
 */
import { resample } from "./dsp.js";
import { type LogPeaks, pickLogPeakSets, pickLogPeaks } from "./invariant-peaks.js";

/** Every parameter of the invariant analysis; see `INVARIANT_PRESET`. */
export type InvariantConfig = {
  /** Audio is resampled to this rate (Hz) before analysis. */
  sampleRate: number;
  /** STFT window (Hann) and hop, in samples. */
  windowSize: number;
  hopSize: number;
  /** Peaks are picked between these frequencies (Hz). */
  minHz: number;
  maxHz: number;
  peaks: {
    /** Bins below this level (dBFS) never make peaks. */
    floorDb: number;
    /**
     * ...nor bins this many dB below the loudest bin within `contextSeconds` either side: noise in the gaps between
     * notes makes peaks no other copy of the recording has. Local, so a clip and its whole song apply the same rule.
     */
    relativeDb: number;
    contextSeconds: number;
    /** A peak is the loudest point within this many semitones either side... */
    semitones: number;
    /** ...but never fewer than this many bins either side (a sine's main lobe is 2 bins wide each way)... */
    minBins: number;
    /** ...and within this many seconds either side. */
    seconds: number;
  };
  triplets: {
    /** Every two points of a triplet are at least this far apart in time (s), so the time ratio is defined. */
    minGapSeconds: number;
    /** The third point is at most this far after the first (s); at most 2.047 (the stored span has 11 bits of ms). */
    maxSpanSeconds: number;
    /** The second and third points lie within this many semitones of the first (the target zone). */
    maxIntervalSemitones: number;
    /** An anchor is combined with the first `targets` peaks of its zone: up to targets * (targets - 1) / 2 keys. */
    targets: number;
  };
  key: {
    /** Quantisation step of the frequency differences (semitones). */
    intervalStep: number;
    /** The time ratio (0..1) is quantised to this many levels. */
    ratioLevels: number;
    /** Add which of the later points is louder than the first (2 bits), as Panako does. */
    levelBits: boolean;
  };
};

/**
 * The preset the tests measure (figures in invariant.test.ts). 8 kHz keeps partials up to 3.4 kHz; a 1,024-sample
 * window (128 ms) resolves 7.8 Hz, 16 ms hops place onsets finely enough for a time ratio (a 512 window lost a
 * fifth of the shared keys). Measured on synthetic music (3 scores, 20 s, the transforms of the tests): the
 * relative threshold took the share of stored keys a transformed clip forms from 25-33% to 41-52% before query
 * widening; a 0.25-semitone interval step costs ~1.5 points against 0.5 for 2 more bits of key; level bits cost
 * 2-5 points before widening (the widening looks close calls up both ways) for 2 bits. ~23 peaks and ~68 stored
 * keys per second of music.
 */
export const INVARIANT_PRESET: InvariantConfig = {
  sampleRate: 8000,
  windowSize: 1024,
  hopSize: 128,
  minHz: 120,
  maxHz: 3400,
  peaks: { floorDb: -75, relativeDb: 35, contextSeconds: 1, semitones: 2, minBins: 2, seconds: 0.1 },
  triplets: { minGapSeconds: 0.04, maxSpanSeconds: 2, maxIntervalSemitones: 12, targets: 4 },
  key: { intervalStep: 0.25, ratioLevels: 10, levelBits: true },
};

/**
 * A sparser preset for a large catalogue, tuned on real music (bench:invariant, wesnoth-1.16-music; figures in
 * bench/results/invariant.md). Real music makes far more peaks than the synthetic scores INVARIANT_PRESET was tuned
 * on: ~40 peaks and ~170 stored keys per second (7.4 MB per hour at 12 bytes, ~10 MB in SQLite), and with its
 * 18.5-bit key a 5 s clip reads ~127,000 rows per catalogue hour. Peaks the loudest within 3 semitones and 0.3 s
 * (~10 per second, ~54 keys) and intervals quantised to 1/8 semitone (2 more bits: 20.5) cut the rows a clip reads
 * per catalogue hour ~16x and the store ~3x, for fewer aligned triplets per clip: still ~20-100 for a 5 s clip
 * sped up, slowed or pitch-shifted, where chance reaches 7.
 */
export const INVARIANT_SPARSE_PRESET: InvariantConfig = {
  ...INVARIANT_PRESET,
  peaks: { ...INVARIANT_PRESET.peaks, semitones: 3, seconds: 0.3 },
  key: { ...INVARIANT_PRESET.key, intervalStep: 0.125 },
};

/** Triplets of one signal: a key, and what a match needs to estimate the factors (structure of arrays). */
export type Triplets = {
  count: number;
  /** Invariant key, a non-negative 31-bit integer. */
  keys: Int32Array;
  /** t1: the first point's time (seconds). */
  times: Float64Array;
  /** f1: the first point's pitch (semitones, MIDI numbers). */
  pitches: Float64Array;
  /** t3 - t1: the triplet's time span (seconds); clip span x tempo = stored span. */
  spans: Float64Array;
  /**
   * The triplet each key belongs to: a query looks one triplet up under several keys (`QueryWidening`), and a match
   * counts it once. The frequency span f3 - f1 is not a field: it is invariant, so the key carries it (`interval3`).
   */
  ids: Int32Array;
};

/** Counts describing an analysed signal: triplets, and keys (more than triplets for a widened query). */
export type TripletStats = { seconds: number; peaks: number; triplets: number; keys: number; keysPerSecond: number };

/** Field sizes of a key: interval levels (each of two), ratio levels, level bits. */
function keyShape(config: InvariantConfig) {
  const half = Math.round(config.triplets.maxIntervalSemitones / config.key.intervalStep);
  const intervals = 2 * half + 1;
  const levelStates = config.key.levelBits ? 4 : 1;
  const size = intervals * intervals * config.key.ratioLevels * levelStates;
  if (size > 2 ** 31) throw new Error("invariant key needs more than 31 bits");
  return { half, intervals, levelStates, size };
}

/** Number of distinct keys a config can make (the key space; its log2 is the key's width in bits). */
export function invariantKeySpace(config: InvariantConfig = INVARIANT_PRESET): number {
  return keyShape(config).size;
}

/** The invariant fields a key is built from (quantised). */
export type KeyFields = {
  /** round((f2 - f1) / intervalStep) and round((f3 - f1) / intervalStep), signed. */
  interval2: number;
  interval3: number;
  /** floor(ratioLevels * (t2 - t1) / (t3 - t1)). */
  ratio: number;
  /** Bit 0: the second point is louder than the first; bit 1: the third is (0 without `levelBits`). */
  louder: number;
};

/** Pack key fields into one non-negative 31-bit integer. */
export function packInvariantKey(k: KeyFields, config: InvariantConfig = INVARIANT_PRESET): number {
  const { half, intervals, levelStates } = keyShape(config);
  return (
    (((k.interval2 + half) * intervals + (k.interval3 + half)) * config.key.ratioLevels + k.ratio) * levelStates +
    k.louder
  );
}

/** Inverse of `packInvariantKey`. */
export function unpackInvariantKey(key: number, config: InvariantConfig = INVARIANT_PRESET): KeyFields {
  const { half, intervals, levelStates } = keyShape(config);
  const louder = key % levelStates;
  let rest = (key - louder) / levelStates;
  const ratio = rest % config.key.ratioLevels;
  rest = (rest - ratio) / config.key.ratioLevels;
  const interval3 = (rest % intervals) - half;
  const interval2 = Math.floor(rest / intervals) - half;
  return { interval2, interval3, ratio, louder };
}

/** How a clip's triplets are made wider than a stored song's, so the clip forms every triplet its song stored. */
export type QueryWidening = {
  /**
   * The clip's peaks are also picked with this time neighbourhood (seconds either side), and their triplets added:
   * in a sped-up clip the song's neighbourhood spans more music, and peaks the song kept lose to their neighbours.
   */
  peakSeconds: number;
  /** The clip's anchors take this many targets: a peak the clip lacks or adds shifts which ones come first. */
  targets: number;
  /** Gap and span limits widened for clips sped up or slowed by up to this factor. */
  timeFactor: number;
  /** A quantised field within this fraction of a step of a boundary is also looked up on the other side. */
  probeMargin: number;
  /** A level comparison closer than this (dB) is looked up both ways. */
  levelMarginDb: number;
};

/** Default widening of a query: peaks also at 0.08 s, 6 targets, +-25% speed, 0.15 of a step, 1.5 dB. */
export const QUERY_WIDENING: QueryWidening = {
  peakSeconds: 0.08,
  targets: 6,
  timeFactor: 1.25,
  probeMargin: 0.15,
  levelMarginDb: 1.5,
};

/** The widening for INVARIANT_SPARSE_PRESET: its clips' second peak set at 0.24 s (0.8 of the song's, as the default). */
export const SPARSE_WIDENING: QueryWidening = { ...QUERY_WIDENING, peakSeconds: 0.24 };

/** The quantised levels a value may take: `k`, plus its neighbour when within `margin` of the boundary. */
function levelsOf(x: number, k: number, lo: number, hi: number, margin: number, out: number[]): number[] {
  out.length = 0;
  out.push(k);
  if (margin <= 0) return out;
  const frac = x - k;
  if (frac < margin - 0.5 && k > lo) out.push(k - 1);
  if (frac > 0.5 - margin && k < hi) out.push(k + 1);
  return out;
}

/**
 * Triplets of peaks: each anchor with the first `targets` later peaks in its zone (at least `minGapSeconds` later,
 * within `maxIntervalSemitones` and `maxSpanSeconds`), every two of them in time order and `minGapSeconds` apart.
 * Targets are chosen by ORDER, not by a time window, so a slowed clip picks the same ones as its song. With `widen`
 * (a query), more targets, wider limits and keys near a quantisation boundary looked up on both sides: a superset
 * of what the song stored for the same passage, at the price of more lookups (nothing more is stored).
 * `widen.peakSeconds` is applied where peaks are picked, by `invariantQuery`.
 */
export function tripletsOf(
  peaks: LogPeaks,
  config: InvariantConfig = INVARIANT_PRESET,
  widen: QueryWidening | null = null,
): Triplets {
  return buildTriplets([peaks], config, widen);
}

/**
 * `tripletsOf` over several peak sets of one clip (picked from one spectrogram): a triplet of the same three peaks
 * in two sets is the same triplet (one id), and each of its keys is kept once.
 */
function buildTriplets(sets: readonly LogPeaks[], config: InvariantConfig, widen: QueryWidening | null): Triplets {
  const { maxIntervalSemitones } = config.triplets;
  const targets = widen ? Math.max(widen.targets, config.triplets.targets) : config.triplets.targets;
  const minGap = widen ? config.triplets.minGapSeconds / widen.timeFactor : config.triplets.minGapSeconds;
  const maxSpan = widen ? config.triplets.maxSpanSeconds * widen.timeFactor : config.triplets.maxSpanSeconds;
  const margin = widen ? widen.probeMargin : 0;
  const levelMargin = widen ? widen.levelMarginDb : 0;
  const { intervalStep, ratioLevels, levelBits } = config.key;
  const { half, intervals, levelStates } = keyShape(config);
  const keys: number[] = [];
  const t1s: number[] = [];
  const f1s: number[] = [];
  const spans: number[] = [];
  const ids: number[] = [];
  const zone: number[] = [];
  const r2: number[] = [];
  const r3: number[] = [];
  const rr: number[] = [];
  const lv: number[] = [];
  // Across sets, a triplet of the same three peaks is made once: peaks are numbered in the union of the sets.
  const union = sets.length > 1 ? unionNumbers(sets) : null;
  const made = new Set<number>();
  let next = 0;
  sets.forEach(({ count, times, pitches, levels }, n) => {
    const number = union?.numbers[n];
    for (let i = 0; i < count; i++) {
      const t1 = times[i] as number;
      const f1 = pitches[i] as number;
      const l1 = levels[i] as number;
      zone.length = 0;
      for (let j = i + 1; j < count && zone.length < targets; j++) {
        const dt = (times[j] as number) - t1;
        if (dt > maxSpan) break;
        if (dt >= minGap && Math.abs((pitches[j] as number) - f1) <= maxIntervalSemitones) zone.push(j);
      }
      for (let a = 0; a < zone.length; a++) {
        const j = zone[a] as number;
        for (let b = a + 1; b < zone.length; b++) {
          const k = zone[b] as number;
          const t2 = times[j] as number;
          const t3 = times[k] as number;
          if (t3 - t2 < minGap) continue;
          if (union && number) {
            const u = union.size;
            const shape = ((number[i] as number) * u + (number[j] as number)) * u + (number[k] as number);
            if (made.has(shape)) continue;
            made.add(shape);
          }
          const id = next++;
          const span = t3 - t1;
          const x = ((t2 - t1) / span) * ratioLevels;
          const ratio = Math.min(ratioLevels - 1, Math.floor(x));
          const x2 = ((pitches[j] as number) - f1) / intervalStep;
          const x3 = ((pitches[k] as number) - f1) / intervalStep;
          levelsOf(x2, Math.round(x2), -half, half, margin, r2);
          levelsOf(x3, Math.round(x3), -half, half, margin, r3);
          // The ratio is floored, so its level's centre is at ratio + 0.5.
          levelsOf(x - 0.5, ratio, 0, ratioLevels - 1, margin, rr);
          lv.length = 0;
          if (levelBits) {
            const d2 = (levels[j] as number) - l1;
            const d3 = (levels[k] as number) - l1;
            for (const b2 of Math.abs(d2) < levelMargin ? [0, 1] : [d2 > 0 ? 1 : 0])
              for (const b3 of Math.abs(d3) < levelMargin ? [0, 2] : [d3 > 0 ? 2 : 0]) lv.push(b2 + b3);
          } else lv.push(0);
          for (const k2 of r2)
            for (const k3 of r3)
              for (const kr of rr)
                for (const l of lv) {
                  keys.push((((k2 + half) * intervals + (k3 + half)) * ratioLevels + kr) * levelStates + l);
                  t1s.push(t1);
                  f1s.push(f1);
                  spans.push(span);
                  ids.push(id);
                }
        }
      }
    }
  });
  return {
    count: keys.length,
    keys: Int32Array.from(keys),
    times: Float64Array.from(t1s),
    pitches: Float64Array.from(f1s),
    spans: Float64Array.from(spans),
    ids: Int32Array.from(ids),
  };
}

/** Each set's peaks numbered in the union of the sets (a peak is the same in two sets when time and pitch are). */
function unionNumbers(sets: readonly LogPeaks[]): { numbers: Int32Array[]; size: number } {
  const byTime = new Map<number, { pitch: number; number: number }[]>();
  let size = 0;
  const numbers = sets.map(({ count, times, pitches }) => {
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const t = times[i] as number;
      const f = pitches[i] as number;
      let list = byTime.get(t);
      if (!list) {
        list = [];
        byTime.set(t, list);
      }
      let known = list.find((p) => p.pitch === f);
      if (!known) {
        known = { pitch: f, number: size++ };
        list.push(known);
      }
      out[i] = known.number;
    }
    return out;
  });
  // Shapes are numbered size^3: exact in a double up to 2^17 peaks (over an hour; a query is a clip).
  if (size > 2 ** 17) throw new Error("too many peaks to merge");
  return { numbers, size };
}

/** Counts of an analysis. */
function statsOf(seconds: number, peaks: number, t: Triplets): TripletStats {
  return {
    seconds,
    peaks,
    triplets: t.ids.reduce((m, id) => Math.max(m, id + 1), 0),
    keys: t.count,
    keysPerSecond: t.count / Math.max(seconds, 1e-9),
  };
}

/** Peaks and triplets of a song to store: mono audio at any sample rate (resampled to the config's rate first). */
export function invariantFingerprint(
  samples: Float32Array,
  sampleRate: number,
  config: InvariantConfig = INVARIANT_PRESET,
): { peaks: LogPeaks; triplets: Triplets; stats: TripletStats } {
  const peaks = pickLogPeaks(resample(samples, sampleRate, config.sampleRate), config);
  const triplets = tripletsOf(peaks, config);
  return { peaks, triplets, stats: statsOf(samples.length / sampleRate, peaks.count, triplets) };
}

/**
 * A clip's triplets to look up (`QueryWidening`): those of its peaks picked as a song's are, and those of its peaks
 * picked with the narrower `peakSeconds`, each widened; a triplet both make (the same three peaks) is kept once.
 * `primary`: the distinct keys the clip forms as a song would (no widening), sorted. Per row read they hold far more
 * of the right song's evidence than the widened ones (bench/results/invariant.md), so a lookup within a row budget
 * reads them first.
 */
export function invariantQuery(
  samples: Float32Array,
  sampleRate: number,
  config: InvariantConfig = INVARIANT_PRESET,
  widen: QueryWidening = QUERY_WIDENING,
): { triplets: Triplets; stats: TripletStats; primary: Int32Array } {
  const x = resample(samples, sampleRate, config.sampleRate);
  const sets = pickLogPeakSets(x, config, [config.peaks.seconds, widen.peakSeconds]);
  const triplets = buildTriplets(sets, config, widen);
  // The first set is picked as a song's peaks are: its unwidened triplets are the keys a song would store.
  const primary = Int32Array.from(new Set(tripletsOf(sets[0] as LogPeaks, config).keys)).sort();
  // Peaks of the narrower neighbourhood: a superset of the other set (every peak of a wider one is a peak of it).
  return { triplets, stats: statsOf(samples.length / sampleRate, (sets[1] as LogPeaks).count, triplets), primary };
}

/**
 * A stored entry's value in 8 bytes (two unsigned 32-bit words; the key is stored beside it, or once per key in a
 * key-value store), most significant first:
 * song (20 bits: ~1 M songs) | t1 in 10 ms (22 bits: 11.6 h) | f1 in 1/16 semitone (11 bits: MIDI 0-127.9) |
 * t3 - t1 in ms (11 bits: up to 2.047 s).
 * The frequency span f3 - f1 is not repeated here: it is invariant, so the key already carries it to `intervalStep`.
 */
export type PackedEntry = { hi: number; lo: number };

/** An entry unpacked: the song's number and the triplet's stored fields (seconds and semitones). */
export type StoredEntry = { song: number; time: number; pitch: number; span: number };

/** Bytes of one stored entry: the 31-bit key as 4 bytes plus the 8-byte value. */
export const INVARIANT_ENTRY_BYTES = 12;

const SONG_LIMIT = 2 ** 20;
const TIME_LIMIT = 2 ** 22;

/** Pack triplet `i` of `t` for song number `song` (layout on `PackedEntry`); times past 11.6 h throw. */
export function packInvariantEntry(song: number, t: Triplets, i: number): PackedEntry {
  if (!(song >= 0 && song < SONG_LIMIT && Number.isInteger(song))) throw new Error("song number out of range");
  const time = Math.round((t.times[i] as number) * 100);
  if (time >= TIME_LIMIT) throw new Error("triplet time out of range");
  const pitch = Math.min(2047, Math.max(0, Math.round((t.pitches[i] as number) * 16)));
  const span = Math.min(2047, Math.round((t.spans[i] as number) * 1000));
  return {
    hi: (song * 4096 + Math.floor(time / 1024)) >>> 0,
    lo: ((time % 1024) * 2 ** 22 + pitch * 2048 + span) >>> 0,
  };
}

/** Inverse of `packInvariantEntry` (to its resolution: 10 ms, 1/16 semitone, 1 ms). */
export function unpackInvariantEntry(hi: number, lo: number): StoredEntry {
  const song = Math.floor(hi / 4096);
  const time = (hi % 4096) * 1024 + Math.floor(lo / 2 ** 22);
  const pitch = Math.floor(lo / 2048) % 2048;
  const span = lo % 2048;
  return { song, time: time / 100, pitch: pitch / 16, span: span / 1000 };
}

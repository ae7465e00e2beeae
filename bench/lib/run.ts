import { basename } from "node:path";
import {
  type Certainty,
  certaintyOf,
  decide,
  estimateTempo,
  type FingerprintConfig,
  fingerprint,
  fingerprintQuery,
  type Hashes,
  isStretched,
  type MatchResult,
  MemoryIndex,
  matchWarped,
  mixdown,
  prepareWarpQuery,
  resample,
  type Warp,
  type WarpSearch,
} from "@unheard/fingerprint";
import { corpusFiles, type Decoded, decodeFile } from "./corpus.js";
import { OPUS_RATE, opusRoundTrip } from "./opus.js";
import { createRandom, shuffled } from "./random.js";
import { applyTransform, sourceSecondsFor, type Transform, transformsUnavailable } from "./transforms.js";

/** The second pass runs on clips at least this long, on their last WARP_MAX_SECONDS (as the server does). */
const WARP_MIN_SECONDS = 3;
const WARP_MAX_SECONDS = 8;

/** What to run. */
export type BenchOptions = {
  presets: FingerprintConfig[];
  queriesPerCondition: number;
  clipSeconds: number[];
  /** SNRs in dB of the white-noise conditions (noise RMS relative to the clip's RMS); the clean condition is always run. */
  snrsDb: number[];
  /** Bitrate of the Opus round-trip condition (bits/s); null skips it. */
  opusBitrate: number | null;
  /** Fraction of tracks held out of the catalogue as negatives. */
  holdOut: number;
  seed: number;
  /** A query is correct when the right song is found within this many seconds of the true offset. */
  offsetToleranceSeconds: number;
  /** Use only the first N tracks of the shuffled corpus (quick runs). */
  maxTracks: number | null;
  log: (line: string) => void;
  /** Transformed-query conditions (issue 17), run on clips of `transformSeconds` with noise at `transformSnrDb`. */
  transforms: Transform[];
  transformSeconds: number;
  transformSnrDb: number;
  /** Presets (by name) that run the warped second pass when the plain one finds nothing. */
  warp: Record<string, WarpSearch>;
  /** Only the conditions whose name contains one of these (a quicker run while trying an idea); all when empty. */
  only?: string[];
  /** Replaceable for development (e.g. a decode cache); the default uses audio-decode. */
  decode?: (path: string) => Promise<Decoded>;
};

/** How strongly the best candidate stood out for one query, and what it was. */
export type Score = {
  aligned: number;
  lead: number;
  track: string;
  start: number;
  best: string;
  offsetSeconds: number;
};

/** Outcome counts of one condition for one preset. */
export type ConditionResult = {
  condition: string;
  queries: number;
  correct: number;
  wrongSong: number;
  wrongOffset: number;
  noMatch: number;
  negatives: number;
  falsePositives: number;
  /** Positives asked again as if their song were not in the catalogue (leave-one-out): a match is a false positive. */
  leaveOneOut: number;
  leaveOneOutFalsePositives: number;
  /** Wall-clock and process CPU time of each positive query (fingerprint + match). */
  latenciesMs: number[];
  cpuMs: number[];
  /** Process CPU time of each out-of-catalogue query: how fast unknown music is refused (issue 30). */
  negativeCpuMs: number[];
  /** Best candidate's aligned count and lead over the runner-up, for each negative (whether decided or not). */
  negativeScores: Score[];
  /** The same for positives whose best candidate is the right song. */
  positiveScores: Score[];
  leaveOneOutScores: Score[];
  /** Positives that were not answered correctly, for inspection. */
  misses: (Score & { kind: "no match" | "wrong song" | "wrong offset" })[];
  /** Transformed conditions: the true warp, and the warp reported with each correct answer (identity for plain). */
  truth: Warp | null;
  detected: Warp[];
  /** Queries answered by the second pass. */
  secondPass: number;
  /** The certainty words of correct answers, and of wrong ones (decision 028). */
  certainty: Record<Certainty, number>;
  wrongCertainty: Record<Certainty, number>;
};

/** Everything measured for one preset. */
export type PresetResult = {
  preset: FingerprintConfig;
  conditions: ConditionResult[];
  indexedSeconds: number;
  decodeMs: number;
  fingerprintMs: number;
  /** Process CPU time of decoding and of fingerprinting (robust to other load on the machine). */
  decodeCpuMs: number;
  fingerprintCpuMs: number;
  indexBuildMs: number;
  hashesGenerated: number;
  postingsStored: number;
  prunedHashes: number;
};

/** The whole run. */
export type BenchResult = {
  tracks: number;
  catalogueTracks: number;
  heldOutTracks: number;
  heldOutNames: string[];
  catalogueSeconds: number;
  opusSkipped: string | null;
  transformsSkipped: string | null;
  presets: PresetResult[];
};

type Track = { path: string; name: string; catalogue: boolean; seconds: number; sampleRate: number; peak: number };
type ClipSpec = { track: Track; start: number; length: number; seconds: number; positive: boolean; seed: number };
/** `source` runs on past the clip, for transforms that read more audio than they output (speed-ups). */
type Clip = ClipSpec & { samples: Float32Array; source: Float32Array };

const MIN_CLIP_PEAK = 1e-4; // a clip of digital silence is unrecognisable by any method, so it is drawn again

function peakOf(x: Float32Array): number {
  let p = 0;
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i] as number);
    if (a > p) p = a;
  }
  return p;
}

function rmsOf(x: Float32Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] as number) ** 2;
  return Math.sqrt(s / Math.max(1, x.length));
}

/** White Gaussian noise at `snrDb` below the clip's RMS, from a seeded generator. */
function withNoise(x: Float32Array, snrDb: number, seed: number): Float32Array {
  const random = createRandom(seed);
  const sigma = rmsOf(x) * 10 ** (-snrDb / 20);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i] as number) + sigma * random.gaussian();
  return out;
}

/** Run the benchmark: index the catalogue with every preset, then query clips under every condition. */
export async function runBenchmark(options: BenchOptions): Promise<BenchResult> {
  const { log, presets } = options;
  const decode = options.decode ?? decodeFile;
  const random = createRandom(options.seed);
  let files = corpusFiles(log);
  files = shuffled(files, random);
  if (options.maxTracks !== null) files = files.slice(0, options.maxTracks);
  const heldOut = Math.max(1, Math.ceil(files.length * options.holdOut));
  const tracks: Track[] = files.map((path, i) => ({
    path,
    name: basename(path, ".ogg"),
    catalogue: i >= heldOut,
    seconds: 0,
    sampleRate: 0,
    peak: 0,
  }));

  // Pass 1: decode every track, fingerprint and index the catalogue with each preset.
  const indexes = presets.map((p) => new MemoryIndex(p));
  const results: PresetResult[] = presets.map((preset) => ({
    preset,
    conditions: [],
    indexedSeconds: 0,
    decodeMs: 0,
    fingerprintMs: 0,
    decodeCpuMs: 0,
    fingerprintCpuMs: 0,
    indexBuildMs: 0,
    hashesGenerated: 0,
    postingsStored: 0,
    prunedHashes: 0,
  }));
  let catalogueSeconds = 0;
  for (const [i, track] of tracks.entries()) {
    const audio = await decode(track.path);
    const mono = mixdown(audio.channelData);
    track.sampleRate = audio.sampleRate;
    track.seconds = mono.length / audio.sampleRate;
    track.peak = peakOf(mono);
    log(
      `  [${i + 1}/${tracks.length}] ${track.name} ${track.seconds.toFixed(0)} s${track.catalogue ? "" : " (held out)"}`,
    );
    if (!track.catalogue) continue;
    catalogueSeconds += track.seconds;
    for (const [p, preset] of presets.entries()) {
      const r = results[p] as PresetResult;
      // Mixdown is part of indexing; it is cheap but counted once per preset so each preset's speed stands alone.
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const fp = fingerprint(mixdown(audio.channelData), audio.sampleRate, preset);
      r.fingerprintMs += performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      r.fingerprintCpuMs += (cpu.user + cpu.system) / 1000;
      r.decodeMs += audio.decodeMs;
      r.decodeCpuMs += audio.decodeCpuMs;
      r.indexedSeconds += track.seconds;
      r.hashesGenerated += fp.hashes.count;
      (indexes[p] as MemoryIndex).add(track.name, fp.hashes);
    }
  }
  for (const [p, index] of indexes.entries()) {
    const r = results[p] as PresetResult;
    const start = performance.now();
    const stats = index.stats(); // sorts and prunes
    r.indexBuildMs = performance.now() - start;
    r.postingsStored = stats.postings;
    r.prunedHashes = stats.prunedHashes;
  }

  // Query plan: clip positions drawn with the seeded generator, paired across noise conditions.
  const usable = (t: Track, seconds: number) => t.seconds >= seconds + 0.5 && t.peak > 1e-3;
  const specs: ClipSpec[] = [];
  for (const seconds of options.clipSeconds) {
    for (const positive of [true, false]) {
      const pool = tracks.filter((t) => t.catalogue === positive && usable(t, seconds));
      if (pool.length === 0) throw new Error(`no ${positive ? "catalogue" : "held-out"} track is ${seconds} s long`);
      for (let q = 0; q < options.queriesPerCondition; q++) {
        const track = pool[random.int(pool.length)] as Track;
        const length = Math.round(seconds * track.sampleRate);
        const total = Math.floor(track.seconds * track.sampleRate);
        const start = random.int(total - length + 1);
        specs.push({ track, start, length, seconds, positive, seed: random.int(2 ** 31) });
      }
    }
  }

  // Pass 2: decode again and cut the clips (keeping all tracks in memory would need gigabytes).
  const clips: Clip[] = [];
  for (const track of tracks) {
    const mine = specs.filter((s) => s.track === track);
    if (mine.length === 0) continue;
    const audio = await decode(track.path);
    const mono = mixdown(audio.channelData);
    for (const spec of mine) {
      let start = spec.start;
      const redraw = createRandom(spec.seed);
      for (let tries = 0; tries < 50 && peakOf(mono.subarray(start, start + spec.length)) < MIN_CLIP_PEAK; tries++) {
        start = redraw.int(mono.length - spec.length + 1);
      }
      const sourceEnd = Math.min(mono.length, start + Math.round(sourceSecondsFor(spec.seconds) * track.sampleRate));
      clips.push({
        ...spec,
        start,
        samples: mono.slice(start, start + spec.length),
        source: mono.slice(start, sourceEnd),
      });
    }
  }

  type Condition = {
    name: string;
    seconds: number;
    truth?: Warp;
    make: (clip: Clip) => { samples: Float32Array; rate: number };
  };
  const conditions: Condition[] = [];
  for (const seconds of options.clipSeconds) {
    conditions.push({
      name: `${seconds} s clean`,
      seconds,
      make: (c) => ({ samples: c.samples, rate: c.track.sampleRate }),
    });
    for (const snr of options.snrsDb) {
      conditions.push({
        name: `${seconds} s noise ${snr} dB SNR`,
        seconds,
        make: (c) => ({ samples: withNoise(c.samples, snr, c.seed + snr * 7919), rate: c.track.sampleRate }),
      });
    }
  }
  let opusSkipped: string | null = options.opusBitrate === null ? "not requested" : null;
  if (options.opusBitrate !== null) {
    const at48k = clips.map((c) => resample(c.samples, c.track.sampleRate, OPUS_RATE));
    const encoded = opusRoundTrip(at48k, options.opusBitrate);
    if ("reason" in encoded) {
      opusSkipped = encoded.reason;
    } else {
      const byClip = new Map(clips.map((c, i) => [c, encoded.clips[i] as Float32Array]));
      for (const seconds of options.clipSeconds) {
        conditions.push({
          name: `${seconds} s Opus ${options.opusBitrate / 1000} kbps`,
          seconds,
          make: (c) => ({ samples: byClip.get(c) as Float32Array, rate: OPUS_RATE }),
        });
      }
    }
  }

  const transformsSkipped = options.transforms.length ? transformsUnavailable() : "not requested";
  if (!transformsSkipped) {
    const seconds = options.transformSeconds;
    for (const t of options.transforms) {
      conditions.push({
        name: `${seconds} s ${t.name}, ${t.snrDb ?? options.transformSnrDb} dB SNR`,
        seconds,
        truth: t.truth,
        make: (c) => {
          const out = applyTransform(c.source, c.track.sampleRate, t);
          const clip = out.slice(0, c.length);
          return {
            samples: withNoise(clip, t.snrDb ?? options.transformSnrDb, c.seed + 104729),
            rate: c.track.sampleRate,
          };
        },
      });
    }
  }

  if (options.only?.length) {
    const wanted = options.only;
    const kept = conditions.filter((c) => wanted.some((w) => c.name.includes(w)));
    conditions.length = 0;
    conditions.push(...kept);
  }

  /**
   * Plain matching, then (for presets with a warp search, clips long enough and no plain match) the warped second
   * pass on the clip's last seconds, against `index` or against the index without `without` (leave-one-out).
   */
  const recognise = (
    preset: FingerprintConfig,
    index: MemoryIndex,
    samples: Float32Array,
    rate: number,
    plain: MatchResult,
    hashes: Hashes,
    without?: string,
  ): { match: MatchResult["match"]; candidates: MatchResult["candidates"]; warp: Warp | null; second: boolean } => {
    const search = options.warp[preset.name];
    const plainOthers = without
      ? decide(
          plain.candidates.filter((c) => c.songId !== without),
          preset,
        )
      : plain;
    if (plainOthers.match && search) {
      // A time-stretch matches on the plain pass; its tempo is read from the matched hashes.
      const e = estimateTempo(hashes, index.lookup, plainOthers.match.songId, preset, search.tempo);
      if (isStretched(e)) {
        const m = { ...plainOthers.match, offsetSeconds: e.offsetFrames * (preset.hopSize / preset.sampleRate) };
        return { ...plainOthers, match: m, warp: { tempo: e.tempo, pitch: 1 }, second: false };
      }
    }
    if (plainOthers.match || !search || samples.length < WARP_MIN_SECONDS * rate)
      return { ...plainOthers, warp: null, second: false };
    const keep = Math.min(samples.length, Math.round(WARP_MAX_SECONDS * rate));
    const skipped = (samples.length - keep) / rate;
    const query = prepareWarpQuery(samples.subarray(samples.length - keep), rate, preset, search.dereverb);
    const view = without
      ? {
          lookup: (h: number) => index.lookup(h).filter((p) => p.songId !== without),
          songRows: (ids: readonly string[]) => index.songRows(ids.filter((id) => id !== without)),
        }
      : { lookup: index.lookup, songRows: (ids: readonly string[]) => index.songRows(ids) };
    const w = matchWarped(query, view, search);
    if (!w.match) return { ...plainOthers, warp: null, second: false };
    const shift = (c: (typeof w.candidates)[number]) => ({
      ...c,
      offsetSeconds: c.offsetSeconds - skipped * c.warp.tempo,
    });
    return { match: shift(w.match), candidates: w.candidates.map(shift), warp: w.match.warp, second: true };
  };

  for (const [p, preset] of presets.entries()) {
    const index = indexes[p] as MemoryIndex;
    const r = results[p] as PresetResult;
    log(`  querying preset ${preset.name}...`);
    for (const condition of conditions) {
      const out: ConditionResult = {
        condition: condition.name,
        queries: 0,
        correct: 0,
        wrongSong: 0,
        wrongOffset: 0,
        noMatch: 0,
        negatives: 0,
        falsePositives: 0,
        leaveOneOut: 0,
        leaveOneOutFalsePositives: 0,
        latenciesMs: [],
        cpuMs: [],
        negativeCpuMs: [],
        negativeScores: [],
        positiveScores: [],
        leaveOneOutScores: [],
        misses: [],
        truth: condition.truth ?? null,
        detected: [],
        secondPass: 0,
        certainty: { sure: 0, likely: 0, weak: 0 },
        wrongCertainty: { sure: 0, likely: 0, weak: 0 },
      };
      for (const clip of clips) {
        if (clip.seconds !== condition.seconds) continue;
        const { samples, rate } = condition.make(clip);
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        const query = fingerprintQuery(samples, rate, preset);
        const plain = index.match(query.hashes);
        const result = recognise(preset, index, samples, rate, plain, query.hashes);
        const elapsed = performance.now() - start;
        const cpu = process.cpuUsage(cpuStart);
        const [best, second] = result.candidates;
        const score: Score = {
          aligned: best?.aligned ?? 0,
          lead: (best?.aligned ?? 0) - (second?.aligned ?? 0),
          track: clip.track.name,
          start: clip.start / clip.track.sampleRate,
          best: best?.songId ?? "",
          offsetSeconds: best?.offsetSeconds ?? 0,
        };
        if (!clip.positive) {
          out.negatives++;
          out.negativeCpuMs.push((cpu.user + cpu.system) / 1000);
          out.negativeScores.push(score);
          if (result.match) out.falsePositives++;
          continue;
        }
        out.queries++;
        out.latenciesMs.push(elapsed);
        out.cpuMs.push((cpu.user + cpu.system) / 1000);
        if (best?.songId === clip.track.name) out.positiveScores.push(score);
        // The same query against the catalogue minus its own song: another out-of-catalogue negative.
        const loo = recognise(preset, index, samples, rate, plain, query.hashes, clip.track.name);
        const others = loo.candidates.filter((c) => c.songId !== clip.track.name);
        out.leaveOneOut++;
        if (loo.match) out.leaveOneOutFalsePositives++;
        const [b2, s2] = others;
        out.leaveOneOutScores.push({
          ...score,
          aligned: b2?.aligned ?? 0,
          lead: (b2?.aligned ?? 0) - (s2?.aligned ?? 0),
          best: b2?.songId ?? "",
          offsetSeconds: b2?.offsetSeconds ?? 0,
        });
        const trueOffset = clip.start / clip.track.sampleRate;
        const word = result.match
          ? certaintyOf(
              result.match.aligned,
              result.candidates.find((c) => c.songId !== result.match?.songId)?.aligned ?? 0,
              result.second ? "warped" : "plain",
            )
          : null;
        if (
          word &&
          (result.match?.songId !== clip.track.name ||
            Math.abs((result.match?.offsetSeconds ?? 0) - trueOffset) > options.offsetToleranceSeconds)
        )
          out.wrongCertainty[word]++;
        else if (word) out.certainty[word]++;
        if (!result.match) {
          out.noMatch++;
          out.misses.push({ ...score, kind: "no match" });
        } else if (result.match.songId !== clip.track.name) {
          out.wrongSong++;
          out.misses.push({ ...score, kind: "wrong song" });
        } else if (Math.abs(result.match.offsetSeconds - trueOffset) > options.offsetToleranceSeconds) {
          out.wrongOffset++;
          out.misses.push({ ...score, kind: "wrong offset" });
        } else {
          out.correct++;
          out.detected.push(result.warp ?? { tempo: 1, pitch: 1 });
          if (result.second) out.secondPass++;
        }
      }
      r.conditions.push(out);
    }
  }
  return {
    tracks: tracks.length,
    catalogueTracks: tracks.filter((t) => t.catalogue).length,
    heldOutTracks: heldOut,
    heldOutNames: tracks.filter((t) => !t.catalogue).map((t) => t.name),
    catalogueSeconds,
    opusSkipped,
    transformsSkipped,
    presets: results,
  };
}

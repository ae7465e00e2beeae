// The measuring loop of bench:invariant: index the real corpus with the invariant fingerprint, then for every
// condition and clip analyse the clip once and look it up in every catalogue size under every strategy.
import {
  INVARIANT_MATCH,
  type InvariantConfig,
  InvariantIndex,
  invariantFingerprint,
  invariantQuery,
  matchInvariant,
  type QueryWidening,
} from "@unheard/fingerprint";
import { type ClipSpec, drawClips, type InvariantCondition, makeClip } from "./invariant-clips.js";
import { Catalogue, CompositeStore } from "./invariant-store.js";
import { decides, lookupOf, type Strategy, selectRows } from "./invariant-strategies.js";
import { CLIP_RATE, type Corpus, catalogueOf } from "./scale-corpus.js";

export type RunOptions = {
  corpus: Corpus;
  config: InvariantConfig;
  widening: QueryWidening;
  conditions: InvariantCondition[];
  lengths: number[];
  clipsPerLength: number;
  /** Catalogue sizes beyond the corpus (hours); the corpus alone is always the first. */
  hours: number[];
  strategies: Strategy[];
  /** Rows past which a strategy's selection is only counted, not read and matched (catalogues beyond the corpus). */
  cap: number;
  seed: number;
  toleranceSeconds: number;
  log: (line: string) => void;
};

/** Outcomes of one (catalogue, strategy, condition, clip length). */
export type Outcome = {
  clips: number;
  /** Right song within the tolerance of the true offset. */
  found: number;
  wrongSong: number;
  wrongOffset: number;
  noMatch: number;
  /** Clips whose rows were only counted (past the cap). */
  notRead: number;
  /** Unknown music matched, and leave-one-out negatives (the clip without its own song) matched. */
  falsePositives: number;
  leaveOneOut: number;
  leaveOneOutFalsePositives: number;
  rows: number[];
  keysRead: number[];
  keys: number[];
  scans: number[];
  /** CPU ms of matchInvariant on the rows read (choosing and reading them excluded: see the report). */
  matchMs: number[];
  /** CPU ms of the clip's analysis plus its match: the answer's compute, rows' reading excluded. */
  answerMs: number[];
  /** Of found clips: |estimated tempo / true - 1| (fraction) and |estimated pitch - true| (semitones). */
  tempoErrors: number[];
  pitchErrors: number[];
  /** The right song's score (found clips), and the best score of another song (every positive and unknown clip). */
  scores: number[];
  chanceScores: number[];
  /** Wrong answers and false positives, described (clip, answer). */
  errors: string[];
};

export type IndexFigures = {
  tracks: number;
  seconds: number;
  peaks: number;
  entries: number;
  distinctKeys: number;
  distinctComposites: number;
  /** CPU ms of invariantFingerprint over the catalogue (audio already decoded, at 11,025 Hz). */
  fingerprintCpuMs: number;
};

export type RunResult = {
  index: IndexFigures;
  store: CompositeStore;
  catalogues: { label: string; hours: number; fillerSongs: number }[];
  outcomes: Map<string, Outcome>;
  /** CPU ms of invariantQuery per clip, and its distinct keys, by condition and length. */
  analysis: Map<string, Analysis>;
  clips: ClipSpec[];
};

/** Per condition and length: CPU ms of invariantQuery, its distinct keys and its primary keys. */
export type Analysis = { cpuMs: number[]; keys: number[]; primaryKeys: number[] };

export const outcomeKey = (catalogue: number, strategy: string, condition: string, seconds: number) =>
  `${catalogue}|${strategy}|${condition}|${seconds}`;

const cpuMs = (start: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(start);
  return (c.user + c.system) / 1000;
};

const emptyOutcome = (): Outcome => ({
  clips: 0,
  found: 0,
  wrongSong: 0,
  wrongOffset: 0,
  noMatch: 0,
  notRead: 0,
  falsePositives: 0,
  leaveOneOut: 0,
  leaveOneOutFalsePositives: 0,
  rows: [],
  keysRead: [],
  keys: [],
  scans: [],
  matchMs: [],
  answerMs: [],
  tempoErrors: [],
  pitchErrors: [],
  scores: [],
  chanceScores: [],
  errors: [],
});

/** Index the corpus's catalogue tracks (an InvariantIndex and the composite store). */
export function indexCorpus(
  corpus: Corpus,
  config: InvariantConfig,
  log: (line: string) => void,
): { index: IndexFigures; store: CompositeStore; memory: InvariantIndex } {
  const store = new CompositeStore();
  const memory = new InvariantIndex();
  let peaks = 0;
  let seconds = 0;
  let cpu = 0;
  const { indexes } = catalogueOf(corpus);
  for (const i of indexes) {
    const t = corpus.tracks[i] as Corpus["tracks"][number];
    const x = Float32Array.from(t.pcm, (v) => v / 32768);
    const start = process.cpuUsage();
    const fp = invariantFingerprint(x, CLIP_RATE, config);
    cpu += cpuMs(start);
    peaks += fp.peaks.count;
    seconds += t.seconds;
    store.add(t.name, t.seconds, fp.triplets);
    memory.add(t.name, fp.triplets);
  }
  store.build();
  const s = store.stats();
  const m = memory.stats();
  if (m.entries !== s.entries || m.distinctKeys !== s.distinctKeys)
    throw new Error("the composite store and InvariantIndex disagree");
  log(
    `  indexed ${indexes.length} tracks, ${(seconds / 3600).toFixed(2)} h: ${(s.entries / seconds).toFixed(1)} entries/s, ${s.distinctKeys.toLocaleString("en")} distinct keys, ${(cpu / 1000).toFixed(1)} s CPU`,
  );
  return {
    index: {
      tracks: indexes.length,
      seconds,
      peaks,
      entries: s.entries,
      distinctKeys: s.distinctKeys,
      distinctComposites: s.distinctComposites,
      fingerprintCpuMs: cpu,
    },
    store,
    memory,
  };
}

/** Run every condition on every clip against every catalogue and strategy. */
export function runInvariant(opts: RunOptions): RunResult {
  const { corpus, log } = opts;
  const { index, store, memory } = indexCorpus(corpus, opts.config, log);
  const corpusHours = index.seconds / 3600;
  const catalogues = [corpusHours, ...opts.hours.filter((h) => h > corpusHours)].map(
    (h, n) => new Catalogue(store, h, corpusHours, opts.seed * 1000 + n),
  );
  const labels = catalogues.map((c, n) =>
    n === 0 ? `corpus ${c.hours.toFixed(1)} h` : `${c.hours.toLocaleString("en")} h`,
  );
  const songOf = new Map(store.songIds.map((id, n) => [id, n]));
  const clips = drawClips(corpus, opts.lengths, opts.clipsPerLength, opts.seed);
  const outcomes = new Map<string, Outcome>();
  const analysis = new Map<string, Analysis>();
  const rules = INVARIANT_MATCH;
  const started = performance.now();
  for (const condition of opts.conditions) {
    const t0 = performance.now();
    for (const spec of clips) {
      if (spec.unknown !== (condition.unknown ?? false)) continue;
      const track = corpus.tracks[spec.track] as Corpus["tracks"][number];
      const x = makeClip(corpus, spec, condition, CLIP_RATE);
      const a0 = process.cpuUsage();
      const query = invariantQuery(x, CLIP_RATE, opts.config, opts.widening);
      const aMs = cpuMs(a0);
      const q = query.triplets;
      const primary = new Set(query.primary);
      const aKey = `${condition.name}|${spec.seconds}`;
      const an = analysis.get(aKey) ?? { cpuMs: [], keys: [], primaryKeys: [] };
      an.cpuMs.push(aMs);
      an.keys.push(new Set(q.keys).size);
      an.primaryKeys.push(primary.size);
      analysis.set(aKey, an);
      const song = spec.unknown ? -1 : (songOf.get(track.name) as number);
      const trueOffset = spec.start / CLIP_RATE;
      catalogues.forEach((catalogue, c) => {
        if (c > 0 && !condition.atScale) return;
        for (const strategy of opts.strategies) {
          const key = outcomeKey(c, strategy.name, condition.name, spec.seconds);
          const o = outcomes.get(key) ?? emptyOutcome();
          outcomes.set(key, o);
          o.clips++;
          const sel = selectRows(q, catalogue, strategy, c === 0 ? Number.POSITIVE_INFINITY : opts.cap, primary, rules);
          if (c === 0 && strategy.budget === null && !strategy.ranges) {
            // The baseline at the corpus's size reads exactly what InvariantIndex holds.
            let rows = 0;
            for (const k of new Set(q.keys)) rows += memory.lookup(k).count;
            if (rows !== sel.rows) throw new Error(`rows ${sel.rows} != InvariantIndex's ${rows}`);
          }
          o.rows.push(sel.rows);
          o.keys.push(sel.keys);
          o.keysRead.push(sel.keysRead);
          o.scans.push(sel.scans);
          if (!sel.read) {
            o.notRead++;
            continue;
          }
          const m0 = process.cpuUsage();
          const result = matchInvariant(q, lookupOf(sel), [], rules);
          const mMs = cpuMs(m0);
          o.matchMs.push(mMs);
          o.answerMs.push(aMs + mMs);
          const others = result.candidates.filter((k) => k.song !== song);
          o.chanceScores.push(others[0]?.score ?? 0);
          const at = `${track.name} at ${trueOffset.toFixed(1)} s`;
          const said = (k: { song: number; score: number; offsetSeconds: number } | undefined) =>
            k ? `${catalogue.songId(k.song)} at ${k.offsetSeconds.toFixed(1)} s (score ${k.score})` : "";
          if (spec.unknown) {
            if (result.match) {
              o.falsePositives++;
              o.errors.push(`unknown ${at}: ${said(result.match)}`);
            }
            continue;
          }
          o.leaveOneOut++;
          if (decides(others, rules)) {
            o.leaveOneOutFalsePositives++;
            o.errors.push(`leave-one-out ${at}: ${said(others[0])}, runner-up ${others[1]?.score ?? 0}`);
          }
          const m = result.match;
          if (!m) o.noMatch++;
          else if (m.song !== song) {
            o.wrongSong++;
            o.errors.push(`wrong song ${at}: ${said(m)}`);
          } else if (Math.abs(m.offsetSeconds - trueOffset) > opts.toleranceSeconds) {
            o.wrongOffset++;
            o.errors.push(`wrong offset ${at}: ${said(m)}`);
          } else {
            o.found++;
            o.scores.push(m.score);
            o.tempoErrors.push(Math.abs(m.timeFactor / condition.tempo - 1));
            o.pitchErrors.push(Math.abs(m.pitchSemitones - condition.semitones));
          }
        }
      });
    }
    log(
      `  ${condition.name}: ${((performance.now() - t0) / 1000).toFixed(0)} s (${((performance.now() - started) / 60000).toFixed(1)} min so far)`,
    );
  }
  return {
    index,
    store,
    catalogues: catalogues.map((c, n) => ({ label: labels[n] as string, hours: c.hours, fillerSongs: c.fillerSongs })),
    outcomes,
    analysis,
    clips,
  };
}

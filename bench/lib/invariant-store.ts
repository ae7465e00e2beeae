// The in-memory store of bench:invariant and its synthetic filler. The real catalogue's entries (the corpus's
// triplets, packed as packInvariantEntry packs them) are sorted by a COMPOSITE key: the invariant key followed by a
// coarse, non-invariant suffix (the band of the triplet's first pitch and the band of its time span), so a lookup
// can read a whole key (strategies "all" and "rarest") or only the suffix ranges a clip's triplet can match
// (strategies "ranges"), as a B-tree on (key, suffix, entry) would.
//
// Filler: a catalogue of `hours` of audio is the corpus plus synthesized songs whose entries copy the (key, pitch,
// span) of corpus entries drawn uniformly at random, with a random song and time: per-key row counts and the
// pitch/span of each key's rows are those of real music, and the filler carries no coherent alignment (as
// bench/lib/scale-db.ts does for the plain fingerprint). It is never materialised: the number of filler entries
// under a composite key c is Poisson(n * count_c / C) (n filler entries, C corpus entries: the Poisson limit of
// n uniform draws), drawn from a generator seeded by (c, catalogue seed), and its entries are generated when read,
// the same each time. So a 1,000 h catalogue costs only the rows a query reads.
import { INVARIANT_ENTRY_BYTES, type InvariantPostings, packInvariantEntry, type Triplets } from "@unheard/fingerprint";
import { createRandom } from "./random.js";

/** Bands of the suffix: first pitch in `pitchStep` semitones from `pitchLo`; span in steps of `spanStep` in ln. */
export type SuffixBands = {
  pitchLo: number;
  pitchStep: number;
  pitchBands: number;
  spanLo: number;
  spanStep: number;
  spanBands: number;
};

/**
 * 3-semitone pitch bands over MIDI 44-110 (peaks lie between 120 Hz and 3.4 kHz: MIDI 47-105) and span bands of
 * x1.28 from 60 ms (spans are 80 ms-2.5 s): a clip's search range (pitch +-6, span x0.77-x1.3) covers 5 pitch bands
 * and 2-3 span bands of each.
 */
export const SUFFIX_BANDS: SuffixBands = {
  pitchLo: 44,
  pitchStep: 3,
  pitchBands: 22,
  spanLo: 0.06,
  spanStep: 0.25,
  spanBands: 15,
};

const suffixCount = (b: SuffixBands) => b.pitchBands * b.spanBands;
const clampBand = (x: number, n: number) => Math.max(0, Math.min(n - 1, Math.floor(x)));
const pitchBand = (b: SuffixBands, pitch: number) => clampBand((pitch - b.pitchLo) / b.pitchStep, b.pitchBands);
const spanBand = (b: SuffixBands, span: number) => clampBand(Math.log(span / b.spanLo) / b.spanStep, b.spanBands);

/** Stored fields of a packed entry (as unpackInvariantEntry reads them), without allocating. */
const pitchOf = (lo: number) => Math.floor(lo / 2048) % 2048; // 1/16 semitone
const spanOf = (lo: number) => lo % 2048; // ms

/** The real entries, sorted by composite key. */
export class CompositeStore {
  readonly bands: SuffixBands;
  readonly songIds: string[] = [];
  readonly songSeconds: number[] = [];
  private parts: { keys: Int32Array; hi: Uint32Array; lo: Uint32Array }[] = [];
  comp = new Float64Array(0);
  hi = new Uint32Array(0);
  lo = new Uint32Array(0);
  /** Distinct composite keys present: their first index in `comp` (and one past the last at the end). */
  starts = new Uint32Array(0);

  constructor(bands: SuffixBands = SUFFIX_BANDS) {
    this.bands = bands;
  }

  get size(): number {
    return this.comp.length;
  }

  /** The composite key of a key and a stored entry's fields. */
  composite(key: number, pitchSixteenths: number, spanMs: number): number {
    const b = this.bands;
    const suffix = pitchBand(b, pitchSixteenths / 16) * b.spanBands + spanBand(b, Math.max(1, spanMs) / 1000);
    return key * suffixCount(b) + suffix;
  }

  add(songId: string, seconds: number, t: Triplets): void {
    const song = this.songIds.length;
    this.songIds.push(songId);
    this.songSeconds.push(seconds);
    const hi = new Uint32Array(t.count);
    const lo = new Uint32Array(t.count);
    for (let i = 0; i < t.count; i++) {
      const e = packInvariantEntry(song, t, i);
      hi[i] = e.hi;
      lo[i] = e.lo;
    }
    this.parts.push({ keys: t.keys.slice(0, t.count), hi, lo });
  }

  /** Sort the added entries by composite key (then entry). */
  build(): void {
    const total = this.parts.reduce((n, p) => n + p.keys.length, 0);
    const comp = new Float64Array(total);
    const hi = new Uint32Array(total);
    const lo = new Uint32Array(total);
    let o = 0;
    for (const p of this.parts) {
      for (let i = 0; i < p.keys.length; i++) {
        const l = p.lo[i] as number;
        comp[o + i] = this.composite(p.keys[i] as number, pitchOf(l), spanOf(l));
      }
      hi.set(p.hi, o);
      lo.set(p.lo, o);
      o += p.keys.length;
    }
    this.parts = [];
    const order = Uint32Array.from({ length: total }, (_, i) => i).sort(
      (a, b) =>
        (comp[a] as number) - (comp[b] as number) ||
        (hi[a] as number) - (hi[b] as number) ||
        (lo[a] as number) - (lo[b] as number),
    );
    this.comp = Float64Array.from(order, (i) => comp[i] as number);
    this.hi = Uint32Array.from(order, (i) => hi[i] as number);
    this.lo = Uint32Array.from(order, (i) => lo[i] as number);
    const starts: number[] = [];
    for (let i = 0; i < total; i++) if (i === 0 || this.comp[i] !== this.comp[i - 1]) starts.push(i);
    starts.push(total);
    this.starts = Uint32Array.from(starts);
  }

  /** First index whose composite key is >= c. */
  lowerBound(c: number): number {
    let a = 0;
    let b = this.comp.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((this.comp[mid] as number) < c) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** Composite range of a whole key. */
  keyRange(key: number): [number, number] {
    const s = suffixCount(this.bands);
    return [key * s, key * s + s - 1];
  }

  /** Entries stored, distinct keys and composite keys, and their bytes at INVARIANT_ENTRY_BYTES each. */
  stats(): { entries: number; distinctKeys: number; distinctComposites: number; bytes: number } {
    const s = suffixCount(this.bands);
    let keys = 0;
    let last = -1;
    for (let i = 0; i + 1 < this.starts.length; i++) {
      const k = Math.floor((this.comp[this.starts[i] as number] as number) / s);
      if (k !== last) keys++;
      last = k;
    }
    return {
      entries: this.size,
      distinctKeys: keys,
      distinctComposites: this.starts.length - 1,
      bytes: this.size * INVARIANT_ENTRY_BYTES,
    };
  }

  /** Composite ranges a query triplet can match: first pitch within +-maxPitch, stored span x[minTf, maxTf]. */
  queryRanges(
    key: number,
    pitch: number,
    span: number,
    maxPitch: number,
    minTf: number,
    maxTf: number,
    out: [number, number][],
  ): void {
    const b = this.bands;
    const base = key * suffixCount(b);
    const p0 = pitchBand(b, pitch - maxPitch);
    const p1 = pitchBand(b, pitch + maxPitch);
    const s0 = spanBand(b, span * minTf);
    const s1 = spanBand(b, span * maxTf);
    for (let p = p0; p <= p1; p++) out.push([base + p * b.spanBands + s0, base + p * b.spanBands + s1]);
  }
}

/** Seconds of a filler song (2.5-4.5 minutes, 3.5 on average, as bench/lib/scale-db.ts's). */
const FILLER_SONG_SECONDS = 210;

/** 32-bit hash of a composite key and a seed, for the generator of its filler rows. */
function seedOf(c: number, seed: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (c >>> 0), 0xc2b2ae35);
  h = Math.imul(h ^ Math.floor(c / 2 ** 32), 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * A catalogue of `hours`: the real store plus lazily generated filler (see the file's comment). Rows are read
 * through `count` (a row count, as decision 029's per-hash count table answers it) and `read` (the entries).
 */
export class Catalogue {
  readonly hours: number;
  readonly store: CompositeStore;
  readonly fillerEntries: number;
  readonly fillerSongs: number;
  private readonly seed: number;
  private readonly perEntry: number;
  private readonly keyCounts = new Map<number, number>();
  private readonly fillerCounts = new Map<number, number>();

  constructor(store: CompositeStore, hours: number, corpusHours: number, seed: number) {
    this.store = store;
    this.hours = hours;
    const fillerHours = Math.max(0, hours - corpusHours);
    this.fillerEntries = Math.round((store.size / corpusHours) * fillerHours);
    this.fillerSongs = Math.ceil((fillerHours * 3600) / FILLER_SONG_SECONDS);
    this.perEntry = store.size > 0 ? this.fillerEntries / store.size : 0;
    this.seed = seed;
  }

  /** Song ids: the real songs' names, then "filler-N". */
  songId(song: number): string {
    return this.store.songIds[song] ?? `filler-${song - this.store.songIds.length}`;
  }

  /** Filler rows under the composite key whose corpus entries are [a, b). */
  private fillerCount(a: number, b: number): number {
    if (this.perEntry === 0) return 0;
    const c = this.store.comp[a] as number;
    let n = this.fillerCounts.get(c);
    if (n === undefined) {
      n = poisson(this.perEntry * (b - a), createRandom(seedOf(c, this.seed)));
      this.fillerCounts.set(c, n);
    }
    return n;
  }

  /** Rows (real and filler) of composite keys in [c0, c1]. */
  count(c0: number, c1: number): number {
    const s = this.store;
    const a = s.lowerBound(c0);
    const b = s.lowerBound(c1 + 1);
    let n = b - a;
    if (this.perEntry > 0) for (let i = a; i < b; ) i = this.eachComposite(i, (x, y) => (n += this.fillerCount(x, y)));
    return n;
  }

  /** Rows of a whole key (cached: the count table of decision 029). */
  keyCount(key: number): number {
    let n = this.keyCounts.get(key);
    if (n === undefined) {
      const [c0, c1] = this.store.keyRange(key);
      n = this.count(c0, c1);
      this.keyCounts.set(key, n);
    }
    return n;
  }

  /** Call `f` on the composite key starting at index i; returns the index after it. */
  private eachComposite(i: number, f: (a: number, b: number) => void): number {
    const c = this.store.comp[i] as number;
    let j = i + 1;
    while (j < this.store.comp.length && this.store.comp[j] === c) j++;
    f(i, j);
    return j;
  }

  /** Append the rows (real and filler) of composite keys in [c0, c1] to `out`. */
  read(c0: number, c1: number, out: { hi: number[]; lo: number[] }): void {
    const s = this.store;
    const a = s.lowerBound(c0);
    const b = s.lowerBound(c1 + 1);
    for (let i = a; i < b; i++) {
      out.hi.push(s.hi[i] as number);
      out.lo.push(s.lo[i] as number);
    }
    if (this.perEntry === 0) return;
    const base = s.songIds.length;
    for (let i = a; i < b; ) {
      i = this.eachComposite(i, (x, y) => {
        const random = createRandom(seedOf(s.comp[x] as number, this.seed));
        const m = poisson(this.perEntry * (y - x), random);
        for (let k = 0; k < m; k++) {
          const from = x + random.int(y - x);
          const song = base + random.int(this.fillerSongs);
          const time = random.int(FILLER_SONG_SECONDS * 100);
          const l = s.lo[from] as number;
          out.hi.push((song * 4096 + Math.floor(time / 1024)) >>> 0);
          out.lo.push(((time % 1024) * 2 ** 22 + (l % 2 ** 22)) >>> 0);
        }
      });
    }
  }
}

/** A Poisson draw: Knuth's product method below 30, else the normal approximation (rounded, at least 0). */
function poisson(lambda: number, random: ReturnType<typeof createRandom>): number {
  if (lambda <= 0) return 0;
  if (lambda < 30) {
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = random.next();
    while (p > limit) {
      k++;
      p *= random.next();
    }
    return k;
  }
  return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * random.gaussian()));
}

/** Postings from the arrays `read` filled. */
export const postingsOf = (x: { hi: number[]; lo: number[] }): InvariantPostings => ({
  count: x.hi.length,
  hi: x.hi,
  lo: x.lo,
});

// The invariant index (decision 033) of bench:recognition-scale's database. The real catalogue's entries come from
// the server's own indexing path (fingerprintAudioFile: the streamed decode at the plain preset's rate, the first
// 20 minutes analysed by invariantEntriesOf), cached beside the corpus. Filler songs' entries are materialised the
// bench:invariant way: each copies the (key, pitch, span) of a catalogue entry drawn at random, with the filler
// song's own number and a random time in it, so per-key row counts and each key's pitch/span spread are those of
// real music while the filler carries no coherent alignment. Rows are generated in composite-key order (every copy
// of an entry shares its composite key), so they are inserted as appends with a fixed amount of memory whatever the
// catalogue's size.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { compositeKey, DEFAULT_PRESET, INVARIANT_INDEX } from "@unheard/fingerprint";
import type SQLite from "better-sqlite3";
import { sniffAudio } from "../../apps/server/src/lib/audio.js";
import { fingerprintAudioFile } from "../../apps/server/src/modules/fingerprints/fingerprint-file.js";
import type { InvariantEntries } from "../../apps/server/src/modules/fingerprints/triplets.repo.js";
import { corpusFiles } from "./corpus.js";
import { createRandom, type Random } from "./random.js";
import type { Corpus } from "./scale-corpus.js";

/** Each corpus track's invariant entries (song field 0), in corpus order. */
export type CorpusInvariant = { tracks: InvariantEntries[]; reused: boolean; buildSeconds: number };

/** Bump when what is cached changes. */
const CACHE_VERSION = 1;
/** Rows per multi-row INSERT (3 parameters each). */
const ROWS_PER_INSERT = 500;
/** Composite keys per invariant key (SUFFIX_BANDS: 22 pitch bands x 15 span bands; the triggers' `ckey / 330`). */
const SUFFIXES = INVARIANT_INDEX.bands.pitchBands * INVARIANT_INDEX.bands.spanBands;
/** The packed time field's limit (22 bits of 10 ms). */
const TIME_LIMIT = 2 ** 22;

/** The corpus's invariant entries as the server indexes them, or read from the cache under `cacheRoot`. */
export async function loadCorpusInvariant(
  cacheRoot: string,
  corpus: Corpus,
  log: (line: string) => void,
): Promise<CorpusInvariant> {
  // Every setting of both configs is in the name: a changed preset or index config is a cache miss.
  const settings = createHash("sha256")
    .update(JSON.stringify([DEFAULT_PRESET, INVARIANT_INDEX]))
    .digest("hex")
    .slice(0, 10);
  const dir = path.join(
    cacheRoot,
    `recognition-corpus-invariant-v${CACHE_VERSION}-${INVARIANT_INDEX.name}-${settings}`,
  );
  const metaFile = path.join(dir, "meta.json");
  if (existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as { names: string[]; counts: number[]; seconds: number };
    if (meta.names.join("\n") !== corpus.tracks.map((t) => t.name).join("\n"))
      throw new Error(`${dir} holds other tracks than the corpus: remove it`);
    const tracks = meta.counts.map((n, i) => {
      const buf = readFileSync(path.join(dir, `${i}.bin`));
      const ints = new Int32Array(buf.buffer, buf.byteOffset, 3 * n);
      return {
        count: n,
        keys: ints.slice(0, n),
        hi: new Uint32Array(ints.slice(n, 2 * n).buffer),
        lo: new Uint32Array(ints.slice(2 * n, 3 * n).buffer),
      };
    });
    return { tracks, reused: true, buildSeconds: meta.seconds };
  }
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const files = corpusFiles(log);
  const tracks: InvariantEntries[] = [];
  for (const [i, file] of files.entries()) {
    if (path.basename(file) !== corpus.tracks[i]?.name) throw new Error(`corpus file ${file} is not track ${i}`);
    const head = Buffer.alloc(8192);
    const fh = await open(file, "r");
    await fh.read(head, 0, head.length, 0);
    await fh.close();
    const format = sniffAudio(head);
    if (!format) throw new Error(`${file}: not audio the server reads`);
    // The server's index job: one streamed decode, the plain preset's rate, the invariant entries of its first minutes.
    const { hashes } = await fingerprintAudioFile(file, format, DEFAULT_PRESET);
    const e = hashes.invariant;
    tracks.push(e);
    const ints = new Int32Array(3 * e.count);
    ints.set(e.keys.subarray(0, e.count), 0);
    ints.set(new Int32Array(e.hi.buffer, e.hi.byteOffset, e.count), e.count);
    ints.set(new Int32Array(e.lo.buffer, e.lo.byteOffset, e.count), 2 * e.count);
    writeFileSync(path.join(dir, `${i}.bin`), ints);
    log(`  invariant ${i + 1}/${files.length}: ${path.basename(file)}, ${e.count} entries`);
  }
  const seconds = (performance.now() - started) / 1000;
  // Written last: a cache cut short is never read.
  writeFileSync(
    `${metaFile}.tmp`,
    JSON.stringify({ names: corpus.tracks.map((t) => t.name), counts: tracks.map((t) => t.count), seconds }),
  );
  renameSync(`${metaFile}.tmp`, metaFile);
  return { tracks, reused: false, buildSeconds: seconds };
}

/** What writing the invariant index produced. */
export type InvariantWriteStats = {
  rows: number;
  catalogueRows: number;
  fillerRows: number;
  /** Identical (composite key, entry) pairs left out, as the server's `on conflict do nothing` does. */
  duplicates: number;
  keys: number;
  compositeKeys: number;
  songs: number;
};

/** A Poisson draw: Knuth's product method below 30, else the normal approximation (rounded, at least 0). */
function poisson(lambda: number, random: Random): number {
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

/**
 * Write fingerprint_song, fingerprint_triplet and fingerprint_triplet_key inside the caller's transaction, with the
 * triplet table's triggers already dropped (the per-key counts are written here, one row per key). `catalogue`: the
 * real songs with their entries; `filler`: the synthesized songs and their lengths. Song numbers are 1, 2, ... in
 * that order, as the server's autoincrement would hand them out.
 */
export function writeInvariantIndex(
  db: SQLite.Database,
  opts: {
    catalogue: { songId: string; seconds: number; entries: InvariantEntries }[];
    filler: { songIds: string[]; seconds: ArrayLike<number> };
    createdAt: string;
    seed: number;
    log: (line: string) => void;
  },
): InvariantWriteStats {
  const { catalogue, filler, log } = opts;
  const random = createRandom(opts.seed);
  const insertSong = db.prepare("insert into fingerprint_song (no, song_id, created_at) values (?, ?, ?)");
  for (const [i, c] of catalogue.entries()) insertSong.run(i + 1, c.songId, opts.createdAt);
  const firstFiller = catalogue.length + 1;
  for (const [s, id] of filler.songIds.entries()) insertSong.run(firstFiller + s, id, opts.createdAt);

  // The catalogue's entries under their song numbers, sorted by composite key.
  const n = catalogue.reduce((a, c) => a + c.entries.count, 0);
  const ck = new Float64Array(n);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  let o = 0;
  for (const [i, c] of catalogue.entries()) {
    const e = c.entries;
    for (let j = 0; j < e.count; j++, o++) {
      const l = e.lo[j] as number;
      ck[o] = compositeKey(e.keys[j] as number, l);
      // As triplets.repo.ts's replace() writes them: the number above the time's high bits.
      hi[o] = (i + 1) * 4096 + ((e.hi[j] as number) % 4096);
      lo[o] = l;
    }
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => (ck[a] as number) - (ck[b] as number));

  // Filler entries per catalogue entry: Poisson with the mean that gives the filler the catalogue's entries per
  // second (the Poisson limit of drawing each filler entry's source uniformly).
  const catalogueSeconds = catalogue.reduce((a, c) => a + c.seconds, 0);
  const S = filler.songIds.length;
  const cumulative = new Float64Array(S + 1);
  for (let s = 0; s < S; s++) cumulative[s + 1] = (cumulative[s] as number) + (filler.seconds[s] as number);
  const fillerSeconds = cumulative[S] as number;
  const perEntry = n > 0 && S > 0 ? fillerSeconds / catalogueSeconds : 0;
  /** A filler song drawn by length (a longer song holds more entries). */
  const pickSong = (): number => {
    const u = random.next() * fillerSeconds;
    let a = 0;
    let b = S - 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((cumulative[mid + 1] as number) <= u) a = mid + 1;
      else b = mid;
    }
    return a;
  };

  const values = (k: number) => Array.from({ length: k }, () => "(?, (? << 32) | ?)").join(", ");
  const bulk = db.prepare(`insert into fingerprint_triplet (ckey, entry) values ${values(ROWS_PER_INSERT)}`);
  const one = db.prepare("insert into fingerprint_triplet (ckey, entry) values (?, (? << 32) | ?)");
  const bulkKeys = db.prepare(
    `insert into fingerprint_triplet_key (key, n) values ${Array.from({ length: ROWS_PER_INSERT }, () => "(?, ?)").join(", ")}`,
  );
  const oneKey = db.prepare("insert into fingerprint_triplet_key (key, n) values (?, ?)");
  const params: number[] = new Array(3 * ROWS_PER_INSERT);
  const keyParams: number[] = new Array(2 * ROWS_PER_INSERT);
  let fill = 0;
  let keyFill = 0;
  const stats: InvariantWriteStats = {
    rows: 0,
    catalogueRows: 0,
    fillerRows: 0,
    duplicates: 0,
    keys: 0,
    compositeKeys: 0,
    songs: catalogue.length + S,
  };
  const started = performance.now();
  let lastLog = started;
  const expected = Math.round(n * (1 + perEntry));
  const pushRow = (c: number, h: number, l: number) => {
    params[fill++] = c;
    params[fill++] = h;
    params[fill++] = l;
    if (fill === params.length) {
      bulk.run(params);
      fill = 0;
    }
    stats.rows++;
  };
  const pushKey = (key: number, count: number) => {
    keyParams[keyFill++] = key;
    keyParams[keyFill++] = count;
    if (keyFill === keyParams.length) {
      bulkKeys.run(keyParams);
      keyFill = 0;
    }
    stats.keys++;
  };

  // One composite key's rows at a time (growable scratch), sorted by entry and written once each.
  let gh = new Uint32Array(1024);
  let gl = new Uint32Array(1024);
  let gReal = new Uint8Array(1024);
  let gIdx = new Uint32Array(1024);
  let g = 0;
  const add = (h: number, l: number, real: number) => {
    if (g === gh.length) {
      const grow = <T extends Uint32Array | Uint8Array>(x: T): T => {
        const y = new (x.constructor as new (n: number) => T)(2 * x.length);
        y.set(x);
        return y;
      };
      gh = grow(gh);
      gl = grow(gl);
      gReal = grow(gReal);
      gIdx = new Uint32Array(2 * gIdx.length);
    }
    gh[g] = h;
    gl[g] = l;
    gReal[g] = real;
    g++;
  };
  let key = -1;
  let keyRows = 0;
  for (let a = 0; a < n; ) {
    const c = ck[order[a] as number] as number;
    let b = a;
    g = 0;
    while (b < n && ck[order[b] as number] === c) {
      const i = order[b] as number;
      const l = lo[i] as number;
      add(hi[i] as number, l, 1);
      const copies = poisson(perEntry, random);
      for (let k = 0; k < copies; k++) {
        const s = pickSong();
        const time = Math.min(TIME_LIMIT - 1, Math.floor(random.next() * (filler.seconds[s] as number) * 100));
        add((firstFiller + s) * 4096 + Math.floor(time / 1024), (time % 1024) * 2 ** 22 + (l % 2 ** 22), 0);
      }
      b++;
    }
    a = b;
    for (let k = 0; k < g; k++) gIdx[k] = k;
    const idx = gIdx
      .subarray(0, g)
      .sort((x, y) => (gh[x] as number) - (gh[y] as number) || (gl[x] as number) - (gl[y] as number));
    let written = 0;
    for (let k = 0; k < g; k++) {
      const x = idx[k] as number;
      if (k > 0) {
        const p = idx[k - 1] as number;
        if (gh[p] === gh[x] && gl[p] === gl[x]) {
          stats.duplicates++;
          continue;
        }
      }
      pushRow(c, gh[x] as number, gl[x] as number);
      if (gReal[x]) stats.catalogueRows++;
      else stats.fillerRows++;
      written++;
    }
    stats.compositeKeys++;
    const k = Math.floor(c / SUFFIXES);
    if (k !== key) {
      if (key >= 0) pushKey(key, keyRows);
      key = k;
      keyRows = 0;
    }
    keyRows += written;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      const secs = (lastLog - started) / 1000;
      log(
        `    ${stats.rows.toLocaleString("en")}/~${expected.toLocaleString("en")} invariant rows, ${secs.toFixed(0)} s, ${Math.round(stats.rows / secs).toLocaleString("en")} rows/s`,
      );
    }
  }
  if (key >= 0) pushKey(key, keyRows);
  for (let i = 0; i < fill; i += 3) one.run(params[i], params[i + 1], params[i + 2]);
  for (let i = 0; i < keyFill; i += 2) oneKey.run(keyParams[i], keyParams[i + 1]);
  return stats;
}

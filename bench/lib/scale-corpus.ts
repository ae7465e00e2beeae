// The real catalogue of bench:recognition-scale: the wesnoth-1.16-music tracks decoded once, fingerprinted the way
// the server's indexer does (mono at the file's rate, fingerprint() with DEFAULT_PRESET) and kept in a cache: each
// track's hashes and anchor offsets, and its audio as 16-bit mono PCM at the rate the recognition page sends.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DEFAULT_PRESET, fingerprint, mixdown, resample } from "@unheard/fingerprint";
import { RECOGNITION_SAMPLE_RATE } from "../../apps/web/src/features/audio-tools/pcm.js";
import { corpusFiles, decodeFile } from "./corpus.js";

/** The rate the recognition page sends its PCM at. */
export const CLIP_RATE = RECOGNITION_SAMPLE_RATE;

/** One indexed track: its hashes with anchor frame offsets, and its audio at CLIP_RATE for cutting clips. */
export type CorpusTrack = {
  name: string;
  seconds: number;
  hashes: Int32Array;
  offsets: Int32Array;
  /** Mono 16-bit PCM at CLIP_RATE. */
  pcm: Int16Array;
};

export type Corpus = { tracks: CorpusTrack[]; seconds: number; rows: number; reused: boolean; buildSeconds: number };

type Meta = { tracks: { name: string; seconds: number; count: number; samples: number }[]; buildSeconds: number };

/** Bump when what is cached changes. */
const CORPUS_VERSION = 1;

/** Decode and fingerprint the corpus, or read it from `cacheRoot`. */
export async function loadCorpus(cacheRoot: string, log: (line: string) => void): Promise<Corpus> {
  const dir = join(cacheRoot, `recognition-corpus-v${CORPUS_VERSION}-${DEFAULT_PRESET.name}`);
  const metaFile = join(dir, "meta.json");
  if (existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as Meta;
    const tracks = meta.tracks.map((t, i) => {
      const buf = readFileSync(join(dir, `${i}.bin`));
      const ints = new Int32Array(buf.buffer, buf.byteOffset, 2 * t.count);
      const pcmBuf = readFileSync(join(dir, `${i}.pcm`));
      return {
        name: t.name,
        seconds: t.seconds,
        hashes: ints.slice(0, t.count),
        offsets: ints.slice(t.count, 2 * t.count),
        pcm: new Int16Array(pcmBuf.buffer, pcmBuf.byteOffset, t.samples).slice(),
      };
    });
    return summarize(tracks, true, meta.buildSeconds);
  }
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const files = corpusFiles(log);
  const tracks: CorpusTrack[] = [];
  for (const [i, file] of files.entries()) {
    const audio = await decodeFile(file);
    const mono = mixdown(audio.channelData);
    const fp = fingerprint(mono, audio.sampleRate, DEFAULT_PRESET);
    const count = fp.hashes.count;
    const clipRate = resample(mono, audio.sampleRate, CLIP_RATE);
    const pcm = new Int16Array(clipRate.length);
    for (let k = 0; k < clipRate.length; k++)
      pcm[k] = Math.max(-32768, Math.min(32767, Math.round((clipRate[k] as number) * 32767)));
    const track = {
      name: basename(file),
      seconds: mono.length / audio.sampleRate,
      hashes: fp.hashes.hashes.slice(0, count),
      offsets: fp.hashes.offsets.slice(0, count),
      pcm,
    };
    tracks.push(track);
    const ints = new Int32Array(2 * count);
    ints.set(track.hashes, 0);
    ints.set(track.offsets, count);
    writeFileSync(join(dir, `${i}.bin`), ints);
    writeFileSync(join(dir, `${i}.pcm`), pcm);
    log(`  corpus ${i + 1}/${files.length}: ${track.name} ${track.seconds.toFixed(0)} s, ${count} hashes`);
  }
  const buildSeconds = (performance.now() - started) / 1000;
  const meta: Meta = {
    tracks: tracks.map((t) => ({ name: t.name, seconds: t.seconds, count: t.hashes.length, samples: t.pcm.length })),
    buildSeconds,
  };
  // Written last: a cache cut short is never read.
  writeFileSync(`${metaFile}.tmp`, JSON.stringify(meta, null, 2));
  renameSync(`${metaFile}.tmp`, metaFile);
  return summarize(tracks, false, buildSeconds);
}

/**
 * Tracks left out of the database: clips of them are unknown music (real music, not in the catalogue), whose right
 * answer is no match. Four full-length pieces (about 14 minutes), none a variant of a track that stays in (unlike
 * frantic / frantic-old, defeat / defeat2, victory / victory2, or the main theme's arrangements), and not silence.ogg.
 * By name rather than index, so a package update that adds a track does not move the hold-out.
 */
export const HELD_OUT_TRACKS = [
  "into_the_shadows.ogg",
  "northern_mountains.ogg",
  "the_deep_path.ogg",
  "traveling_minstrels.ogg",
] as const;

/** Which corpus tracks are held out of the database (by corpus index). Throws when one is missing. */
export function heldOutIndexes(corpus: Corpus): Set<number> {
  const out = new Set<number>();
  for (const name of HELD_OUT_TRACKS) {
    const i = corpus.tracks.findIndex((t) => t.name === name);
    if (i < 0) throw new Error(`held-out track ${name} is not in the corpus`);
    out.add(i);
  }
  return out;
}

/** The catalogue part of the corpus: what the database holds (the corpus less the held-out tracks). */
export function catalogueOf(corpus: Corpus): { indexes: number[]; seconds: number; rows: number } {
  const held = heldOutIndexes(corpus);
  const indexes = corpus.tracks.map((_, i) => i).filter((i) => !held.has(i));
  return {
    indexes,
    seconds: indexes.reduce((s, i) => s + (corpus.tracks[i]?.seconds ?? 0), 0),
    rows: indexes.reduce((s, i) => s + (corpus.tracks[i]?.hashes.length ?? 0), 0),
  };
}

function summarize(tracks: CorpusTrack[], reused: boolean, buildSeconds: number): Corpus {
  return {
    tracks,
    seconds: tracks.reduce((s, t) => s + t.seconds, 0),
    rows: tracks.reduce((s, t) => s + t.hashes.length, 0),
    reused,
    buildSeconds,
  };
}

// Audio for the demo songs: synthesized (synth.ts), encoded as MP3 (mp3.ts) and measured by the decoder uploads go
// through (lib/audio.ts), on every core (worker threads), once: the files and their measurements are kept in a
// cache folder (DEMO_CACHE_DIR) under names made of everything that shapes them, so a re-seed reuses them.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { threadId, Worker } from "node:worker_threads";
import { DEFAULT_PRESET } from "@unheard/fingerprint";
import { type AudioAnalysis, sniffAudio } from "../lib/audio.js";
import { workerEntry } from "../lib/worker-entry.js";
import {
  fingerprintAudioFile,
  hashCacheDirIn,
  hashCacheFile,
  writeHashCache,
} from "../modules/fingerprints/fingerprint-file.js";
import { encodeMp3 } from "./mp3.js";
import { demoSeconds, hashString, SYNTH_VERSION, synthesizeTrack } from "./synth.js";

export const DEMO_SAMPLE_RATE = 16_000;
export const DEMO_KBPS = 32;
/** Part of every cached file's name: a new synthesizer or encoder setting never reuses old files. */
export const DEMO_CACHE_VERSION = `v${SYNTH_VERSION}-${DEMO_SAMPLE_RATE}-${DEMO_KBPS}k`;

/** A song whose audio is wanted. */
export type DemoTrackSpec = { title: string; genre: string };

/** A rendered, measured demo file in the cache. */
export type DemoClip = {
  file: string;
  size: number;
  sha256: string;
  mime: "audio/mpeg";
  analysis: AudioAnalysis;
};

/** One file to render (sent to a worker thread as it is). */
export type DemoAudioJob = { id: number; seed: number; seconds: number; genre: string; file: string };

/** Progress of prepareDemoAudio: `done` of `total` files ready, `cached` of them found in the cache. */
export type DemoAudioProgress = { done: number; total: number; cached: number };

/** The cache file for a song: its name holds the version, the seed, the length and the style. */
export function demoAudioJob(spec: DemoTrackSpec, cacheDir: string, id = 0): DemoAudioJob {
  const seed = hashString(spec.title);
  const seconds = demoSeconds(seed);
  const style = spec.genre.toLowerCase().replace(/[^a-z0-9]+/g, "");
  const name = `${DEMO_CACHE_VERSION}-${seed.toString(16).padStart(8, "0")}-${seconds}s-${style}.mp3`;
  return { id, seed, seconds, genre: spec.genre, file: path.join(cacheDir, name) };
}

/**
 * Synthesize, encode, measure and fingerprint one song into the cache (one decode gives both, by the decoder
 * uploads go through); the hashes go to the hash cache by content, and the `.json` beside the file is written last.
 */
export async function renderDemoTrack(job: DemoAudioJob): Promise<DemoClip> {
  const pcm = synthesizeTrack(job.seed, job.seconds, DEMO_SAMPLE_RATE, job.genre);
  const mp3 = await encodeMp3(pcm, DEMO_SAMPLE_RATE, DEMO_KBPS);
  const sha256 = createHash("sha256").update(mp3).digest("hex");
  const format = sniffAudio(mp3);
  if (format?.ext !== "mp3") throw new Error("demo audio is not recognised as MP3");
  // Unique temp names: several processes (a server and a test run) may fill one cache at once.
  const tmp = `${job.file}.${process.pid}-${threadId}.tmp`;
  await mkdir(path.dirname(job.file), { recursive: true });
  try {
    await writeFile(tmp, mp3);
    // Measured by the decoder uploads go through, so the stored facts are the ones an upload would get.
    const { analysis, hashes } = await fingerprintAudioFile(tmp, format, DEFAULT_PRESET);
    await writeHashCache(hashCacheFile(hashCacheDirIn(path.dirname(job.file)), sha256, DEFAULT_PRESET), hashes);
    const clip: DemoClip = { file: job.file, size: mp3.length, sha256, mime: "audio/mpeg", analysis };
    await rename(tmp, job.file);
    const { file: _file, ...meta } = clip;
    await writeFile(tmp, JSON.stringify(meta));
    await rename(tmp, `${job.file}.json`);
    return clip;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** A cached render, if the file, its measurements and its hashes are there and agree. */
async function readCached(job: DemoAudioJob): Promise<DemoClip | undefined> {
  try {
    const meta = JSON.parse(await readFile(`${job.file}.json`, "utf8")) as Omit<DemoClip, "file">;
    const { size } = await stat(job.file);
    if (size !== meta.size || !meta.analysis || !meta.sha256) return undefined;
    // Rendered before the hashes were kept, or for another preset: render again (the index job reads them).
    const hashes = hashCacheFile(hashCacheDirIn(path.dirname(job.file)), meta.sha256, DEFAULT_PRESET);
    if (!(await stat(hashes).catch(() => undefined))) return undefined;
    return { ...meta, file: job.file };
  } catch {
    return undefined;
  }
}

/** Render jobs on `threads` worker threads (here, when 1); a worker that cannot start leaves its work to the rest. */
async function renderAll(
  jobs: DemoAudioJob[],
  threads: number,
  done: (job: DemoAudioJob, clip: DemoClip) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const queue = [...jobs];
  if (threads > 1) {
    // The built bundle names the worker after the seed (scripts/build-server.mjs).
    const entry = workerEntry(import.meta.url, "./audio-worker.ts", "./demo-audio-worker.js");
    await new Promise<void>((resolve, reject) => {
      let alive = 0;
      let failure: Error | undefined;
      const workers: Worker[] = [];
      const stopAll = (err: Error) => {
        failure ??= err;
        for (const w of workers) void w.terminate();
      };
      const onAbort = () => stopAll(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      for (let i = 0; i < threads; i++) {
        const worker = new Worker(entry);
        workers.push(worker);
        alive++;
        let current: DemoAudioJob | undefined;
        const next = () => {
          current = failure ? undefined : queue.shift();
          if (current) worker.postMessage(current);
          else void worker.terminate();
        };
        worker.on("message", (m: { id: number; clip?: DemoClip; error?: string }) => {
          const job = current;
          current = undefined;
          if (m.error || !m.clip || !job) {
            stopAll(new Error(`demo audio for job ${m.id} failed: ${m.error ?? "no result"}`));
            return;
          }
          done(job, m.clip);
          next();
        });
        // Could not start (or crashed): its song goes back to the queue for the others, or for this thread.
        worker.on("error", () => {
          if (current) queue.unshift(current);
          current = undefined;
        });
        worker.on("exit", () => {
          if (--alive > 0) return;
          signal?.removeEventListener("abort", onAbort);
          if (failure) reject(failure);
          else resolve();
        });
        next();
      }
    });
  }
  for (let job = queue.shift(); job; job = queue.shift()) {
    signal?.throwIfAborted();
    done(job, await renderDemoTrack(job));
  }
}

/** Each song's audio if the cache has it (undefined where it does not); renders nothing. */
export async function findCachedDemoAudio(specs: DemoTrackSpec[], cacheDir: string): Promise<(DemoClip | undefined)[]> {
  return Promise.all(specs.map((s) => readCached(demoAudioJob(s, cacheDir))));
}

/**
 * Audio for each song, in order: from the cache, or rendered into it (on up to `threads` cores, default all but
 * never more than 4). `onProgress` hears of every file that is ready, `onClip` gets each one (cached ones first).
 */
export async function prepareDemoAudio(
  specs: DemoTrackSpec[],
  opts: {
    cacheDir: string;
    threads?: number;
    onProgress?: (p: DemoAudioProgress) => void;
    onClip?: (index: number, clip: DemoClip) => void;
    signal?: AbortSignal;
  },
): Promise<DemoClip[]> {
  await mkdir(opts.cacheDir, { recursive: true });
  const jobs = specs.map((s, i) => demoAudioJob(s, opts.cacheDir, i));
  const clips: (DemoClip | undefined)[] = new Array(jobs.length);
  const missing: DemoAudioJob[] = [];
  const cachedClips = await Promise.all(jobs.map(readCached));
  let cached = 0;
  for (const [i, clip] of cachedClips.entries()) {
    if (clip) {
      clips[i] = clip;
      cached++;
      opts.onClip?.(i, clip);
    } else missing.push(jobs[i] as DemoAudioJob);
  }
  let done = cached;
  const report = () => opts.onProgress?.({ done, total: jobs.length, cached });
  report();
  if (missing.length > 0) {
    const cores = opts.threads ?? Math.min(4, os.availableParallelism());
    // A worker costs a start-up (and a WebAssembly compile): worth it from a handful of songs on.
    const threads = Math.max(1, Math.min(cores, Math.floor(missing.length / 3)));
    await renderAll(
      missing,
      threads,
      (job, clip) => {
        clips[job.id] = clip;
        done++;
        opts.onClip?.(job.id, clip);
        report();
      },
      opts.signal,
    );
  }
  return clips.map((c, i) => {
    if (!c) throw new Error(`no demo audio for ${specs[i]?.title}`);
    return c;
  });
}

import { open } from "node:fs/promises";
import {
  type Certainty,
  certaintyOf,
  DEFAULT_PRESET,
  DEFAULT_WARP_SEARCH,
  decideWarped,
  type EvidenceKind,
  type FingerprintConfig,
  type Hashes,
  INVARIANT_INDEX,
  type InvariantIndexConfig,
  isStretched,
  mergeRanked,
  rarestWithin,
  splitParts,
  verifyWarps,
  type Warp,
  type WarpSearch,
  warpGrid,
} from "@unheard/fingerprint";
import { MESSAGES } from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { sniffAudio } from "../../lib/audio.js";
import type { AudioPool } from "../../lib/audio-pool.js";
import type { JobQueue } from "../../lib/jobs.js";
import type { AudioStorage } from "../../lib/storage.js";
import { nowIso, toIso } from "../../lib/time.js";
import { fingerprintAudioFile, hashCacheFile, readHashCache } from "./fingerprint-file.js";
import type { FingerprintsRepo } from "./fingerprints.repo.js";
import { createInvariantBackfill } from "./invariant-backfill.js";
import { createInvariantPass } from "./invariant-pass.js";
import { type RecognitionTask, runRecognitionTask } from "./recognition-tasks.js";
import type { TripletsRepo } from "./triplets.repo.js";

/** The job that (re)indexes one song's audio. */
export const INDEX_JOB = "fingerprint.index";
/** Duplicate checks on upload look at this much audio from the middle of the file. */
const DUPLICATE_EXCERPT_SECONDS = 30;

/** The invariant pass looks at clips at least this long (shorter ones form too few triplets to stand out). */
const INVARIANT_MIN_SECONDS = 2;
/** The second pass looks for sped-up, pitch-shifted or stretched audio only in clips at least this long... */
const WARP_MIN_SECONDS = 3;
/** ...and only in their last this many seconds, which bounds its cost (decision 020). */
const WARP_MAX_SECONDS = 8;

/** One ranked candidate of a recognition; `warp` says how the clip was transformed from the song (null: as stored). */
export type RecognitionCandidate = {
  songId: string;
  aligned: number;
  confidence: number;
  offsetSeconds: number;
  warp: Warp | null;
};

/** A recognition's answer. */
export type Recognition = {
  hashes: number;
  /** Where the time went (ms) and how many stored rows were read, for the Server-Timing header and benchmarks. */
  timings: {
    fingerprintMs: number;
    lookupMs: number;
    matchMs: number;
    warpMs: number;
    rows: number;
    /** Rows the second pass read (its search and its candidates' own rows); 0 when it did not run. */
    warpRows: number;
    /** The invariant pass's time and rows read; 0 when it did not run. */
    invariantMs: number;
    invariantRows: number;
  };
  candidates: RecognitionCandidate[];
  match: RecognitionCandidate | null;
  /** How sure the match is in words, from its aligned hashes and the runner-up's (decision 028); null: no match. */
  certainty: Certainty | null;
  /** The runner-up song's aligned hashes: the evidence the match stands out against. */
  runnerUpAligned: number;
  /** Which pass found the match: aligned hashes as stored or through a warp, or aligned invariant triplets. */
  evidence: EvidenceKind | null;
};

/** Indexing songs' audio, recognising clips, spotting duplicate uploads (issue 8). */
export function createFingerprintsService(deps: {
  database: Database;
  repo: FingerprintsRepo;
  triplets: TripletsRepo;
  storage: AudioStorage;
  jobs: JobQueue;
  preset?: FingerprintConfig;
  /** The invariant index (decision 033); null turns its pass off. */
  invariant?: InvariantIndexConfig | null;
  /** The second pass's search; null turns it off. */
  warpSearch?: WarpSearch | null;
  /** Where hashes computed ahead of time are kept by content (the demo catalogue's renders). */
  hashCacheDir?: string;
  /** Decode and fingerprint a stored file, and recognise: the audio pool's threads (issue 24); unset, here. */
  pool?: Pick<AudioPool, "fingerprint" | "recognition" | "size">;
}) {
  const { database, repo, triplets, storage, jobs } = deps;
  const preset = deps.preset ?? DEFAULT_PRESET;
  const invariant = deps.invariant === undefined ? INVARIANT_INDEX : deps.invariant;
  const warpSearch = deps.warpSearch === undefined ? DEFAULT_WARP_SEARCH : deps.warpSearch;
  const grid = warpSearch ? warpGrid(warpSearch) : [];
  // Steps run on the audio pool's threads (decision 029); without a pool, here.
  const compute = <T extends RecognitionTask>(task: T, continued: boolean) =>
    deps.pool ? deps.pool.recognition(task, { continued }) : Promise.resolve().then(() => runRecognitionTask(task));
  const parts = deps.pool?.size ?? 1;
  const recognizeInvariant = invariant ? createInvariantPass({ triplets, compute, config: invariant }) : null;

  /** The stored ones of `hashes` a query reads: rarest first within `budget` rows, by their counts (decision 029). */
  async function rarest(hashes: readonly number[], budget: number | null): Promise<number[]> {
    const counts = await repo.hashCounts(hashes);
    return rarestWithin(counts.hashes, counts.counts, budget, preset.index.maxPostingsPerHash);
  }

  /**
   * Second pass, when the plain one found nothing: search the clip's end under every warp of the grid, then verify
   * the best few songs against all their rows (decision 020). The ranking over warps runs in parts, one per thread
   * (decision 029).
   */
  async function recognizeWarped(samples: Float32Array, sampleRate: number, search: WarpSearch) {
    const keep = Math.min(samples.length, Math.round(WARP_MAX_SECONDS * sampleRate));
    const skipped = samples.length - keep;
    // Sliced, not a view: a view's whole buffer would be copied to the thread.
    const q = await compute(
      { kind: "warp-query", samples: samples.slice(skipped), sampleRate, preset, dereverb: search.dereverb, grid },
      true,
    );
    const postings = await repo.postings(await rarest(q.distinct, search.rowBudget));
    const searched = await Promise.all(
      splitParts(
        grid.map((_, k) => k),
        parts,
      ).map((ks) =>
        compute(
          {
            kind: "warp-rank",
            query: q.query,
            warps: ks.map((k) => grid[k] as Warp),
            hashes: ks.map((k) => q.hashes[k] as Hashes),
            postings,
            limit: search.candidates,
          },
          true,
        ),
      ),
    );
    const lookupRows = searched[0]?.rows ?? 0;
    const candidates = mergeRanked(searched.map((p) => p.ranked)).slice(0, search.candidates);
    // No song shares a hash with the clip under any warp: nothing to verify.
    if (candidates.length === 0) return { candidates: [], match: null, rows: lookupRows };
    const rows = await repo.songRows(candidates.map((c) => c.songId));
    const verified = await Promise.all(
      splitParts(verifyWarps(candidates, search), parts).map((warps) =>
        compute({ kind: "verify-rank", query: q.query, warps, rows, search }, true),
      ),
    );
    const result = decideWarped(mergeRanked(verified.map((p) => p.ranked)), preset, search);
    // Offsets are in the song's time; the clip started `skipped` samples (of the warped audio) earlier.
    const shape = (c: (typeof result.candidates)[number]): RecognitionCandidate => ({
      songId: c.songId,
      aligned: c.aligned,
      confidence: c.confidence,
      offsetSeconds: c.offsetSeconds - (skipped / sampleRate) * c.warp.tempo,
      warp: c.warp,
    });
    return {
      candidates: result.candidates.map(shape),
      match: result.match ? shape(result.match) : null,
      rows: lookupRows + (verified[0]?.rows ?? 0),
    };
  }

  /** The match's certainty word and the runner-up's count. */
  function graded(r: { candidates: RecognitionCandidate[]; match: RecognitionCandidate | null }, kind: EvidenceKind) {
    const runnerUpAligned = r.candidates.find((c) => c.songId !== r.match?.songId)?.aligned ?? 0;
    return {
      certainty: r.match ? certaintyOf(r.match.aligned, runnerUpAligned, kind) : null,
      runnerUpAligned,
      evidence: r.match ? kind : null,
    };
  }

  /** Name the song a clip comes from (plain pass, then the warped one), or say none stands out. */
  /** `admitted`: part of work the pool already took on (an upload's duplicate check), never refused as busy. */
  async function recognize(samples: Float32Array, sampleRate: number, admitted = false): Promise<Recognition> {
    const t0 = performance.now();
    const fp = await compute({ kind: "fingerprint", samples, sampleRate, preset }, admitted);
    const t1 = performance.now();
    const postings = await repo.postings(await rarest(fp.distinct, preset.index.rowBudget));
    const t2 = performance.now();
    // A time-stretch (pitch kept) matches here; its tempo is read from the matched rows, with no more queries.
    const result = await compute(
      { kind: "match", hashes: fp.hashes, postings, preset, tempoRange: warpSearch ? warpSearch.tempo : null },
      true,
    );
    const tempo = result.tempo;
    const t3 = performance.now();
    const shape = (c: (typeof result.candidates)[number]): RecognitionCandidate => ({
      songId: c.songId,
      aligned: c.aligned,
      confidence: c.confidence,
      offsetSeconds: c.offsetSeconds,
      warp: null,
    });
    const plain = { candidates: result.candidates.map(shape), match: result.match ? shape(result.match) : null };
    if (plain.match && tempo && isStretched(tempo)) {
      plain.match.warp = { tempo: tempo.tempo, pitch: 1 };
      plain.match.offsetSeconds = tempo.offsetFrames * (preset.hopSize / preset.sampleRate);
      plain.candidates[0] = plain.match;
    }
    const timings = {
      fingerprintMs: t1 - t0,
      lookupMs: t2 - t1,
      matchMs: t3 - t2,
      warpMs: 0,
      rows: result.rows,
      warpRows: 0,
      invariantMs: 0,
      invariantRows: 0,
    };
    const hashes = fp.hashes.count;
    const seconds = samples.length / sampleRate;
    if (plain.match) return { hashes, timings, ...plain, ...graded(plain, "plain") };
    // Second: the invariant index, one lookup whatever the clip's speed or pitch (decision 033).
    if (recognizeInvariant && seconds >= INVARIANT_MIN_SECONDS) {
      const inv = await recognizeInvariant(samples, sampleRate, true);
      timings.invariantMs = performance.now() - t3;
      timings.invariantRows = inv.rows;
      if (inv.match)
        return { hashes, timings, candidates: inv.candidates, match: inv.match, ...graded(inv, "invariant") };
    }
    if (!warpSearch || seconds < WARP_MIN_SECONDS) return { hashes, timings, ...plain, ...graded(plain, "plain") };
    // Last: the warped search, for what the invariant index misses (decision 033 measured it on reverb).
    const t4 = performance.now();
    const warped = await recognizeWarped(samples, sampleRate, warpSearch);
    timings.warpMs = performance.now() - t4;
    timings.warpRows = warped.rows;
    const { candidates, match: found } = warped.match ? warped : plain;
    return {
      hashes,
      timings,
      candidates,
      match: found,
      ...graded({ candidates, match: found }, warped.match ? "warped" : "plain"),
    };
  }

  /** Hashes of a song's stored audio: from the hash cache when its content was fingerprinted before, else decoded. */
  async function hashesOf(song: { audio_key: string; audio_sha256: string | null }) {
    const cached =
      deps.hashCacheDir && song.audio_sha256
        ? hashCacheFile(deps.hashCacheDir, song.audio_sha256, preset, invariant ?? undefined)
        : "";
    const hit = cached ? await readHashCache(cached) : undefined;
    if (hit) return hit;
    const local = await storage.localFile(song.audio_key);
    try {
      const head = Buffer.alloc(8192);
      const fh = await open(local.path, "r");
      const { bytesRead } = await fh.read(head, 0, head.length, 0);
      await fh.close();
      const format = sniffAudio(head.subarray(0, bytesRead));
      if (!format) throw new Error("stored audio is not a recognised format");
      const fingerprint = deps.pool?.fingerprint ?? fingerprintAudioFile;
      return (await fingerprint(local.path, format, preset)).hashes;
    } finally {
      await local.release();
    }
  }

  /**
   * Fingerprint a song's stored audio and replace its prints: the plain hashes (unless `plain` is false: the
   * backfill of the invariant index) and the invariant entries.
   */
  async function indexSong(songId: string, opts: { plain?: boolean } = {}): Promise<void> {
    const song = await database.db
      .selectFrom("song")
      .select(["audio_key", "audio_sha256"])
      .where("id", "=", songId)
      .executeTakeFirst();
    // A song deleted before its job ran has nothing left to index.
    if (!song?.audio_key) return;
    const prints = await hashesOf({ audio_key: song.audio_key, audio_sha256: song.audio_sha256 });
    await database.tx(async (trx) => {
      const still = await trx.selectFrom("song").select("audio_key").where("id", "=", songId).executeTakeFirst();
      // The audio changed (or the song went) while we decoded: the newer job will index it.
      if (still?.audio_key !== song.audio_key) return;
      const now = nowIso();
      if (opts.plain !== false) {
        await repo.replace(trx, songId, prints.hashes, prints.offsets, prints.count);
        await trx
          .updateTable("song")
          .set({ fingerprinted_at: now, fingerprint_preset: preset.name })
          .where("id", "=", songId)
          .execute();
      }
      if (invariant) {
        await triplets.replace(trx, songId, prints.invariant);
        await trx
          .updateTable("song")
          .set({ invariant_at: now, invariant_preset: invariant.name })
          .where("id", "=", songId)
          .execute();
      }
    });
  }

  const backfill = invariant
    ? createInvariantBackfill({ database, triplets, jobs, config: invariant, plainPreset: preset.name, indexSong })
    : null;
  jobs.register(INDEX_JOB, async (payload) => {
    await indexSong(String(payload.songId));
    // A re-index leaves the song's old invariant rows to the sweep.
    await backfill?.sweepSoon();
  });

  return {
    preset,
    recognize,
    indexSong,
    /** The invariant index's background backfill and sweep (null when the index is off). */
    backfill,

    /** Queue indexing of a song (inside the caller's transaction when given). */
    enqueue(songId: string, trx?: Parameters<JobQueue["enqueue"]>[2]): Promise<string> {
      return jobs.enqueue(INDEX_JOB, { songId }, trx);
    },

    /**
     * A confident match of freshly uploaded audio against the catalogue, or null; `warp` says how the upload was
     * sped up, pitch-shifted or stretched from it (null when it matched as it is).
     */
    async findDuplicate(
      mono: Float32Array,
      sampleRate: number,
    ): Promise<{ songId: string; confidence: number; warp: Warp | null } | null> {
      const len = Math.min(mono.length, DUPLICATE_EXCERPT_SECONDS * sampleRate);
      const start = Math.max(0, Math.floor((mono.length - len) / 2));
      // The upload was decoded on the pool already: its check is not refused halfway.
      const result = await recognize(mono.subarray(start, start + len), sampleRate, true);
      const m = result.match;
      return m ? { songId: m.songId, confidence: m.confidence, warp: m.warp } : null;
    },

    /** Fingerprint status of a song: stored hash count, when, which preset, and its latest indexing job. */
    async status(songId: string) {
      const song = await database.db
        .selectFrom("song")
        .select(["id", "fingerprinted_at", "fingerprint_preset", "duration_sec"])
        .where("id", "=", songId)
        .executeTakeFirst();
      if (!song) throw new AppError("not_found", MESSAGES.songNotFound);
      const job = await database.db
        .selectFrom("job")
        .select(["status", "last_error", "attempts", "updated_at"])
        .where("kind", "=", INDEX_JOB)
        .where("payload", "=", JSON.stringify({ songId }))
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      const count = await repo.count(songId);
      const duration = Number(song.duration_sec ?? 0);
      return {
        songId,
        count,
        perSecond: duration > 0 ? count / duration : 0,
        fingerprintedAt: toIso(song.fingerprinted_at),
        preset: song.fingerprint_preset,
        job: job
          ? {
              status: job.status,
              lastError: job.last_error,
              attempts: Number(job.attempts),
              updatedAt: toIso(job.updated_at),
            }
          : null,
      };
    },
  };
}

/** The fingerprints service type. */
export type FingerprintsService = ReturnType<typeof createFingerprintsService>;

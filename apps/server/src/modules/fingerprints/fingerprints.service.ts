import { open } from "node:fs/promises";
import { DEFAULT_PRESET, type FingerprintConfig, fingerprintQuery, lookupFromRows, match } from "@unheard/fingerprint";
import { MESSAGES } from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { sniffAudio } from "../../lib/audio.js";
import type { JobQueue } from "../../lib/jobs.js";
import type { AudioStorage } from "../../lib/storage.js";
import { nowIso, toIso } from "../../lib/time.js";
import { fingerprintAudioFile, hashCacheFile, readHashCache } from "./fingerprint-file.js";
import type { FingerprintsRepo } from "./fingerprints.repo.js";

/** The job that (re)indexes one song's audio. */
export const INDEX_JOB = "fingerprint.index";
/** Duplicate checks on upload look at this much audio from the middle of the file. */
const DUPLICATE_EXCERPT_SECONDS = 30;

/** One ranked candidate of a recognition. */
export type Recognition = {
  hashes: number;
  candidates: { songId: string; aligned: number; confidence: number; offsetSeconds: number }[];
  match: { songId: string; aligned: number; confidence: number; offsetSeconds: number } | null;
};

/** Indexing songs' audio, recognising clips, spotting duplicate uploads (issue 8). */
export function createFingerprintsService(deps: {
  database: Database;
  repo: FingerprintsRepo;
  storage: AudioStorage;
  jobs: JobQueue;
  preset?: FingerprintConfig;
  /** Where hashes computed ahead of time are kept by content (the demo catalogue's renders). */
  hashCacheDir?: string;
}) {
  const { database, repo, storage, jobs } = deps;
  const preset = deps.preset ?? DEFAULT_PRESET;

  async function recognize(samples: Float32Array, sampleRate: number): Promise<Recognition> {
    const fp = fingerprintQuery(samples, sampleRate, preset);
    const distinct = [...new Set(fp.hashes.hashes.subarray(0, fp.hashes.count))];
    const rows = await repo.postings(distinct, preset.index.maxPostingsPerHash);
    const result = match(fp.hashes, lookupFromRows(rows), preset);
    const shape = (c: (typeof result.candidates)[number]) => ({
      songId: c.songId,
      aligned: c.aligned,
      confidence: c.confidence,
      offsetSeconds: c.offsetSeconds,
    });
    return {
      hashes: fp.hashes.count,
      candidates: result.candidates.map(shape),
      match: result.match ? shape(result.match) : null,
    };
  }

  /** Hashes of a song's stored audio: from the hash cache when its content was fingerprinted before, else decoded. */
  async function hashesOf(song: { audio_key: string; audio_sha256: string | null }) {
    const cached =
      deps.hashCacheDir && song.audio_sha256 ? hashCacheFile(deps.hashCacheDir, song.audio_sha256, preset) : "";
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
      return (await fingerprintAudioFile(local.path, format, preset)).hashes;
    } finally {
      await local.release();
    }
  }

  /** Fingerprint a song's stored audio and replace its hashes. */
  async function indexSong(songId: string): Promise<void> {
    const song = await database.db
      .selectFrom("song")
      .select(["audio_key", "audio_sha256"])
      .where("id", "=", songId)
      .executeTakeFirst();
    // A song deleted before its job ran has nothing left to index.
    if (!song?.audio_key) return;
    const hashes = await hashesOf({ audio_key: song.audio_key, audio_sha256: song.audio_sha256 });
    await database.tx(async (trx) => {
      const still = await trx.selectFrom("song").select("audio_key").where("id", "=", songId).executeTakeFirst();
      // The audio changed (or the song went) while we decoded: the newer job will index it.
      if (still?.audio_key !== song.audio_key) return;
      await repo.replace(trx, songId, hashes.hashes, hashes.offsets, hashes.count);
      await trx
        .updateTable("song")
        .set({ fingerprinted_at: nowIso(), fingerprint_preset: preset.name })
        .where("id", "=", songId)
        .execute();
    });
  }

  jobs.register(INDEX_JOB, async (payload) => indexSong(String(payload.songId)));

  return {
    preset,
    recognize,
    indexSong,

    /** Queue indexing of a song (inside the caller's transaction when given). */
    enqueue(songId: string, trx?: Parameters<JobQueue["enqueue"]>[2]): Promise<string> {
      return jobs.enqueue(INDEX_JOB, { songId }, trx);
    },

    /** A confident match of freshly uploaded audio against the catalogue, or null. */
    async findDuplicate(
      mono: Float32Array,
      sampleRate: number,
    ): Promise<{ songId: string; confidence: number } | null> {
      const len = Math.min(mono.length, DUPLICATE_EXCERPT_SECONDS * sampleRate);
      const start = Math.max(0, Math.floor((mono.length - len) / 2));
      const result = await recognize(mono.subarray(start, start + len), sampleRate);
      return result.match ? { songId: result.match.songId, confidence: result.match.confidence } : null;
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

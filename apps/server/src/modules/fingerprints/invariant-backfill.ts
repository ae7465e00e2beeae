// Bringing an existing catalogue into the invariant index in the background (issue 39, decision 033): a job indexes
// a few songs at a time and queues the next until none is left; recognition keeps working meanwhile (the plain
// pass and the warped search cover the songs not done yet). A sweep job then deletes rows whose song number lost
// its song (re-indexed or deleted songs).
import type { InvariantIndexConfig } from "@unheard/fingerprint";
import { sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { JobQueue } from "../../lib/jobs.js";
import type { TripletsRepo } from "./triplets.repo.js";

/** The job that indexes the next few songs missing from the invariant index. */
export const INVARIANT_BACKFILL_JOB = "fingerprint.invariant-backfill";
/** The job that deletes the rows of song numbers that lost their song. */
export const INVARIANT_SWEEP_JOB = "fingerprint.invariant-sweep";
/** Songs per backfill job: short jobs, so other work (new uploads' indexing) interleaves. */
const BACKFILL_CHUNK = 8;

/** How far the invariant index is: songs with audio, those in the index, and numbers waiting for the sweep. */
export type InvariantProgress = { songs: number; indexed: number; remaining: number; retired: number; preset: string };

/** The backfill and the sweep, registered on the job queue. */
export function createInvariantBackfill(deps: {
  database: Database;
  triplets: TripletsRepo;
  jobs: JobQueue;
  config: InvariantIndexConfig;
  /** The plain preset's name: a song whose plain hashes are current is indexed for the invariant index only. */
  plainPreset: string;
  indexSong: (songId: string, opts: { plain?: boolean }) => Promise<void>;
}) {
  const { database, triplets, jobs, config } = deps;
  const { db } = database;

  const missing = () =>
    db
      .selectFrom("song")
      .where("audio_key", "is not", null)
      .where((eb) => eb.or([eb("invariant_preset", "is", null), eb("invariant_preset", "!=", config.name)]));

  /** Whether a job of `kind` is waiting or running already. */
  async function queued(kind: string): Promise<boolean> {
    const row = await db
      .selectFrom("job")
      .select("id")
      .where("kind", "=", kind)
      .where("status", "in", ["queued", "running"])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Queue a job of `kind` unless one is waiting or running already. */
  async function ensure(kind: string): Promise<boolean> {
    if (await queued(kind)) return false;
    await jobs.enqueue(kind, {});
    return true;
  }

  /** Index the next chunk; queue the next one while songs remain, else the sweep when rows wait for it. */
  async function runChunk(): Promise<void> {
    const songs = await missing()
      .select(["id", "fingerprint_preset", "fingerprinted_at"])
      .orderBy("created_at")
      .limit(BACKFILL_CHUNK)
      .execute();
    for (const song of songs) {
      const plainCurrent = song.fingerprinted_at !== null && song.fingerprint_preset === deps.plainPreset;
      await deps.indexSong(song.id, { plain: !plainCurrent });
    }
    // Queued from inside this job, so the queue's own row for it is still "running": enqueue directly.
    if (songs.length === BACKFILL_CHUNK) await jobs.enqueue(INVARIANT_BACKFILL_JOB, {});
    else if ((await triplets.retired()).length > 0) await ensure(INVARIANT_SWEEP_JOB);
  }

  jobs.register(INVARIANT_BACKFILL_JOB, runChunk);
  jobs.register(INVARIANT_SWEEP_JOB, async () => {
    await triplets.sweep(await triplets.retired());
  });

  return {
    /** Start the backfill when songs are missing from the index (at most one chain of jobs at a time). */
    async start(): Promise<boolean> {
      const row = await missing().select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
      if (Number(row.n) === 0) return false;
      return ensure(INVARIANT_BACKFILL_JOB);
    },

    /** Queue a sweep when rows of numbers without a song are waiting (after a re-index or a song's deletion). */
    async sweepSoon(): Promise<boolean> {
      if ((await triplets.retired()).length === 0) return false;
      return ensure(INVARIANT_SWEEP_JOB);
    },

    /** How far the index is. */
    async progress(): Promise<InvariantProgress> {
      const all = await db
        .selectFrom("song")
        .select(sql<number>`count(*)`.as("n"))
        .where("audio_key", "is not", null)
        .executeTakeFirstOrThrow();
      const left = await missing().select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
      const songs = Number(all.n);
      const remaining = Number(left.n);
      return {
        songs,
        indexed: songs - remaining,
        remaining,
        retired: (await triplets.retired()).length,
        preset: config.name,
      };
    },
  };
}

/** The backfill's type. */
export type InvariantBackfill = ReturnType<typeof createInvariantBackfill>;

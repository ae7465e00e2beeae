import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DB } from "../db/schema.js";
import { newId } from "./ids.js";
import { nowIso } from "./time.js";

/** A job handler: throw to fail the attempt (it is retried until maxAttempts). */
export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

/** How long a running job may go without finishing before another worker takes it over (a crash or restart). */
const LEASE_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 3;

/** Insert a queued job row (inside the caller's transaction when given one); the queue's workers pick it up. */
export async function enqueueJob(trx: Kysely<DB>, kind: string, payload: Record<string, unknown>): Promise<string> {
  const id = newId();
  const now = nowIso();
  await trx
    .insertInto("job")
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      status: "queued",
      attempts: 0,
      last_error: null,
      run_after: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** A durable job queue in the `job` table: survives restarts, shared by instances, failures kept for admins. */
export function createJobQueue(deps: { database: Database; log: FastifyBaseLogger }) {
  const { database, log } = deps;
  const { db, dialect } = database;
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  /** The job this process is running, for the shutdown warning. */
  let current: { id: string; kind: string } | undefined;
  let wake: (() => void) | undefined;

  /** Take the next due job (or one whose lease ran out) and mark it running, atomically. */
  async function claim() {
    const now = nowIso();
    const staleBefore = new Date(Date.now() - LEASE_MS).toISOString();
    return database.tx(async (trx) => {
      let q = trx
        .selectFrom("job")
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "queued"), eb("run_after", "<=", now)]),
            eb.and([eb("status", "=", "running"), eb("updated_at", "<", staleBefore)]),
          ]),
        )
        .orderBy("created_at")
        .limit(1);
      // Several PostgreSQL instances may poll at once: each skips rows another holds.
      if (dialect === "postgres") q = q.forUpdate().skipLocked();
      const job = await q.executeTakeFirst();
      if (!job) return undefined;
      await trx
        .updateTable("job")
        .set({ status: "running", attempts: sql`attempts + 1`, updated_at: now })
        .where("id", "=", job.id)
        .execute();
      return { ...job, attempts: Number(job.attempts) + 1 };
    });
  }

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    const handler = handlers.get(job.kind);
    current = { id: job.id, kind: job.kind };
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(JSON.parse(job.payload) as Record<string, unknown>);
      await db
        .updateTable("job")
        .set({ status: "done", last_error: null, updated_at: nowIso() })
        .where("id", "=", job.id)
        .execute();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failed = job.attempts >= MAX_ATTEMPTS;
      log.warn(
        { job: job.id, kind: job.kind, attempt: job.attempts, err: message },
        failed ? "job failed" : "job attempt failed",
      );
      // Back off before the next attempt: 10 s, 40 s, ...
      const retryAt = new Date(Date.now() + 10_000 * job.attempts ** 2).toISOString();
      await db
        .updateTable("job")
        .set({
          status: failed ? "failed" : "queued",
          last_error: message.slice(0, 2000),
          run_after: retryAt,
          updated_at: nowIso(),
        })
        .where("id", "=", job.id)
        .execute();
    } finally {
      current = undefined;
    }
    return true;
  }

  return {
    register(kind: string, handler: JobHandler): void {
      handlers.set(kind, handler);
    },

    /** Queue a job, inside the caller's transaction when given one. */
    async enqueue(kind: string, payload: Record<string, unknown>, trx: Kysely<DB> = db): Promise<string> {
      const id = await enqueueJob(trx, kind, payload);
      wake?.();
      return id;
    },

    /** Run every due job now (tests and the backfill command use this). */
    async drain(): Promise<number> {
      let n = 0;
      while (await runOne()) n++;
      return n;
    },

    /** Poll for work until stop(); wakes at once when this process enqueues. */
    start(intervalMs = 2000): void {
      stopped = false;
      const loop = async () => {
        if (running || stopped) return;
        running = true;
        try {
          while (!stopped && (await runOne())) {}
        } catch (err) {
          log.error({ err }, "job loop error");
        } finally {
          running = false;
        }
        if (!stopped) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, intervalMs);
          });
          wake = undefined;
          if (timer) clearTimeout(timer);
          void loop();
        }
      };
      void loop();
    },

    /**
     * Stop polling and wait for the running job, at most `graceMs`: a shutdown must not hang on background work. A
     * job still running then is left to its lease and runs again after it (jobs are idempotent).
     */
    async stop(graceMs = 5_000): Promise<void> {
      stopped = true;
      wake?.();
      const deadline = Date.now() + graceMs;
      while (running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (running)
        log.warn(
          { job: current?.id, kind: current?.kind, graceMs },
          "a job was still running when the queue stopped; it runs again once its lease ends",
        );
    },

    /** Recent failed or waiting jobs, for admins. */
    recent(limit = 100) {
      return db
        .selectFrom("job")
        .selectAll()
        .where("status", "!=", "done")
        .orderBy("updated_at", "desc")
        .limit(limit)
        .execute();
    },
  };
}

/** The job queue type. */
export type JobQueue = ReturnType<typeof createJobQueue>;

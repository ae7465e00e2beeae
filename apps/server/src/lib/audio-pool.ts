// Audio work off the event loop, within budgets (issue 24): decoding, measuring and fingerprinting run on a few
// worker threads, and so does reading a tracker's sheet file (issue 37). Uploads, recognitions and sheets wait in a
// bounded queue (past it: 503 with Retry-After); the index job's work waits without bound behind them (its job
// runner is one job at a time already). Each job has a time bound and each thread a heap bound: a job past either
// has its thread stopped and replaced, and the file is refused.
import { Worker } from "node:worker_threads";
import type { FingerprintConfig } from "@unheard/fingerprint";
import { IMPORT_MESSAGES, MESSAGES, type SheetReading } from "@unheard/shared";
import { AppError } from "../errors.js";
import type { SongPrints } from "../modules/fingerprints/fingerprint-file.js";
import type { RecognitionResult, RecognitionTask } from "../modules/fingerprints/recognition-tasks.js";
import { SheetError } from "../modules/imports/csv.js";
import type { SheetFile } from "../modules/imports/sheet-read.js";
import type { SheetRows } from "../modules/imports/sheet-rows.js";
import type { AudioAnalysis, AudioFormat, DecodedAudio } from "./audio.js";
import { AudioDecodeError } from "./audio-errors.js";
import type { AudioTask, AudioTaskMessage, AudioTaskReply } from "./audio-pool-worker.js";
import { workerEntry } from "./worker-entry.js";

/** Settings of a pool (config.audio). */
export type AudioPoolOptions = {
  /** Worker threads. */
  workers: number;
  /** Interactive jobs (uploads, recognitions) that may wait for a thread; more are refused with 503. */
  queue: number;
  /** The longest one job may run. */
  jobMs: number;
  /** The longest audio accepted, in seconds. */
  maxSeconds: number;
  /** Each thread's V8 heap (old generation), in MB. */
  heapMb?: number;
  /** Told when a thread is stopped or fails. */
  log?: { warn(obj: object, msg: string): void };
};

/** The audio pool's jobs. */
export type AudioPool = {
  /** Decode and measure a file, keeping the first `keepSeconds` of mono (upload, recognition). */
  decode(file: string, format: AudioFormat, opts?: { keepSeconds?: number }): Promise<DecodedAudio>;
  /** Decode and fingerprint a whole file (the index job: waits without bound, never refused as busy). */
  fingerprint(
    file: string,
    format: AudioFormat,
    preset: FingerprintConfig,
  ): Promise<{ analysis: AudioAnalysis; hashes: SongPrints }>;
  /**
   * One compute step of a recognition (decision 029). `continued`: a later step of a recognition already under way,
   * never refused as busy (its first step was admitted).
   */
  recognition<T extends RecognitionTask>(
    step: T,
    opts?: { continued?: boolean },
  ): Promise<RecognitionResult<T["kind"]>>;
  /**
   * Read a tracker's sheet file (workbook or CSV) into tabs (an upload: refused as busy like `decode`). A file that
   * can't be read, or that a thread could not read within its time and memory, fails with a SheetError.
   */
  readSheet(bytes: Uint8Array, fileName: string): Promise<SheetFile>;
  /**
   * A sheet file read (from its bytes, or as read before) and its rows decided (sheet-rows.ts): the file, when read
   * from bytes, and its rows. Fails as readSheet does.
   */
  readSheetRows(
    source: { bytes: Uint8Array; fileName: string } | { file: SheetFile },
    reading: SheetReading,
    remembered: Record<string, string[]>,
  ): Promise<{ file: SheetFile | null; rows: SheetRows }>;
  /** Threads at most: how many parts a step worth splitting is cut into. */
  readonly size: number;
  /** Jobs running and waiting now. */
  load(): { running: number; waiting: number };
  /** Refuse new jobs, fail the waiting ones and stop every thread. */
  close(): Promise<void>;
};

/** A thread's heap unless told: the kept mono and chunks are array buffers outside it; this bounds the rest. */
const DEFAULT_HEAP_MB = 256;
/** Seconds a client refused as busy is told to wait. */
const BUSY_RETRY_SECONDS = 30;

type Job = {
  task: AudioTask;
  background: boolean;
  resolve(value: unknown): void;
  reject(err: Error): void;
};

/** A thread: `ready` once its modules are loaded (a job's time bound starts when it gets the job, not before). */
type Slot = {
  worker: Worker;
  job: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  ready: boolean;
  dead: boolean;
};

/** A thread stopped past its time or heap while reading a sheet: the workbook, not the server, is the problem. */
function sheetFailure(err: unknown): never {
  if (err instanceof AudioDecodeError && err.reason === "too_costly")
    throw new SheetError(IMPORT_MESSAGES.workbookTooComplex);
  throw err;
}

/** Start a pool; threads start on first use and are replaced when stopped. */
export function createAudioPool(opts: AudioPoolOptions): AudioPool {
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let nextId = 0;
  let closed = false;

  const settle = (slot: Slot, outcome: { value: unknown } | { error: Error }) => {
    const job = slot.job;
    if (!job) return;
    slot.job = undefined;
    clearTimeout(job.timer);
    // An idle thread must not keep the process alive.
    if (!slot.dead) slot.worker.unref();
    if ("error" in outcome) job.reject(outcome.error);
    else job.resolve(outcome.value);
  };

  /** Stop a thread (timed out, out of memory, crashed); its job fails with `error`; another thread takes over. */
  const retire = (slot: Slot, error: Error) => {
    if (slot.dead) return;
    slot.dead = true;
    slots.splice(slots.indexOf(slot), 1);
    settle(slot, { error });
    void slot.worker.terminate().catch(() => {});
    // A thread that could not even start would fail again: the work waiting fails now instead of looping.
    if (!slot.ready) for (const job of waiting.splice(0)) job.reject(error);
    dispatch();
  };

  const spawn = (): Slot => {
    const worker = new Worker(workerEntry(import.meta.url, "./audio-pool-worker.ts"), {
      resourceLimits: { maxOldGenerationSizeMb: opts.heapMb ?? DEFAULT_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    const slot: Slot = { worker, job: undefined, ready: false, dead: false };
    worker.on("message", (reply: AudioTaskReply | { ready: true }) => {
      if ("ready" in reply) {
        slot.ready = true;
        dispatch();
        return;
      }
      if (!slot.job || slot.job.id !== reply.id) return;
      if (reply.ok) settle(slot, { value: reply.value });
      else
        settle(slot, {
          error: reply.reason
            ? new AudioDecodeError(reply.reason, reply.maxSeconds)
            : reply.sheet
              ? new SheetError(reply.message)
              : new Error(reply.message),
        });
      dispatch();
    });
    worker.on("error", (err: Error & { code?: string }) => {
      opts.log?.warn({ err }, "audio worker failed");
      // Out of heap: the file needs more than a thread may use.
      retire(slot, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? new AudioDecodeError("too_costly") : err);
    });
    worker.on("exit", () => retire(slot, new Error("audio worker exited")));
    worker.unref();
    slots.push(slot);
    return slot;
  };

  /** Start waiting jobs on idle threads, interactive ones first. */
  function dispatch(): void {
    if (closed) return;
    // Threads for the work waiting, up to the pool's size (a thread that is still starting counts as free).
    while (slots.length < opts.workers && slots.filter((s) => !s.job).length < waiting.length) spawn();
    while (waiting.length > 0) {
      const slot = slots.find((s) => s.ready && !s.job && !s.dead);
      if (!slot) return;
      const at = waiting.findIndex((j) => !j.background);
      const [job] = waiting.splice(at >= 0 ? at : 0, 1);
      if (!job) return;
      const id = nextId++;
      const timer = setTimeout(() => {
        opts.log?.warn({ kind: job.task.kind, ms: opts.jobMs }, "audio job took too long: its worker is stopped");
        retire(slot, new AudioDecodeError("too_costly"));
      }, opts.jobMs);
      timer.unref();
      slot.job = { ...job, id, timer };
      slot.worker.ref();
      slot.worker.postMessage({ id, task: job.task } satisfies AudioTaskMessage);
    }
  }

  function submit<T>(task: AudioTask, background: boolean, admitted = false): Promise<T> {
    if (closed) return Promise.reject(new AppError("unavailable", MESSAGES.busy));
    if (!background && !admitted) {
      // Interactive jobs go ahead of background ones: what is ahead of this one is what runs and what else waits
      // of its kind. Back-pressure: past the threads plus the queue, refused at once rather than piled up.
      const ahead = slots.filter((s) => s.job).length + waiting.filter((j) => !j.background).length;
      if (ahead >= opts.workers + opts.queue)
        return Promise.reject(
          new AppError("unavailable", MESSAGES.audioBusy, { headers: { "retry-after": String(BUSY_RETRY_SECONDS) } }),
        );
    }
    return new Promise<T>((resolve, reject) => {
      waiting.push({ task, background, resolve: resolve as (v: unknown) => void, reject });
      dispatch();
    });
  }

  return {
    decode: (file, format, o = {}) =>
      submit(
        {
          kind: "decode",
          file,
          format,
          maxSeconds: opts.maxSeconds,
          ...(o.keepSeconds === undefined ? {} : { keepSeconds: o.keepSeconds }),
        },
        false,
      ),
    fingerprint: (file, format, preset) =>
      submit({ kind: "fingerprint", file, format, preset, maxSeconds: opts.maxSeconds }, true),
    recognition: (step, o = {}) => submit({ kind: "recognition", step }, false, o.continued ?? false),
    readSheet: (bytes, fileName) => submit<SheetFile>({ kind: "sheet", bytes, fileName }, false).catch(sheetFailure),
    readSheetRows: (source, reading, remembered) =>
      submit<{ file: SheetFile | null; rows: SheetRows }>(
        { kind: "sheetRows", source, reading, remembered },
        false,
      ).catch(sheetFailure),
    size: opts.workers,
    load: () => ({ running: slots.filter((s) => s.job).length, waiting: waiting.length }),
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new AppError("unavailable", MESSAGES.busy));
      await Promise.all(
        [...slots].map((slot) => {
          retire(slot, new AppError("unavailable", MESSAGES.busy));
          return slot.worker.terminate().catch(() => {});
        }),
      );
    },
  };
}

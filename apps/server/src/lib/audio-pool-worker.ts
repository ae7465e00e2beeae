// One thread of the audio pool (lib/audio-pool.ts): decodes, measures and fingerprints one file at a time, runs a
// recognition's compute step or reads a tracker's sheet file, off the server's event loop, and answers with the
// result (a file's arrays moved, not copied) or the reason it was refused.
import { parentPort } from "node:worker_threads";
import type { FingerprintConfig } from "@unheard/fingerprint";
import type { SheetReading } from "@unheard/shared";
import { fingerprintAudioFile } from "../modules/fingerprints/fingerprint-file.js";
import { type RecognitionTask, runRecognitionTask } from "../modules/fingerprints/recognition-tasks.js";
import { SheetError } from "../modules/imports/csv.js";
import type { SheetFile } from "../modules/imports/sheet-read.js";
import { type AudioFormat, decodeAudioFile } from "./audio.js";
import { AudioDecodeError, type AudioDecodeFailure } from "./audio-errors.js";

/**
 * Work for a thread: decode and measure (keeping `keepSeconds` of mono), decode and fingerprint everything, one
 * compute step of a recognition, or read a sheet file (a tracker's workbook or CSV) into tabs.
 */
export type AudioTask =
  | { kind: "decode"; file: string; format: AudioFormat; maxSeconds: number; keepSeconds?: number }
  | { kind: "fingerprint"; file: string; format: AudioFormat; maxSeconds: number; preset: FingerprintConfig }
  | { kind: "recognition"; step: RecognitionTask }
  | { kind: "sheet"; bytes: Uint8Array; fileName: string }
  | {
      kind: "sheetRows";
      source: { bytes: Uint8Array; fileName: string } | { file: SheetFile };
      reading: SheetReading;
      remembered: Record<string, string[]>;
    };

/** A task as sent to the thread. */
export type AudioTaskMessage = { id: number; task: AudioTask };

/**
 * The thread's answer: the value, or why the file was refused (`reason`; `sheet`: a sheet file that can't be read,
 * `message` saying why to the admin) or what went wrong (`message`).
 */
export type AudioTaskReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; reason?: AudioDecodeFailure; maxSeconds?: number; sheet?: true; message: string };

/** Run one task here; its typed arrays are listed to be moved to the caller. */
async function run(task: AudioTask): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  if (task.kind === "decode") {
    const opts = task.keepSeconds === undefined ? {} : { keepSeconds: task.keepSeconds };
    const decoded = await decodeAudioFile(task.file, task.format, { ...opts, maxSeconds: task.maxSeconds });
    return { value: decoded, transfer: [decoded.mono.buffer as ArrayBuffer] };
  }
  if (task.kind === "recognition") return { value: runRecognitionTask(task.step), transfer: [] };
  if (task.kind === "sheet") {
    // Loaded on a thread's first sheet: SheetJS is a megabyte of code that audio work never needs.
    const { readSheetFile } = await import("../modules/imports/sheet-read.js");
    return { value: readSheetFile(task.bytes, task.fileName), transfer: [] };
  }
  if (task.kind === "sheetRows") {
    const [{ readSheetFile }, { readSheetRows }] = await Promise.all([
      import("../modules/imports/sheet-read.js"),
      import("../modules/imports/sheet-rows.js"),
    ]);
    const { source } = task;
    const file = "file" in source ? source.file : readSheetFile(source.bytes, source.fileName);
    const rows = readSheetRows(file, task.reading, task.remembered);
    // A file read here goes back with its rows (a sync keeps it for its approval); one sent here is not sent back.
    return { value: { file: "file" in source ? null : file, rows }, transfer: [] };
  }
  const result = await fingerprintAudioFile(task.file, task.format, task.preset, { maxSeconds: task.maxSeconds });
  const { hashes } = result;
  const inv = hashes.invariant;
  const buffers = new Set([
    hashes.hashes.buffer,
    hashes.offsets.buffer,
    inv.keys.buffer,
    inv.hi.buffer,
    inv.lo.buffer,
  ] as ArrayBuffer[]);
  return { value: result, transfer: [...buffers] };
}

const port = parentPort;
if (port) {
  port.on("message", async ({ id, task }: AudioTaskMessage) => {
    try {
      const { value, transfer } = await run(task);
      port.postMessage({ id, ok: true, value } satisfies AudioTaskReply, transfer);
    } catch (err) {
      const reply: AudioTaskReply =
        err instanceof AudioDecodeError
          ? {
              id,
              ok: false,
              reason: err.reason,
              ...(err.maxSeconds === undefined ? {} : { maxSeconds: err.maxSeconds }),
              message: err.message,
            }
          : err instanceof SheetError
            ? { id, ok: false, sheet: true, message: err.message }
            : { id, ok: false, message: err instanceof Error ? err.message : String(err) };
      port.postMessage(reply);
    }
  });
  // Loaded: the pool sends work (and starts its clock) from now on.
  port.postMessage({ ready: true });
}

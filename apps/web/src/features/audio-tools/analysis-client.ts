import { type AudioReport, analyzeAudio } from "./analysis";
import type { AnalysisRequest, AnalysisResponse } from "./analysis-worker";

const abortError = () => new DOMException("The analysis was cancelled.", "AbortError");

/** Let the browser paint (progress text, spinner) before the main thread is busy. */
const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 16));

/** The analysis on the main thread, for browsers (or tests) where the worker cannot start. */
async function analyzeHere(channels: Float32Array[], sampleRate: number, signal?: AbortSignal): Promise<AudioReport> {
  await nextFrame();
  if (signal?.aborted) throw abortError();
  return analyzeAudio(channels, sampleRate);
}

let nextId = 0;

/**
 * Analyse decoded audio in a module worker (the page stays responsive while a long song is measured); falls
 * back to the main thread when the worker cannot be started. The channels are moved to the worker.
 */
export function analyzeInBackground(
  channels: Float32Array[],
  sampleRate: number,
  signal?: AbortSignal,
): Promise<AudioReport> {
  if (signal?.aborted) return Promise.reject(abortError());
  let worker: Worker;
  try {
    worker = new Worker(new URL("./analysis-worker.ts", import.meta.url), {
      type: "module",
      name: "audio-tools-analysis",
    });
  } catch {
    return analyzeHere(channels, sampleRate, signal);
  }
  const id = ++nextId;
  return new Promise<AudioReport>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      worker.terminate();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort);
    worker.onmessage = (e: MessageEvent<AnalysisResponse>) => {
      if (settled || e.data.id !== id) return;
      finish();
      if (e.data.ok) resolve(e.data.report);
      else reject(new Error(e.data.message));
    };
    // The worker script failed to load or crashed: the channels were copied, not moved, so analyse here.
    worker.onerror = (e) => {
      if (settled) return;
      e.preventDefault();
      finish();
      analyzeHere(channels, sampleRate, signal).then(resolve, reject);
    };
    const request: AnalysisRequest = { id, channels, sampleRate };
    // Copy rather than move: if the worker dies the main thread still has the audio for the fallback.
    worker.postMessage(request);
  });
}

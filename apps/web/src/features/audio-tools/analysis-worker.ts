/**
 * Module worker of the audio quality test: runs `analyzeAudio` off the main thread so the page stays responsive.
 * Bundled by Vite as a same-origin script (the CSP allows 'self', not blob: URLs).
 */
import { analyzeAudio, reportTransferables } from "./analysis";

/** A request: decoded channels (moved, not copied) and their sample rate. */
export type AnalysisRequest = { id: number; channels: Float32Array[]; sampleRate: number };
/** The answer: the report, or the error's message. */
export type AnalysisResponse =
  | { id: number; ok: true; report: ReturnType<typeof analyzeAudio> }
  | { id: number; ok: false; message: string };

type WorkerScope = {
  onmessage: ((e: MessageEvent<AnalysisRequest>) => void) | null;
  postMessage: (message: AnalysisResponse, options?: { transfer?: Transferable[] }) => void;
};

const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const { id, channels, sampleRate } = e.data;
  try {
    const report = analyzeAudio(channels, sampleRate);
    scope.postMessage({ id, ok: true, report }, { transfer: reportTransferables(report) });
  } catch (err) {
    scope.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};

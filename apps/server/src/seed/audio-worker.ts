// A worker thread of prepareDemoAudio (demo-audio.ts): renders the songs it is sent, one at a time. Built into
// apps/server/dist/demo-audio-worker.js (scripts/build-server.mjs).
import { parentPort } from "node:worker_threads";
import { type DemoAudioJob, renderDemoTrack } from "./demo-audio.js";

parentPort?.on("message", (job: DemoAudioJob) => {
  renderDemoTrack(job).then(
    (clip) => parentPort?.postMessage({ id: job.id, clip }),
    (err: unknown) =>
      parentPort?.postMessage({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});

/**
 * Audio fingerprinting (spec §9, issue 8): pure TypeScript on Float32Array, used by the browser (microphone capture)
 * and the server (indexing, matching). No DOM or Node APIs here.
 */
export * from "./certainty.js";
export * from "./config.js";
export * from "./dsp.js";
export * from "./fingerprint.js";
export * from "./hashes.js";
export * from "./invariant.js";
export * from "./invariant-lookup.js";
export * from "./invariant-match.js";
export * from "./invariant-peaks.js";
export * from "./match.js";
export * from "./peaks.js";
export * from "./quality.js";
export * from "./stream.js";
export * from "./warp.js";

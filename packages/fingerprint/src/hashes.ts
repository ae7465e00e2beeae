import { type DerivedParams, deriveParams, type FingerprintConfig } from "./config.js";
import type { Peaks } from "./peaks.js";

/**
 * Hashes with the frame index of their anchor peak (`offsets[i]` belongs to `hashes[i]`).
 *
 * Bit layout of a hash (most significant first, at most 31 bits so it is a non-negative signed 32-bit integer):
 * `f1` (anchor bin, `f1Bits`) | `f2` field (`f2Bits`) | `dt - minDeltaFrames` (`dtBits`). The `f2` field is the
 * target's bin when pairing spans the whole band, or `f2 - f1 + maxDeltaBins` with a target zone.
 * Spec preset: 11 | 11 | 2 bits = 24 bits. Default preset: 8 | 8 | 6 bits = 22 bits.
 */
export type Hashes = {
  count: number;
  hashes: Int32Array;
  offsets: Int32Array;
};

/** The fields a hash is built from. */
export type HashFields = { f1: number; f2: number; dt: number };

/** Pack anchor bin, target bin and frame delta into one 31-bit integer (layout documented on `Hashes`). */
export function packHash(fields: HashFields, config: FingerprintConfig, derived = deriveParams(config)): number {
  const { f1Bits, f2Bits, dtBits, minDeltaFrames, maxDeltaFrames } = derived;
  const { f1, f2, dt } = fields;
  const zone = config.pairing.maxDeltaBins;
  const f2Field = zone === null ? f2 : f2 - f1 + zone;
  if (f1 < 0 || f1 >= 2 ** f1Bits || f2Field < 0 || f2Field >= 2 ** f2Bits) throw new Error("frequency out of range");
  if (dt < minDeltaFrames || dt > maxDeltaFrames) throw new Error("time delta out of range");
  return f1 * 2 ** (f2Bits + dtBits) + f2Field * 2 ** dtBits + (dt - minDeltaFrames);
}

/** Inverse of `packHash`. */
export function unpackHash(hash: number, config: FingerprintConfig, derived = deriveParams(config)): HashFields {
  const { f2Bits, dtBits, minDeltaFrames } = derived;
  const dt = (hash & (2 ** dtBits - 1)) + minDeltaFrames;
  const f2Field = (hash >>> dtBits) & (2 ** f2Bits - 1);
  const f1 = hash >>> (dtBits + f2Bits);
  const zone = config.pairing.maxDeltaBins;
  return { f1, f2: zone === null ? f2Field : f2Field + f1 - zone, dt };
}

/**
 * Pair every anchor peak with up to `fanOut` following peaks whose time delta lies in the pairing range and whose
 * frequency lies in the target zone, taken in time then frequency order.
 */
export function pairPeaks(peaks: Peaks, config: FingerprintConfig, derived: DerivedParams = deriveParams(config)) {
  const { minDeltaFrames, maxDeltaFrames, f2Bits, dtBits } = derived;
  const fanOut = config.pairing.fanOut;
  const zone = config.pairing.maxDeltaBins;
  const { count, frames, bins } = peaks;
  const hashes = new Int32Array(count * fanOut);
  const offsets = new Int32Array(count * fanOut);
  const f1Shift = 2 ** (f2Bits + dtBits);
  const f2Shift = 2 ** dtBits;
  let n = 0;
  let first = 0; // first peak that can be a target of the current anchor (frames only grow)
  for (let i = 0; i < count; i++) {
    const t1 = frames[i] as number;
    const f1 = bins[i] as number;
    while (first < count && (frames[first] as number) < t1 + minDeltaFrames) first++;
    let paired = 0;
    for (let j = first; j < count && paired < fanOut; j++) {
      const dt = (frames[j] as number) - t1;
      if (dt > maxDeltaFrames) break;
      const f2 = bins[j] as number;
      let f2Field = f2;
      if (zone !== null) {
        const df = f2 - f1;
        if (df < -zone || df > zone) continue;
        f2Field = df + zone;
      }
      hashes[n] = f1 * f1Shift + f2Field * f2Shift + (dt - minDeltaFrames);
      offsets[n] = t1;
      n++;
      paired++;
    }
  }
  return { count: n, hashes: hashes.subarray(0, n), offsets: offsets.subarray(0, n) } satisfies Hashes;
}

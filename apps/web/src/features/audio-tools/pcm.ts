import { resample } from "@unheard/fingerprint";

/** The rate the recognition page sends the microphone at (the server accepts 4000-48000 Hz). */
export const RECOGNITION_SAMPLE_RATE = 11025;

/** Float samples (-1..1) as 16-bit little-endian PCM, clamped; the body of POST /api/recognition/pcm. */
export function toPcm16(samples: Float32Array): ArrayBuffer {
  const out = new ArrayBuffer(samples.length * 2);
  const view = new DataView(out);
  for (let i = 0; i < samples.length; i++) {
    const x = Math.max(-1, Math.min(1, samples[i] as number));
    view.setInt16(i * 2, x < 0 ? Math.round(x * 32768) : Math.round(x * 32767), true);
  }
  return out;
}

/** 16-bit mono PCM (`toPcm16`) as a WAV file, e.g. to attach a recording to a report. */
export function pcm16Wav(pcm: ArrayBuffer, sampleRate: number): Blob {
  const header = new DataView(new ArrayBuffer(44));
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) header.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, "RIFF");
  header.setUint32(4, 36 + pcm.byteLength, true);
  text(8, "WAVE");
  text(12, "fmt ");
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true); // PCM
  header.setUint16(22, 1, true); // mono
  header.setUint32(24, sampleRate, true);
  header.setUint32(28, sampleRate * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  text(36, "data");
  header.setUint32(40, pcm.byteLength, true);
  return new Blob([header.buffer, pcm], { type: "audio/wav" });
}

/** Level of a block of samples: RMS and peak, in dBFS (-Infinity for silence). */
export function blockLevel(samples: Float32Array): { rmsDb: number; peakDb: number } {
  let sum = 0;
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] as number;
    sum += x * x;
    const a = Math.abs(x);
    if (a > peak) peak = a;
  }
  const rms = samples.length ? Math.sqrt(sum / samples.length) : 0;
  return { rmsDb: 20 * Math.log10(rms), peakDb: 20 * Math.log10(peak) };
}

/** A dBFS level as a 0..1 meter position over a `floorDb`..0 dB range. */
export function meterFraction(db: number, floorDb = -60): number {
  if (!Number.isFinite(db)) return 0;
  return Math.max(0, Math.min(1, (db - floorDb) / -floorDb));
}

/**
 * The microphone recording so far: blocks at the capture rate are appended as they arrive, and `snapshot()`
 * returns the whole recording at the target rate. The whole recording is resampled each time (15 s at 48 kHz
 * takes a few tens of milliseconds), so the result is exactly what one pass over the finished recording gives.
 */
export class PcmRecording {
  readonly captureRate: number;
  readonly targetRate: number;
  private blocks: Float32Array[] = [];
  private length = 0;

  constructor(captureRate: number, targetRate = RECOGNITION_SAMPLE_RATE) {
    if (!(captureRate > 0)) throw new Error("capture rate must be positive");
    this.captureRate = captureRate;
    this.targetRate = targetRate;
  }

  /** Append a block of samples at the capture rate (copied). */
  push(block: Float32Array): void {
    if (block.length === 0) return;
    this.blocks.push(block.slice());
    this.length += block.length;
  }

  /** Seconds recorded so far. */
  get seconds(): number {
    return this.length / this.captureRate;
  }

  /** The whole recording at the capture rate. */
  captured(): Float32Array {
    if (this.blocks.length !== 1) {
      const all = new Float32Array(this.length);
      let at = 0;
      for (const b of this.blocks) {
        all.set(b, at);
        at += b.length;
      }
      this.blocks = [all];
    }
    return this.blocks[0] ?? new Float32Array(0);
  }

  /** The whole recording so far at the target rate. */
  snapshot(): Float32Array {
    return resample(this.captured(), this.captureRate, this.targetRate);
  }
}

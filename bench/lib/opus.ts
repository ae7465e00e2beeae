import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "opus-roundtrip.py");

/** Opus works at 48 kHz; clips are resampled to it before the round trip and queried at it afterwards. */
export const OPUS_RATE = 48000;

/**
 * Encode and decode clips (mono, 48 kHz) with Opus at `bitrate` through the system libopus. The project's stack
 * (audio-decode) only decodes, so the encoder is reached through python3 + ctypes; returns null with the reason when
 * that is not possible on this machine.
 */
export function opusRoundTrip(clips: Float32Array[], bitrate: number): { clips: Float32Array[] } | { reason: string } {
  const dir = mkdtempSync(join(tmpdir(), "unheard-opus-"));
  try {
    const parts: Buffer[] = [];
    for (const c of clips) {
      const head = Buffer.alloc(4);
      head.writeUInt32LE(c.length);
      parts.push(head, Buffer.from(c.buffer, c.byteOffset, c.byteLength));
    }
    writeFileSync(join(dir, "in"), Buffer.concat(parts));
    const r = spawnSync("python3", [SCRIPT, String(bitrate), join(dir, "in"), join(dir, "out")], { encoding: "utf8" });
    if (r.error) return { reason: "python3 is not available to drive libopus" };
    if (r.status === 3) return { reason: "libopus (the Opus encoder) is not installed" };
    if (r.status !== 0) return { reason: `the Opus round trip failed (status ${r.status}) ${r.stderr.trim()}` };
    const data = readFileSync(join(dir, "out"));
    const out: Float32Array[] = [];
    let pos = 0;
    while (pos < data.length) {
      const n = data.readUInt32LE(pos);
      pos += 4;
      const copy = new Float32Array(n);
      new Uint8Array(copy.buffer).set(data.subarray(pos, pos + 4 * n));
      out.push(copy);
      pos += 4 * n;
    }
    return { clips: out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

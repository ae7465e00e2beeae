// A decompression bomb (issue 24): a small, valid FLAC whose every frame is one CONSTANT subframe of 65,535
// samples, so each ~15 bytes decode to 1.5 s of a DC level (not silent: the peak check passes). 43 KB of it
// decode to 68 minutes at 44.1 kHz.

/** CRC-8 of a FLAC frame header (polynomial x^8 + x^2 + x + 1). */
function crc8(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** CRC-16 of a FLAC frame (polynomial x^16 + x^15 + x^2 + 1). */
function crc16(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** FLAC's UTF-8-like coding of a frame number. */
function codedNumber(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
}

/**
 * A mono 16-bit FLAC of `frames` frames of 65,535 samples at `sampleRate`, each a constant `level`; its
 * STREAMINFO leaves the total length unknown (0), as a streamed encoder may.
 */
export function flacBomb(opts: { frames: number; sampleRate?: number; level?: number }): Buffer {
  const rate = opts.sampleRate ?? 44_100;
  const level = opts.level ?? 8000;
  const block = 65_535;
  const out: number[] = [0x66, 0x4c, 0x61, 0x43]; // "fLaC"
  // Last metadata block, STREAMINFO, 34 bytes.
  out.push(0x80, 0, 0, 34);
  const info = Buffer.alloc(34);
  info.writeUInt16BE(block, 0);
  info.writeUInt16BE(block, 2);
  // Min and max frame size unknown (0). Then 20 bits rate, 3 bits channels - 1 (0), 5 bits bps - 1 (15),
  // 36 bits total samples (0: unknown), then the MD5 (zeros: not checked).
  const packed = (BigInt(rate) << 44n) | (0n << 41n) | (15n << 36n) | 0n;
  info.writeBigUInt64BE(packed, 10);
  out.push(...info);
  for (let n = 0; n < opts.frames; n++) {
    // Sync, fixed block size; block size "16 bit at end", 44.1 kHz; mono, 16 bit (the WASM decoder's frame parser
    // reads each frame on its own, so the frame says its rate and size rather than pointing at STREAMINFO).
    const header = [0xff, 0xf8, 0x79, 0x08, ...codedNumber(n), (block - 1) >> 8, (block - 1) & 0xff];
    header.push(crc8(header));
    // Subframe: zero bit, type CONSTANT (000000), no wasted bits; then the 16-bit value.
    const frame = [...header, 0x00, (level >> 8) & 0xff, level & 0xff];
    const crc = crc16(frame);
    frame.push(crc >> 8, crc & 0xff);
    out.push(...frame);
  }
  return Buffer.from(out);
}

import { open } from "node:fs/promises";

/** What a file's own headers say about its length, read before decoding. */
export type DeclaredLength = {
  /** The duration the headers promise; null when the format does not say. */
  seconds: number | null;
  /** False when the file visibly stops early (a container box or the last Ogg page is missing). */
  complete: boolean;
  /** MP3 only: a LAME tag tells the decoder the encoder's delay and padding, so it trims them itself. */
  gapless: boolean;
};

const UNKNOWN: DeclaredLength = { seconds: null, complete: true, gapless: false };

/** Bytes [at, at + length) of a file (fewer at its end). */
async function readAt(file: string, at: number, length: number): Promise<Buffer> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(Math.max(0, length));
    const { bytesRead } = await fh.read(buf, 0, buf.length, Math.max(0, at));
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Length of an ID3v2 tag at the start of `b` (0 when there is none). */
function id3v2Size(b: Buffer): number {
  if (b.length < 10 || b.toString("latin1", 0, 3) !== "ID3") return 0;
  const size =
    (((b[6] ?? 0) & 0x7f) << 21) | (((b[7] ?? 0) & 0x7f) << 14) | (((b[8] ?? 0) & 0x7f) << 7) | ((b[9] ?? 0) & 0x7f);
  const footer = ((b[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

const MP3_RATES: Record<number, number[]> = {
  3: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  0: [11_025, 12_000, 8000],
};

/** MP3: the frame count of a Xing/Info or VBRI header, and whether a LAME tag follows. */
async function mp3Length(file: string): Promise<DeclaredLength> {
  const head = await readAt(file, 0, 16);
  const start = id3v2Size(head);
  const b = await readAt(file, start, 64 * 1024);
  for (let i = 0; i + 4 < b.length; i++) {
    if (b[i] !== 0xff || ((b[i + 1] ?? 0) & 0xe0) !== 0xe0) continue;
    const version = ((b[i + 1] ?? 0) >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
    const layer = ((b[i + 1] ?? 0) >> 1) & 3; // 1 = Layer III
    const rate = MP3_RATES[version]?.[((b[i + 2] ?? 0) >> 2) & 3];
    if (layer !== 1 || !rate) continue;
    const mono = (b[i + 3] ?? 0) >> 6 === 3;
    const samplesPerFrame = version === 3 ? 1152 : 576;
    const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
    const x = i + 4 + sideInfo;
    const tag = b.toString("latin1", x, x + 4);
    if (tag === "Xing" || tag === "Info") {
      const flags = b.readUInt32BE(x + 4);
      let at = x + 8;
      const frames = flags & 1 ? b.readUInt32BE(at) : null;
      if (flags & 1) at += 4;
      if (flags & 2) at += 4;
      if (flags & 4) at += 100;
      if (flags & 8) at += 4;
      const encoder = b.toString("latin1", at, at + 4);
      const gapless = encoder === "LAME" || encoder === "Lavc" || encoder === "Lavf" || encoder === "L3.9";
      // LAME tag: 12 bits of encoder delay and 12 of padding, 21 bytes in.
      const delay = gapless ? ((b[at + 21] ?? 0) << 4) | ((b[at + 22] ?? 0) >> 4) : 0;
      const padding = gapless ? (((b[at + 22] ?? 0) & 0x0f) << 8) | (b[at + 23] ?? 0) : 0;
      const seconds = frames === null ? null : Math.max(0, frames * samplesPerFrame - delay - padding) / rate;
      return { seconds, complete: true, gapless };
    }
    if (b.toString("latin1", i + 36, i + 40) === "VBRI") {
      return { seconds: (b.readUInt32BE(i + 50) * samplesPerFrame) / rate, complete: true, gapless: false };
    }
    return UNKNOWN;
  }
  return UNKNOWN;
}

/** FLAC: the total sample count of STREAMINFO (0 means unknown). */
async function flacLength(file: string): Promise<DeclaredLength> {
  const head = await readAt(file, 0, 16);
  const b = await readAt(file, id3v2Size(head), 42);
  if (b.toString("latin1", 0, 4) !== "fLaC" || b.length < 42) return UNKNOWN;
  const d = b.subarray(8);
  const rate = ((d[10] ?? 0) << 12) | ((d[11] ?? 0) << 4) | ((d[12] ?? 0) >> 4);
  const total = ((d[13] ?? 0) & 0x0f) * 2 ** 32 + d.readUInt32BE(14);
  return { seconds: rate > 0 && total > 0 ? total / rate : null, complete: true, gapless: false };
}

/** Ogg (Vorbis, Opus): the last page must carry the end-of-stream flag; its granule position gives the length. */
async function oggLength(file: string, size: number): Promise<DeclaredLength> {
  const first = await readAt(file, 0, 4096);
  const tail = await readAt(file, size - 65_536, 65_536);
  const last = tail.lastIndexOf("OggS");
  if (last < 0 || last + 14 > tail.length) return { seconds: null, complete: false, gapless: false };
  const ended = ((tail[last + 5] ?? 0) & 4) !== 0;
  if (!ended) return { seconds: null, complete: false, gapless: false };
  const granule = Number(tail.readBigInt64LE(last + 6));
  const opus = first.indexOf("OpusHead");
  if (opus >= 0) return { seconds: (granule - first.readUInt16LE(opus + 10)) / 48_000, complete: true, gapless: false };
  const vorbis = first.indexOf("\x01vorbis", 0, "latin1");
  if (vorbis >= 0) return { seconds: granule / first.readUInt32LE(vorbis + 12), complete: true, gapless: false };
  return { seconds: null, complete: true, gapless: false };
}

/** MP4/M4A: every top-level box must fit in the file; the movie header gives the duration. */
async function mp4Length(file: string, size: number): Promise<DeclaredLength> {
  let at = 0;
  let seconds: number | null = null;
  while (at + 8 <= size) {
    const h = await readAt(file, at, 16);
    let boxSize = h.readUInt32BE(0);
    const type = h.toString("latin1", 4, 8);
    if (boxSize === 1) boxSize = Number(h.readBigUInt64BE(8));
    else if (boxSize === 0) boxSize = size - at;
    if (boxSize < 8) return { seconds, complete: false, gapless: false };
    if (at + boxSize > size) return { seconds, complete: false, gapless: false };
    if (type === "moov") {
      const moov = await readAt(file, at, Math.min(boxSize, 16 * 1024 * 1024));
      const m = moov.indexOf("mvhd");
      if (m >= 0) {
        const v1 = moov[m + 4] === 1;
        const timescale = moov.readUInt32BE(m + (v1 ? 24 : 16));
        const duration = v1 ? Number(moov.readBigUInt64BE(m + 28)) : moov.readUInt32BE(m + 20);
        if (timescale > 0) seconds = duration / timescale;
      }
    }
    at += boxSize;
  }
  return { seconds, complete: true, gapless: false };
}

/** What the headers of `file` (already sniffed as `decoder`) promise about its length. */
export async function declaredLength(file: string, decoder: string, size: number): Promise<DeclaredLength> {
  try {
    switch (decoder) {
      case "mp3":
        return await mp3Length(file);
      case "flac":
        return await flacLength(file);
      case "oga":
      case "opus":
        return await oggLength(file, size);
      case "m4a":
        return await mp4Length(file, size);
      default:
        return UNKNOWN;
    }
  } catch {
    // A header too mangled to read says nothing; the decoder decides.
    return UNKNOWN;
  }
}

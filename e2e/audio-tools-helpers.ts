import { type APIRequestContext, type Browser, chromium, expect, type Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { baseURL, DEMO } from "./env";

/** Mono or multichannel PCM read from / written to a WAV file. */
export type Pcm = { sampleRate: number; channels: Float32Array[] };

/** Deterministic PRNG (mulberry32), so the noisy clips are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Read a 16-bit PCM (or 32-bit float) WAV. */
export function parseWav(buf: Buffer): Pcm {
  if (buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") throw new Error("not a WAV");
  let at = 12;
  let format = 0;
  let channelCount = 0;
  let sampleRate = 0;
  let bits = 0;
  while (at + 8 <= buf.length) {
    const id = buf.toString("ascii", at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === "fmt ") {
      format = buf.readUInt16LE(body);
      channelCount = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === "data") {
      const bytes = bits / 8;
      const frames = Math.floor(Math.min(size, buf.length - body) / (bytes * channelCount));
      const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channelCount; c++) {
          const p = body + (i * channelCount + c) * bytes;
          const ch = channels[c] as Float32Array;
          if (format === 3 && bits === 32) ch[i] = buf.readFloatLE(p);
          else if (bits === 16) ch[i] = buf.readInt16LE(p) / 32768;
          else throw new Error(`unsupported WAV: format ${format}, ${bits} bits`);
        }
      }
      return { sampleRate, channels };
    }
    at = body + size + (size % 2);
  }
  throw new Error("WAV without data");
}

/** Encode channels as a 16-bit PCM WAV. */
export function encodeWav({ sampleRate, channels }: Pcm): Buffer {
  const n = channels[0]?.length ?? 0;
  const count = channels.length;
  const data = Buffer.alloc(n * count * 2);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < count; c++) {
      const x = Math.max(-1, Math.min(1, (channels[c] as Float32Array)[i] as number));
      data.writeInt16LE(Math.round(x * 32767), (i * count + c) * 2);
    }
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(count, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * count * 2, 28);
  header.writeUInt16LE(count * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Linear-interpolation resampling (fine for upsampling a clip for the fake microphone). */
export function resampleLinear(x: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return x;
  const out = new Float32Array(Math.floor((x.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const p = (i * from) / to;
    const k = Math.floor(p);
    const f = p - k;
    out[i] = (x[k] ?? 0) * (1 - f) + (x[Math.min(k + 1, x.length - 1)] ?? 0) * f;
  }
  return out;
}

/** Add white noise at `snrDb` below the signal's RMS (deterministic for a seed). */
export function addWhiteNoise(x: Float32Array, snrDb: number, seed = 1): Float32Array {
  let sum = 0;
  for (const v of x) sum += v * v;
  const rms = Math.sqrt(sum / Math.max(1, x.length));
  // Uniform noise in [-a, a] has RMS a / sqrt(3).
  const a = (rms / 10 ** (snrDb / 20)) * Math.sqrt(3);
  const rand = rng(seed);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i] as number) + (rand() * 2 - 1) * a;
  return out;
}

/** A sequence of random sine tones (not music from the catalogue). */
export function toneSequence(seconds: number, sampleRate: number, seed: number, noteSeconds = 0.3): Float32Array {
  const rand = rng(seed);
  const out = new Float32Array(Math.floor(seconds * sampleRate));
  const noteLength = Math.floor(noteSeconds * sampleRate);
  let freq = 440;
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i % noteLength;
    if (t === 0) freq = 300 + rand() * 1700;
    const env = Math.min(1, t / 200, (noteLength - t) / 200);
    phase += (2 * Math.PI * freq) / sampleRate;
    out[i] = 0.4 * env * Math.sin(phase);
  }
  return out;
}

/** A random melody (sines with soft edges) in every channel, slightly different per channel. */
export function melody(seconds: number, sampleRate: number, channels: number, seed: number): Float32Array[] {
  const rand = rng(seed);
  const noteLength = Math.floor(sampleRate / 4);
  const frames = Math.floor(seconds * sampleRate);
  const notes = Array.from({ length: Math.ceil(frames / noteLength) }, () => 220 * 2 ** (Math.floor(rand() * 24) / 12));
  return Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(frames);
    let phase = 0;
    for (let i = 0; i < frames; i++) {
      const note = notes[Math.floor(i / noteLength)] ?? 440;
      const t = i % noteLength;
      const env = Math.min(1, t / 300, (noteLength - t) / 300);
      phase += (2 * Math.PI * note) / sampleRate;
      out[i] = (0.35 - 0.05 * c) * env * (Math.sin(phase) + 0.3 * Math.sin(2 * phase + c));
    }
    return out;
  });
}

/** Sign in as the demo super admin through the API (the context keeps the session cookie). */
export async function loginSuper(request: APIRequestContext): Promise<void> {
  const res = await request.post("/api/auth/login", {
    data: { email: DEMO.super.email, password: DEMO.super.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Every verified and pending song the super admin sees. */
export async function allSongs(request: APIRequestContext): Promise<Song[]> {
  const verified = (await (await request.get("/api/songs?feed=newest&limit=48")).json()) as { items: Song[] };
  const pending = (await (await request.get("/api/songs/pending")).json()) as { items: Song[] };
  return [...verified.items, ...pending.items];
}

/** A demo song by title, once the server has fingerprinted it (indexing runs in the background at start). */
export async function indexedSong(request: APIRequestContext, title: string): Promise<Song> {
  const song = (await allSongs(request)).find((s) => s.title === title);
  if (!song) throw new Error(`demo song ${title} not found`);
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/songs/${song.id}/fingerprints`);
        return res.ok() ? ((await res.json()) as { count: number }).count : 0;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBeGreaterThan(0);
  return song;
}

/** The song's stored audio as PCM. */
export async function songPcm(request: APIRequestContext, song: Song): Promise<Pcm> {
  if (!song.audio) throw new Error(`${song.title} has no audio`);
  const res = await request.get(song.audio.url);
  expect(res.status()).toBe(200);
  return parseWav(await res.body());
}

/** `seconds` from the middle of a song with white noise at `snrDb`, at `sampleRate`, mono. */
export function noisyExcerpt(pcm: Pcm, seconds: number, snrDb: number, sampleRate: number): Pcm {
  const mono = pcm.channels[0] as Float32Array;
  const len = Math.min(mono.length, Math.round(seconds * pcm.sampleRate));
  const start = Math.floor((mono.length - len) / 2);
  const noisy = addWhiteNoise(mono.slice(start, start + len), snrDb, 7);
  return { sampleRate, channels: [resampleLinear(noisy, pcm.sampleRate, sampleRate)] };
}

/** The headless flags of playwright.config.ts. */
const HEADLESS_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * A separate Chromium whose microphone plays `wavPath` (the shared config's launch flags apply to every test, so
 * the fake-media flags live here), with a page signed in as the super admin. Uncaught page errors are collected.
 */
export async function fakeMicrophonePage(
  wavPath: string,
): Promise<{ browser: Browser; page: Page; pageErrors: string[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      ...HEADLESS_ARGS,
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wavPath}`,
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1440, height: 900 } });
  await loginSuper(context.request);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  return { browser, page, pageErrors };
}

/** True when a canvas has more than `minShare` of pixels that differ from its first pixel (not blank). */
export async function canvasIsDrawn(page: Page, testId: string, minShare = 0.2): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el, share) => {
    const canvas = el as HTMLCanvasElement;
    const ctx = canvas.getContext("2d");
    if (!ctx || canvas.width === 0 || canvas.height === 0) return false;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set<number>();
    let differ = 0;
    for (let i = 0; i < data.length; i += 4) {
      const rgb = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
      colours.add(rgb);
      if (rgb !== (((data[0] as number) << 16) | ((data[1] as number) << 8) | (data[2] as number))) differ++;
    }
    return colours.size > 32 && differ / (data.length / 4) > share;
  }, minShare);
}

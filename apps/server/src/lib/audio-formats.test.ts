import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_PRESET } from "@unheard/fingerprint";
import { audioUnreadableMessage, MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bestCorrelation,
  type MatrixEntry,
  makeMatrix,
  REFERENCE_SECONDS,
  referenceMono,
  truncated,
} from "../test/audio-matrix.js";
import { member, multipart, type User, upload } from "../test/fixtures.js";
import { createTestApp, DIALECTS, describeEachDialect, type TestContext } from "../test/harness.js";
import { decodeAudioFile, sniffAudio } from "./audio.js";

/** Decoded audio must correlate with the reference at least this well (a wrong or silent decode is near 0). */
const MIN_CORRELATION = 0.9;

const dir = mkdtempSync(path.join(tmpdir(), "unheard-matrix-"));
let matrix: MatrixEntry[] = [];
const results: string[] = [];

beforeAll(() => {
  matrix = makeMatrix(dir);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // The decision record (013) lists these figures.
  console.log(`audio format matrix:\n${results.join("\n")}`);
});

// Decoding is the decoder's business, not the database's: this runs once, on SQLite (as the 90-minute mix below).
if (DIALECTS.includes("sqlite")) {
  it("decodes every format to the reference's duration, rate, channels and waveform", async () => {
    expect(matrix.length).toBeGreaterThanOrEqual(20);
    const failures: string[] = [];
    for (const entry of matrix) {
      const format = sniffAudio(readFileSync(entry.file).subarray(0, 8192));
      if (!format) {
        failures.push(`${entry.name}: not recognised`);
        continue;
      }
      try {
        const decoded = await decodeAudioFile(entry.file, format, { monoRate: entry.sampleRate, keepSeconds: 60 });
        const correlation = bestCorrelation(decoded.mono, referenceMono(entry.sampleRate), entry.sampleRate);
        const error = Math.abs(decoded.durationSec - REFERENCE_SECONDS) * 1000;
        results.push(
          `${entry.name.padEnd(34)} ${format.decoder.padEnd(5)} ${decoded.durationSec.toFixed(3)} s (${error.toFixed(0)} ms off) ${decoded.sampleRate} Hz ${decoded.channels} ch r=${correlation.toFixed(3)}`,
        );
        if (error > 50) failures.push(`${entry.name}: duration ${decoded.durationSec}`);
        if (decoded.sampleRate !== entry.sampleRate) failures.push(`${entry.name}: rate ${decoded.sampleRate}`);
        if (decoded.channels !== entry.channels) failures.push(`${entry.name}: channels ${decoded.channels}`);
        if (correlation < MIN_CORRELATION) failures.push(`${entry.name}: correlation ${correlation.toFixed(3)}`);
      } catch (err) {
        failures.push(`${entry.name}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
}

/** The path of the matrix file called `name`. */
const byName = (name: string) => (matrix.find((e) => e.name === name) as MatrixEntry).file;

/** Files in the app's audio store and temp folder: a refused upload leaves none behind. */
function storedFiles(ctx: TestContext): string[] {
  return ["audio", "tmp"].flatMap((d) => {
    const full = path.join(ctx.dataDir, d);
    return existsSync(full) ? readdirSync(full).map((f) => `${d}/${f}`) : [];
  });
}

describeEachDialect("audio formats through the API", (dialect) => {
  let ctx: TestContext;
  let uploader: User;
  let boss: User;
  let referenceId: string;
  const uploadEntry = (name: string, title: string) =>
    upload(ctx, uploader.cookie, { title, artists: ["Format Tester"] }, { name, data: readFileSync(byName(name)) });
  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    uploader = await member(ctx, `matrix-up-${dialect}@example.com`);
    boss = await member(ctx, `matrix-boss-${dialect}@example.com`, "super_admin");
    const res = await uploadEntry("wav-16bit-44k-stereo.wav", "Matrix Reference");
    expect(res.statusCode).toBe(201);
    referenceId = res.json().id;
    // A second, different song, so a match has to beat a runner-up.
    await upload(ctx, uploader.cookie, { title: "Matrix Decoy", artists: ["Format Tester"] });
    await ctx.app.jobs.drain();
  }, 120_000);
  afterAll(() => ctx.close());

  it("recognises the reference song from every format", async () => {
    const missed: string[] = [];
    for (const entry of matrix) {
      const body = multipart({}, { name: entry.name, data: readFileSync(entry.file), field: "audio" });
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/recognition/file",
        payload: body.payload,
        headers: { ...body.headers, cookie: boss.cookie },
      });
      if (res.statusCode !== 200 || res.json().match?.song.id !== referenceId) {
        missed.push(`${entry.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(missed).toEqual([]);
  }, 120_000);

  it("refuses the same audio re-encoded as a duplicate of the reference", async () => {
    const res = await uploadEntry("lamejs-mpeg2-64k-22k-mono.mp3", "Matrix Copy");
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details.duplicateOf.id).toBe(referenceId);
  });

  it("refuses empty, non-audio, truncated, corrupt and silent files with a clear message, storing nothing", async () => {
    const bad = (name: string) => path.join(dir, `bad-${dialect}-${name}`);
    const corruptMp3 = readFileSync(byName("mp3-cbr-320k-44k-stereo.mp3"));
    // Overwrite the middle half with noise bytes: the frames there no longer decode.
    for (let i = Math.floor(corruptMp3.length / 4); i < (corruptMp3.length * 3) / 4; i++)
      corruptMp3[i] = (i * 7919) & 0xff;
    writeFileSync(bad("corrupt.mp3"), corruptMp3);
    const flacHeaderOnly = readFileSync(byName("flac-16bit-44k-stereo.flac")).subarray(0, 200);
    writeFileSync(bad("header-only.flac"), flacHeaderOnly);
    const silent = Buffer.alloc(44 + 44_100 * 2 * 2);
    silent.write("RIFF", 0, "latin1");
    silent.writeUInt32LE(silent.length - 8, 4);
    silent.write("WAVEfmt ", 8, "latin1");
    silent.writeUInt32LE(16, 16);
    silent.writeUInt16LE(1, 20);
    silent.writeUInt16LE(1, 22);
    silent.writeUInt32LE(44_100, 24);
    silent.writeUInt32LE(88_200, 28);
    silent.writeUInt16LE(2, 32);
    silent.writeUInt16LE(16, 34);
    silent.write("data", 36, "latin1");
    silent.writeUInt32LE(44_100 * 2 * 2 - 8, 40);
    writeFileSync(bad("silent.wav"), silent);
    writeFileSync(bad("empty.mp3"), Buffer.alloc(0));
    writeFileSync(bad("page.mp3"), "<!doctype html><html><body><script>alert(1)</script></body></html>");
    writeFileSync(bad("image.svg.mp3"), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const cases: [string, string, string][] = [
      ["empty.mp3", bad("empty.mp3"), MESSAGES.uploadAudioRequired],
      // Named like audio but none: told it could not be read as audio (issue 38), not to upload "an MP3".
      ["page.mp3", bad("page.mp3"), audioUnreadableMessage("mp3")],
      ["image.svg.mp3", bad("image.svg.mp3"), audioUnreadableMessage("mp3")],
      ["half.wav", truncated(byName("wav-24bit-48k-stereo.wav"), 0.5, bad("half.wav")), MESSAGES.audioTruncated],
      ["half.flac", truncated(byName("flac-16bit-44k-stereo.flac"), 0.5, bad("half.flac")), MESSAGES.audioTruncated],
      ["half.mp3", truncated(byName("mp3-cbr-320k-44k-stereo.mp3"), 0.5, bad("half.mp3")), MESSAGES.audioTruncated],
      [
        "half-vbr.mp3",
        truncated(byName("lame-vbr-v0-44k-stereo-id3.mp3"), 0.6, bad("half-vbr.mp3")),
        MESSAGES.audioTruncated,
      ],
      ["half.m4a", truncated(byName("aac-128k-44k-stereo.m4a"), 0.5, bad("half.m4a")), MESSAGES.audioTruncated],
      [
        "half-faststart.m4a",
        truncated(byName("aac-64k-22k-mono.m4a"), 0.5, bad("half-fs.m4a")),
        MESSAGES.audioTruncated,
      ],
      ["half.ogg", truncated(byName("vorbis-q4-44k-stereo.ogg"), 0.5, bad("half.ogg")), MESSAGES.audioTruncated],
      ["half.opus", truncated(byName("opus-96k-48k-stereo.opus"), 0.5, bad("half.opus")), MESSAGES.audioTruncated],
      ["corrupt.mp3", bad("corrupt.mp3"), MESSAGES.audioTruncated],
      ["header-only.flac", bad("header-only.flac"), MESSAGES.audioUndecodable],
      ["silent.wav", bad("silent.wav"), MESSAGES.audioSilent],
    ];
    const songsBefore = await ctx.database.db.selectFrom("song").select("id").execute();
    const filesBefore = storedFiles(ctx);
    const wrong: string[] = [];
    for (const [name, file, message] of cases) {
      const res = await upload(
        ctx,
        uploader.cookie,
        { title: `Refused ${name}`, artists: ["Format Tester"] },
        { name, data: readFileSync(file) },
      );
      const got = res.json().error?.message;
      if (res.statusCode < 400 || res.statusCode >= 500 || got !== message) {
        wrong.push(`${name}: ${res.statusCode} ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await ctx.database.db.selectFrom("song").select("id").execute()).toEqual(songsBefore);
    expect(storedFiles(ctx)).toEqual(filesBefore);
  }, 120_000);
});

/** Peak resident memory above the level when `fn` starts, sampled every 20 ms. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - base) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

// Memory is the decoder's business, not the database's: this runs once, on SQLite.
if (DIALECTS.includes("sqlite")) {
  describe("a 90-minute mix", () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestApp("sqlite");
    });
    afterAll(() => ctx.close());

    it("uploads, decodes and indexes within bounded memory", async () => {
      // One minute of a melody encoded once, repeated to 90 minutes: a 128 kbps, 44.1 kHz stereo MP3 of 86 MB.
      const minute = path.join(dir, "minute.mp3");
      const melody = "0.3*sin(2*PI*(220*pow(2\\,floor(mod(t*4*7919\\,24))/12))*t)";
      execFileSync("ffmpeg", [
        ...["-v", "error", "-y", "-f", "lavfi", "-i", `aevalsrc=exprs='${melody}':s=44100:d=60`],
        ...["-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", minute],
      ]);
      const mix = Buffer.concat(Array.from({ length: 90 }, () => readFileSync(minute)));
      const user = await member(ctx, "mix@example.com");
      // The whole file as float PCM would be 1.9 GB (stereo) or 950 MB (mono); the decoder holds about a chunk.
      const wholeMonoMb = (5400 * 44_100 * 4) / 1e6;
      const { result: res, growthMb: uploadMb } = await peakRssGrowth(() =>
        upload(
          ctx,
          user.cookie,
          { title: "Ninety Minute Mix", artists: ["Mix Tester"] },
          { name: "mix.mp3", data: mix },
        ),
      );
      expect(res.statusCode).toBe(201);
      const song = res.json();
      // Each repeated minute brings its encoder delay and padding along: 90 x about 29 ms more than 90 minutes.
      expect(song.audio.durationSec).toBeGreaterThan(5400);
      expect(song.audio.durationSec).toBeLessThan(5405);
      const { growthMb: indexMb } = await peakRssGrowth(() => ctx.app.jobs.drain());
      const stats = await sql<{ n: number; last: number }>`
        select count(*) as n, max("offset") as last from fingerprint where song_id = ${song.id}`.execute(
        ctx.database.db,
      );
      const row = stats.rows[0] as { n: number; last: number };
      const lastSecond = (Number(row.last) * DEFAULT_PRESET.hopSize) / DEFAULT_PRESET.sampleRate;
      console.log(
        `90-minute mix (${(mix.length / 1e6).toFixed(0)} MB MP3): peak RSS growth ${uploadMb.toFixed(0)} MB while uploading, ` +
          `${indexMb.toFixed(0)} MB while indexing (whole mono PCM: ${wholeMonoMb.toFixed(0)} MB); ` +
          `${row.n} hashes up to ${(lastSecond / 60).toFixed(1)} min`,
      );
      // Indexed to the end, not just the first 20 minutes.
      expect(lastSecond).toBeGreaterThan(5390);
      expect(uploadMb).toBeLessThan(300);
      expect(indexMb).toBeLessThan(300);
    }, 600_000);
  });
}

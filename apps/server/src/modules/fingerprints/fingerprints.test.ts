import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { certaintyOf, DEFAULT_PRESET, resample } from "@unheard/fingerprint";
import { MESSAGES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { createAudioPool } from "../../lib/audio-pool.js";
import { createJobQueue } from "../../lib/jobs.js";
import { createStorage } from "../../lib/storage.js";
import { encodeWav } from "../../lib/wav.js";
import { hashString, synthesizeTrack } from "../../seed/synth.js";
import { member, multipart, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";
import { hashCacheDirIn, hashCacheFile, writeHashCache } from "./fingerprint-file.js";
import { createFingerprintsRepo } from "./fingerprints.repo.js";
import { createFingerprintsService } from "./fingerprints.service.js";
import { createTripletsRepo } from "./triplets.repo.js";

/** A cache entry's invariant part when a test is about its plain hashes. */
const NO_INVARIANT = { count: 0, keys: new Int32Array(0), hi: new Uint32Array(0), lo: new Uint32Array(0) };

const RATE = 22_050;

/** Mix white noise into a signal at the given SNR (dB, relative to the signal's RMS). */
function withNoise(x: Float32Array, snrDb: number, seed = 7): Float32Array {
  let power = 0;
  for (const v of x) power += v * v;
  const rms = Math.sqrt(power / x.length);
  const noiseRms = rms / 10 ** (snrDb / 20);
  let s = seed;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (x[i] ?? 0) + ((s / 4294967296) * 2 - 1) * noiseRms * Math.sqrt(3);
  }
  return out;
}

/** 16-bit little-endian PCM, as the recognition page streams it. */
function pcm16(x: Float32Array): Buffer {
  const b = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++)
    b.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round((x[i] ?? 0) * 32767))), i * 2);
  return b;
}

/** The clip played `factor` times faster, as "sped up" edits do (tempo and pitch together). */
const speedUp = (x: Float32Array, factor: number) => resample(x, RATE * factor, RATE);

/** Run audio through ffmpeg (installed by .ci/run) as WAV, with `args` between input and output. */
function ffmpeg(x: Float32Array, args: string[], ext = "wav"): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-fp-"));
  try {
    writeFileSync(path.join(dir, "in.wav"), encodeWav(x, RATE));
    const out = path.join(dir, `out.${ext}`);
    execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", path.join(dir, "in.wav"), ...args, out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Samples of a 16-bit mono WAV written by ffmpeg (after its header's "data" chunk). */
function wavSamples(wav: Buffer): Float32Array {
  const data = wav.indexOf("data") + 8;
  const n = Math.floor((wav.length - data) / 2);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = wav.readInt16LE(data + 2 * i) / 32768;
  return out;
}

describeEachDialect("fingerprints", (dialect) => {
  const ctx = useTestApp(dialect);
  const { boss, up } = useMembers(ctx, { boss: ["boss-fp@example.com", "super_admin"], up: "up-fp@example.com" });
  let songId: string;
  const track = synthesizeTrack(hashString("Fingerprinted Tune"), 30, RATE);
  beforeAll(async () => {
    const res = await upload(
      ctx,
      up.cookie,
      { title: "Fingerprinted", artists: ["Finger"] },
      { name: "t.wav", data: encodeWav(track, RATE) },
    );
    expect(res.statusCode).toBe(201);
    songId = res.json().id;
    // A decoy so the match has a runner-up to beat.
    const decoy = synthesizeTrack(hashString("Decoy Tune"), 30, RATE);
    await upload(
      ctx,
      up.cookie,
      { title: "Decoy", artists: ["Finger"] },
      { name: "d.wav", data: encodeWav(decoy, RATE) },
    );
  }, 60_000);
  /** The song's fingerprint status, as the super admin sees it. */
  const status = async () =>
    (
      await ctx.app.inject({
        method: "GET",
        url: `/api/songs/${songId}/fingerprints`,
        headers: { cookie: boss.cookie },
      })
    ).json();
  /** Send samples for recognition as the page streams them, as the holder of `cookie`. */
  const recognizePcm = (samples: Float32Array, cookie?: string) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/recognition/pcm?sampleRate=${RATE}`,
      headers: { ...(cookie ? { cookie } : {}), "content-type": "application/octet-stream" },
      payload: pcm16(samples),
    });

  it("indexes uploads in a background job", async () => {
    const before = await status();
    expect(before).toMatchObject({ count: 0, job: { status: "queued" } });
    expect(await ctx.app.jobs.drain()).toBe(2);
    const after = await status();
    expect(after.count).toBeGreaterThan(500);
    expect(after).toMatchObject({ preset: "default", job: { status: "done" } });
    expect(after.fingerprintedAt).toEqual(expect.any(String));
  });

  it("recognises a noisy clip streamed as PCM, at the right place in the song", async () => {
    const start = 11.3;
    const clip = withNoise(track.subarray(Math.round(start * RATE), Math.round((start + 6) * RATE)), 10);
    const res = await recognizePcm(clip, boss.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.match?.song).toMatchObject({ id: songId, title: "Fingerprinted", artists: [{ name: "Finger" }] });
    expect(Math.abs(body.match.offsetSeconds - start)).toBeLessThan(0.1);
    // How sure, in words (decision 028), from the aligned hashes and the runner-up's.
    expect(body.match.evidence).toBe("plain");
    expect(body.match.certainty).toBe(certaintyOf(body.match.aligned, body.match.runnerUpAligned, "plain"));
    expect(body.match.runnerUpAligned).toBeLessThan(body.match.aligned / 3);
    expect(body.message).toMatch(/^Found \d+ potential match/);
    expect(body.hashes).toBeGreaterThan(50);
  });

  it("recognises a sped-up clip and says how much faster it plays", async () => {
    // (The synthesized song plays its bars from 7.7-10 s again 10.1 s later; a clip from there may be placed at the
    // repeat. This one is from bars heard once.)
    const start = 11.3;
    const clip = withNoise(speedUp(track.subarray(Math.round(start * RATE), Math.round((start + 8) * RATE)), 1.12), 10);
    const res = await recognizePcm(clip, boss.cookie);
    const body = res.json();
    expect(body.match?.song.id).toBe(songId);
    expect(body.match.transform).toMatchObject({ kind: "speed", label: "sped up 12%" });
    // Found through the invariant index, in one lookup: graded on its levels.
    expect(body.match.evidence).toBe("invariant");
    expect(body.match.certainty).toBe(certaintyOf(body.match.aligned, body.match.runnerUpAligned, "invariant"));
    expect(Math.abs(body.match.transform.tempo - 1.12)).toBeLessThan(0.006);
    expect(Math.abs(body.match.offsetSeconds - start)).toBeLessThan(0.3);
    expect(res.headers["server-timing"]).toMatch(/invariant;dur=[1-9][0-9.]*;desc="[1-9][0-9]* rows"/);
    expect(res.headers["server-timing"]).toMatch(/warp;dur=0\.0;desc="0 rows"/);
  });

  it("recognises a pitch-shifted clip (tempo kept) and a time-stretched one (pitch kept)", async () => {
    const start = 4.5;
    const excerpt = track.subarray(Math.round(start * RATE), Math.round((start + 8) * RATE));
    const shifted = wavSamples(ffmpeg(excerpt, ["-af", `rubberband=pitch=${2 ** (2 / 12)}`, "-ac", "1"]));
    const up = (await recognizePcm(withNoise(shifted, 20), boss.cookie)).json();
    expect(up.match?.song.id).toBe(songId);
    expect(up.match.transform.kind).toBe("pitch");
    expect(Math.abs(12 * Math.log2(up.match.transform.pitch) - 2)).toBeLessThan(0.1);
    expect(up.match.transform.label).toBe("pitch-shifted +2.0 semitones");
    const stretched = wavSamples(ffmpeg(excerpt, ["-af", "rubberband=tempo=0.95", "-ac", "1"]));
    const slow = (await recognizePcm(withNoise(stretched.subarray(0, 7 * RATE), 20), boss.cookie)).json();
    expect(slow.match?.song.id).toBe(songId);
    expect(slow.match.transform).toMatchObject({ kind: "tempo", pitch: 1 });
    expect(Math.abs(slow.match.transform.tempo - 0.95)).toBeLessThan(0.01);
    expect(Math.abs(slow.match.offsetSeconds - start)).toBeLessThan(0.3);
  });

  it("runs a recognition's compute on the audio pool's threads (invariant pass, or the warped one in parts), with the in-process answer", async () => {
    const pool = createAudioPool({ workers: 2, queue: 4, jobMs: 30_000, maxSeconds: 600 });
    const steps: string[] = [];
    const recording: typeof pool = {
      ...pool,
      size: pool.size,
      recognition: (step, opts) => {
        steps.push(step.kind);
        return pool.recognition(step, opts);
      },
    };
    const deps = {
      database: ctx.database,
      repo: createFingerprintsRepo(ctx.database),
      triplets: createTripletsRepo(ctx.database),
      storage: createStorage(ctx.config),
      jobs: createJobQueue({ database: ctx.database, log: ctx.app.log }),
    };
    try {
      const start = 11.3;
      const clip = withNoise(
        speedUp(track.subarray(Math.round(start * RATE), Math.round((start + 8) * RATE)), 0.93),
        10,
      );
      // The invariant pass finds the sped-up clip in one lookup: no warp is searched.
      const invariant = await createFingerprintsService({ ...deps, pool: recording }).recognize(clip, RATE);
      expect(invariant.match?.songId).toBe(songId);
      expect(steps).toEqual(["fingerprint", "match", "invariant-query", "invariant-plan", "invariant-match"]);
      expect(invariant.timings.invariantRows).toBeGreaterThan(0);
      expect(invariant.match?.warp?.tempo).toBeCloseTo(0.93, 2);
      const invariantHere = await createFingerprintsService(deps).recognize(clip, RATE);
      expect(invariant.candidates).toEqual(invariantHere.candidates);
      expect(invariant.certainty).toBe(invariantHere.certainty);
      // Without the invariant index, the warped search, in parts.
      steps.length = 0;
      const threaded = await createFingerprintsService({ ...deps, invariant: null, pool: recording }).recognize(
        clip,
        RATE,
      );
      expect(threaded.match?.songId).toBe(songId);
      expect(steps).toEqual([
        "fingerprint",
        "match",
        "warp-query",
        "warp-rank",
        "warp-rank",
        "verify-rank",
        "verify-rank",
      ]);
      const here = await createFingerprintsService({ ...deps, invariant: null }).recognize(clip, RATE);
      expect(threaded.candidates).toEqual(here.candidates);
      expect(threaded.certainty).toBe(here.certainty);
      expect(threaded.timings.warpRows).toBe(here.timings.warpRows);
    } finally {
      await pool.close();
    }
  });

  it("answers a clip that plays as stored without a transform", async () => {
    const res = await recognizePcm(track.subarray(3 * RATE, 9 * RATE), boss.cookie);
    expect(res.json().match).toMatchObject({ song: { id: songId }, transform: null, evidence: "plain" });
    // Found by the plain pass: neither the invariant pass nor the warped search runs.
    expect(res.headers["server-timing"]).toMatch(/invariant;dur=0\.0;desc="0 rows", warp;dur=0\.0;desc="0 rows"/);
  });

  it("finds nothing for audio that is not in the catalogue", async () => {
    const stranger = synthesizeTrack(hashString("Never Uploaded"), 8, RATE);
    const res = await recognizePcm(stranger, boss.cookie);
    expect(res.json()).toMatchObject({ match: null, message: MESSAGES.noMatches });
  });

  it("recognises an uploaded clip file", async () => {
    const clip = track.subarray(5 * RATE, 12 * RATE);
    const body = multipart({}, { name: "clip.wav", data: encodeWav(clip, RATE) });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/recognition/file",
      payload: body.payload,
      headers: { ...body.headers, cookie: boss.cookie },
    });
    expect(res.json().match?.song.id).toBe(songId);
  });

  it("keeps recognition to super admins", async () => {
    const admin = await member(ctx, "adm-fp@example.com", "admin");
    const call = (cookie?: string) => recognizePcm(track.subarray(0, RATE), cookie);
    expect((await call()).statusCode).toBe(401);
    expect((await call(up.cookie)).statusCode).toBe(403);
    expect((await call(admin.cookie)).statusCode).toBe(403);
  });

  it("tells the uploader when the audio is already on Unheard, and shows admins the match if they go ahead", async () => {
    const copy = { name: "copy.wav", data: encodeWav(track, RATE) };
    const refused = await upload(ctx, up.cookie, { title: "Totally New Title", artists: ["Someone Else"] }, copy);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'This audio matches "Fingerprinted" by Finger, which is already on Unheard (the same file).',
    );
    expect(refused.json().error.details.duplicateOf).toMatchObject({ id: songId, title: "Fingerprinted" });
    const body = multipart(
      { title: "Totally New Title", artists: ["Someone Else"], genre: "Pop", allowDuplicateAudio: "true" },
      copy,
    );
    const forced = await ctx.app.inject({
      method: "POST",
      url: "/api/songs",
      payload: body.payload,
      headers: { ...body.headers, cookie: up.cookie },
    });
    expect(forced.statusCode).toBe(201);
    expect(forced.json().audioMatch).toBeNull();
    const asAdmin = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${forced.json().id}`, headers: { cookie: boss.cookie } })
    ).json();
    expect(asAdmin.audioMatch).toMatchObject({ songId, title: "Fingerprinted" });
  });

  it("names the transform of a sped-up, slowed, pitch-shifted or re-encoded copy refused on upload", async () => {
    const attempt = async (name: string, data: Buffer) => {
      const res = await upload(ctx, up.cookie, { title: `Copy ${name}`, artists: ["Copier"] }, { name, data });
      expect(res.statusCode).toBe(409);
      return res.json().error;
    };
    const slowed = await attempt("slowed.wav", encodeWav(speedUp(track, 0.9), RATE));
    expect(slowed.message).toBe(
      'This audio matches "Fingerprinted" by Finger, which is already on Unheard (slowed down 10%).',
    );
    expect(slowed.details).toMatchObject({ duplicateOf: { id: songId }, transform: { kind: "speed" } });
    expect(slowed.fields.audio).toBe(slowed.message);
    const shifted = await attempt("up.wav", ffmpeg(track, ["-af", `rubberband=pitch=${2 ** (1 / 12)}`, "-ac", "1"]));
    expect(shifted.message).toMatch(/\(pitch-shifted \+1\.0 semitones\)\.$/);
    const mp3 = await attempt("low.mp3", ffmpeg(track, ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3"));
    expect(mp3.message).toMatch(/\(a re-encoded copy\)\.$/);
    expect(mp3.details.transform).toMatchObject({ kind: "reencoded", tempo: 1, pitch: 1 });
  }, 60_000);

  it("takes hashes computed ahead of time from the hash cache, by the audio's content and the preset", async () => {
    const song = await ctx.database.db
      .selectFrom("song")
      .select(["id", "audio_sha256"])
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    const dir = hashCacheDirIn(ctx.config.demoCacheDir);
    // A cache for other settings of the preset is not used.
    await writeHashCache(
      hashCacheFile(dir, song.audio_sha256 ?? "", {
        ...DEFAULT_PRESET,
        pairing: { ...DEFAULT_PRESET.pairing, fanOut: 1 },
      }),
      { count: 1, hashes: Int32Array.of(99), offsets: Int32Array.of(9), invariant: NO_INVARIANT },
    );
    const stored = async () => {
      await ctx.app.jobs.enqueue("fingerprint.index", { songId });
      await ctx.app.jobs.drain();
      return ctx.database.db
        .selectFrom("fingerprint")
        .select(["hash", "offset"])
        .where("song_id", "=", songId)
        .orderBy("offset")
        .execute();
    };
    expect((await stored()).length).toBeGreaterThan(500);
    await writeHashCache(hashCacheFile(dir, song.audio_sha256 ?? "", DEFAULT_PRESET), {
      count: 2,
      hashes: Int32Array.of(7, -8),
      offsets: Int32Array.of(1, 2),
      invariant: NO_INVARIANT,
    });
    expect((await stored()).map((r) => [Number(r.hash), Number(r.offset)])).toEqual([
      [7, 1],
      [-8, 2],
    ]);
    // Back to the decoded hashes for the tests that follow.
    rmSync(dir, { recursive: true });
    expect((await stored()).length).toBeGreaterThan(500);
  });

  it("records failed indexing for admins, and deleting a song removes its hashes", async () => {
    await ctx.database.db
      .updateTable("song")
      .set({ audio_key: "missing-file.wav" })
      .where("title", "=", "Decoy")
      .execute();
    const decoy = await ctx.database.db
      .selectFrom("song")
      .select("id")
      .where("title", "=", "Decoy")
      .executeTakeFirstOrThrow();
    await ctx.app.jobs.enqueue("fingerprint.index", { songId: decoy.id });
    await ctx.app.jobs.drain();
    const jobs = (
      await ctx.app.inject({ method: "GET", url: "/api/admin/jobs", headers: { cookie: boss.cookie } })
    ).json().items;
    expect(jobs.find((j: { payload: string }) => j.payload.includes(decoy.id))).toMatchObject({
      status: "queued",
      lastError: expect.stringMatching(/ENOENT|no such file/),
    });
    await ctx.app.inject({ method: "DELETE", url: `/api/songs/${songId}`, headers: { cookie: boss.cookie } });
    const left = await ctx.database.db.selectFrom("fingerprint").select("hash").where("song_id", "=", songId).execute();
    expect(left).toEqual([]);
  });
});

// Identify (issue 39, decision 032) on both databases: who may identify, the hourly limits per member and per
// address, the audio pool's busy refusal, that no clip is kept (temp folder empty, no table changed), and the
// answers (a known song at its place, a sped-up clip named as such, unknown music "Not on Unheard yet").
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CERTAINTIES, resample } from "@unheard/fingerprint";
import {
  IDENTIFY_CERTAINTIES,
  identifiedMessage,
  identifyClipTooLongMessage,
  identifyFileTooLargeMessage,
  MESSAGES,
} from "@unheard/shared";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { sniffAudio } from "../../lib/audio.js";
import type { AudioPool, AudioPoolOptions } from "../../lib/audio-pool.js";
import { encodeWav } from "../../lib/wav.js";
import { hashString, synthesizeTrack } from "../../seed/synth.js";
import { dataFiles, member, multipart, type User, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, signUp, type TestContext, useTestApp } from "../../test/harness.js";
import { changedTables, snapshotTables, tableNames } from "../../test/table-snapshot.js";

// Every audio pool the apps build, with its settings: the busy test fills the one it sized to a single thread.
const pools = vi.hoisted(() => [] as { opts: AudioPoolOptions; pool: AudioPool }[]);
vi.mock("../../lib/audio-pool.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/audio-pool.js")>();
  return {
    ...real,
    createAudioPool(opts: AudioPoolOptions) {
      const pool = real.createAudioPool(opts);
      pools.push({ opts, pool });
      return pool;
    },
  };
});

const RATE = 22_050;
/** Counters of attempts and sessions: not the clip (checked on their own below). */
const UNCOMPARED = new Set(["rate_limit", "session"]);

/** 16-bit little-endian PCM, as the Identify page sends the microphone. */
function pcm16(x: Float32Array): Buffer {
  const b = Buffer.alloc(x.length * 2);
  for (let i = 0; i < x.length; i++)
    b.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round((x[i] ?? 0) * 32767))), i * 2);
  return b;
}

/** White noise mixed in at `snrDb` (relative to the signal's RMS), as a phone's microphone adds. */
function withNoise(x: Float32Array, snrDb: number, seed = 7): Float32Array {
  let power = 0;
  for (const v of x) power += v * v;
  const noiseRms = Math.sqrt(power / x.length) / 10 ** (snrDb / 20);
  let s = seed;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (x[i] ?? 0) + ((s / 4294967296) * 2 - 1) * noiseRms * Math.sqrt(3);
  }
  return out;
}

/** `seconds` of `track` from `start`. */
const excerpt = (track: Float32Array, start: number, seconds: number) =>
  track.subarray(Math.round(start * RATE), Math.round((start + seconds) * RATE));

/** POST the clip as the page streams the microphone, as the holder of `cookie`, from `ip`. */
const identifyPcm = (ctx: TestContext, samples: Float32Array, cookie?: string, ip?: string, rate = RATE) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/identify/pcm?sampleRate=${rate}`,
    headers: { ...(cookie ? { cookie } : {}), "content-type": "application/octet-stream" },
    payload: pcm16(samples),
    ...(ip ? { remoteAddress: ip } : {}),
  });

/** POST a clip file (multipart field `audio`). */
const identifyFile = (ctx: TestContext, data: Buffer, cookie?: string, name = "clip.wav", ip?: string) => {
  const body = multipart({}, { name, data });
  return ctx.app.inject({
    method: "POST",
    url: "/api/identify/file",
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    ...(ip ? { remoteAddress: ip } : {}),
  });
};

/** A signed-in account the waitlist still holds (its e-mail verified, not let in). */
async function waitlisted(ctx: TestContext, email: string): Promise<User> {
  const cookie = await signUp(ctx, email);
  const row = await ctx.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return { cookie, id: row.id };
}

it("grades answers with the recogniser's own certainty words", () => {
  expect([...IDENTIFY_CERTAINTIES]).toEqual([...CERTAINTIES]);
});

describeEachDialect("identify", (dialect) => {
  const ctx = useTestApp(dialect);
  const users = useMembers(ctx, {
    up: "identify-up@example.com",
    fan: "identify-fan@example.com",
    admin: ["identify-admin@example.com", "admin"],
  });
  // The tune the fingerprints tests use: its bars from 11.3 s on are heard once (others repeat 10.1 s later).
  const track = synthesizeTrack(hashString("Fingerprinted Tune"), 30, RATE);
  const hiddenTrack = synthesizeTrack(hashString("Hidden Identify Tune"), 20, RATE);
  let songId = "";
  let hiddenId = "";
  let held: User;

  beforeAll(async () => {
    const res = await upload(
      ctx,
      users.up.cookie,
      {
        title: "Identified",
        artists: ["Ident Artist"],
        era: "Blue Era",
        availability: "snippet",
        quality: "high",
        leakDate: "2024-03-01",
      },
      { name: "t.wav", data: encodeWav(track, RATE) },
    );
    expect(res.statusCode, res.body).toBe(201);
    songId = res.json().id;
    // A decoy, so a match has a runner-up to beat, and a song that gets hidden.
    const decoy = synthesizeTrack(hashString("Identify Decoy"), 30, RATE);
    await upload(
      ctx,
      users.up.cookie,
      { title: "Decoy", artists: ["Ident Artist"] },
      { name: "d.wav", data: encodeWav(decoy, RATE) },
    );
    const hidden = await upload(
      ctx,
      users.up.cookie,
      { title: "Hidden Secret", artists: ["Secret Artist"] },
      { name: "h.wav", data: encodeWav(hiddenTrack, RATE) },
    );
    hiddenId = hidden.json().id;
    await ctx.app.jobs.drain();
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hiddenId).execute();
    held = await waitlisted(ctx, "identify-held@example.com");
  }, 90_000);

  describe("who may identify", () => {
    it("asks a visitor to sign in (401) and names nothing", async () => {
      const res = await identifyPcm(ctx, excerpt(track, 11.3, 6));
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe(MESSAGES.identifySignIn);
      const file = await identifyFile(ctx, encodeWav(excerpt(track, 5, 6), RATE));
      expect(file.statusCode).toBe(401);
      expect(file.json().error.message).toBe(MESSAGES.identifySignIn);
    });

    it("answers a member with the pending song, and a waitlisted account only once the song is public", async () => {
      const clip = withNoise(excerpt(track, 11.3, 6), 10);
      const member = await identifyPcm(ctx, clip, users.fan.cookie);
      expect(member.statusCode).toBe(200);
      expect(member.json().match.song).toMatchObject({ id: songId, status: "pending" });
      // Waitlisted accounts may identify (decision 032), but a pending song is not theirs to see: not named.
      const before = await identifyPcm(ctx, clip, held.cookie);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toMatchObject({ match: null, heard: true, message: MESSAGES.identifyNotOnUnheard });
      expect(before.body).not.toContain(songId);
      await verify(ctx, songId);
      const after = await identifyPcm(ctx, clip, held.cookie);
      expect(after.json().match.song).toMatchObject({ id: songId, title: "Identified", status: "verified" });
    });

    it("never names a hidden song, to a member or an admin", async () => {
      const clip = excerpt(hiddenTrack, 6, 6);
      for (const who of [users.fan, users.admin, users.up]) {
        const res = await identifyPcm(ctx, clip, who.cookie);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ match: null, message: MESSAGES.identifyNotOnUnheard });
        for (const secret of [hiddenId, "Hidden Secret", "Secret Artist"]) expect(res.body).not.toContain(secret);
      }
    });
  });

  describe("answers", () => {
    it("names a known song from a noisy clip, with its certainty, its place and its tracker entry", async () => {
      const start = 11.3;
      const res = await identifyPcm(ctx, withNoise(excerpt(track, start, 6), 10), users.fan.cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.message).toBe(identifiedMessage("Identified", ["Ident Artist"]));
      expect(body.heard).toBe(true);
      expect(body.seconds).toBeCloseTo(6, 1);
      expect(body.match.song).toMatchObject({
        id: songId,
        title: "Identified",
        artists: [{ name: "Ident Artist" }],
        coverUrl: expect.stringContaining(songId),
      });
      // How sure, in the recogniser's words (decision 028; their levels are the recogniser's to calibrate).
      expect(IDENTIFY_CERTAINTIES).toContain(body.match.certainty);
      expect(Math.abs(body.match.offsetSeconds - start)).toBeLessThan(0.1);
      expect(body.match.transform).toBeNull();
      expect(body.match.tracker).toEqual({
        artistId: body.match.song.artists[0].id,
        era: "Blue Era",
        availability: "snippet",
        quality: "high",
        versionLabel: null,
        leakDate: "2024-03-01",
      });
      // Where the time went, as recognition says it.
      expect(res.headers["server-timing"]).toMatch(/^fingerprint;dur=[\d.]+, lookup;dur=/);
    });

    it("says a sped-up clip is sped up, and where in the song it starts", async () => {
      const start = 11.3;
      const sped = resample(excerpt(track, start, 8), RATE * 1.12, RATE);
      const body = (await identifyPcm(ctx, withNoise(sped, 10), users.fan.cookie)).json();
      expect(body.match.song.id).toBe(songId);
      expect(body.match.transform).toMatchObject({ kind: "speed", label: "sped up 12%" });
      expect(Math.abs(body.match.offsetSeconds - start)).toBeLessThan(0.3);
    });

    it("says 'Not on Unheard yet' for music it has never heard, and that it heard nothing for silence", async () => {
      const stranger = synthesizeTrack(hashString("Never Uploaded Anywhere"), 8, RATE);
      const unknown = await identifyPcm(ctx, stranger, users.fan.cookie);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual({ seconds: 8, heard: true, match: null, message: MESSAGES.identifyNotOnUnheard });
      const silence = await identifyPcm(ctx, new Float32Array(4 * RATE), users.fan.cookie);
      expect(silence.json()).toEqual({ seconds: 4, heard: false, match: null, message: MESSAGES.identifyHeardNothing });
      // A quiet room: its noise floor (-66 dBFS) gives as many hashes as music, but no music was heard.
      const room = withNoise(new Float32Array(4 * RATE).fill(0.0005), 0);
      const quiet = await identifyPcm(ctx, room, users.fan.cookie);
      expect(quiet.json()).toMatchObject({ heard: false, match: null, message: MESSAGES.identifyHeardNothing });
    });

    it("names the song of an uploaded clip file", async () => {
      const res = await identifyFile(ctx, encodeWav(withNoise(excerpt(track, 5, 7), 15), RATE), users.fan.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().match).toMatchObject({ song: { id: songId } });
      expect(Math.abs(res.json().match.offsetSeconds - 5)).toBeLessThan(0.2);
    });
  });

  describe("clip bounds", () => {
    it("refuses a recording or a file longer than 20 s with 413 and says so, before recognising", async () => {
      const long = new Float32Array(21 * 8000);
      for (let i = 0; i < long.length; i++) long[i] = 0.2 * Math.sin((2 * Math.PI * 440 * i) / 8000);
      const pcm = await identifyPcm(ctx, long, users.fan.cookie, undefined, 8000);
      expect(pcm.statusCode).toBe(413);
      expect(pcm.json().error.message).toBe(identifyClipTooLongMessage(20));
      // 20 s exactly is taken.
      expect((await identifyPcm(ctx, long.subarray(0, 20 * 8000), users.fan.cookie, undefined, 8000)).statusCode).toBe(
        200,
      );
      const file = await identifyFile(ctx, encodeWav(excerpt(track, 0, 22), RATE), users.fan.cookie);
      expect(file.statusCode).toBe(413);
      expect(file.json().error.message).toBe(identifyClipTooLongMessage(20));
    });

    it("refuses a file over 10 MB with 413, and one that is not audio with 415", async () => {
      const big = await identifyFile(ctx, Buffer.alloc(10 * 1024 * 1024 + 1024, 1), users.fan.cookie, "big.wav");
      expect(big.statusCode).toBe(413);
      expect(big.json().error.message).toBe(identifyFileTooLargeMessage(10));
      const text = await identifyFile(ctx, Buffer.from("not audio at all"), users.fan.cookie, "notes.txt");
      expect(text.statusCode).toBe(415);
    });
  });

  describe("privacy: no clip is kept", () => {
    it("leaves the temp folder empty after a success, a refusal and a failure", async () => {
      const tmp = () => dataFiles(ctx.dataDir, "tmp");
      const ok = await identifyFile(ctx, encodeWav(excerpt(track, 5, 6), RATE), users.fan.cookie);
      expect(ok.statusCode).toBe(200);
      expect(tmp()).toEqual([]);
      // Refused: too long, too large, not audio.
      expect((await identifyFile(ctx, encodeWav(excerpt(track, 0, 22), RATE), users.fan.cookie)).statusCode).toBe(413);
      expect(tmp()).toEqual([]);
      expect((await identifyFile(ctx, Buffer.alloc(11 * 1024 * 1024, 2), users.fan.cookie)).statusCode).toBe(413);
      expect(tmp()).toEqual([]);
      expect((await identifyFile(ctx, Buffer.from("plain text"), users.fan.cookie, "a.txt")).statusCode).toBe(415);
      expect(tmp()).toEqual([]);
      // Failed: a WAV cut off halfway cannot be decoded.
      const cut = encodeWav(excerpt(track, 0, 6), RATE);
      const failed = await identifyFile(ctx, cut.subarray(0, cut.length / 2), users.fan.cookie);
      expect(failed.statusCode).toBe(400);
      expect(tmp()).toEqual([]);
    });

    it("stores nothing about a clip: every table as it was, and the limits count only who and from where", async () => {
      const tables = await tableNames(ctx, UNCOMPARED);
      const before = await snapshotTables(ctx, tables);
      const from = "198.51.100.7";
      expect((await identifyPcm(ctx, excerpt(track, 11.3, 6), users.fan.cookie, from)).statusCode).toBe(200);
      expect(
        (await identifyFile(ctx, encodeWav(excerpt(track, 5, 6), RATE), users.fan.cookie, "c.wav", from)).statusCode,
      ).toBe(200);
      expect((await identifyPcm(ctx, new Float32Array(2 * RATE), held.cookie, from)).statusCode).toBe(200);
      expect((await identifyFile(ctx, Buffer.from("x"), users.fan.cookie, "x.bin", from)).statusCode).toBe(415);
      expect(changedTables(before, await snapshotTables(ctx, tables))).toEqual([]);
      const keys = (await ctx.database.db.selectFrom("rate_limit").select("key").execute())
        .map((r) => r.key)
        .filter((k) => k.startsWith("identify"));
      expect(keys.sort()).toEqual(
        [
          "identify-address:127.0.0.1",
          `identify-address:${from}`,
          `identify-member:${held.id}`,
          `identify-member:${users.admin.id}`,
          `identify-member:${users.fan.id}`,
          `identify-member:${users.up.id}`,
        ].sort(),
      );
      expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
    });
  });

  describe("a report with the clip attached (the only way a clip is kept)", () => {
    /** Report `song` with a clip file, as the holder of `cookie`. */
    const reportWithClip = (cookie: string, fields: Record<string, string>, data: Buffer, name = "clip.wav") => {
      const body = multipart(fields, { name, data, field: "clip" });
      return ctx.app.inject({
        method: "POST",
        url: "/api/identify/report",
        payload: body.payload,
        headers: { ...body.headers, cookie },
      });
    };
    const clipFiles = () => dataFiles(ctx.dataDir, "report-clips");
    const pendingReports = async () =>
      (await ctx.app.inject({ method: "GET", url: "/api/reports", headers: { cookie: users.admin.cookie } })).json()
        .items as { id: string; songId: string; hasClip: boolean }[];

    it("files the report with its clip; admins who handle reports listen to it; handling it deletes the clip", async () => {
      const wav = encodeWav(excerpt(track, 5, 6), RATE);
      const res = await reportWithClip(
        users.fan.cookie,
        { songId, reason: "wrong_title", details: "Identify named this, but it is another song" },
        wav,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message).toBe(MESSAGES.identifyReportSent);
      expect(clipFiles()).toHaveLength(1);
      expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
      const report = (await pendingReports()).find((r) => r.songId === songId);
      expect(report?.hasClip).toBe(true);
      const heard = await ctx.app.inject({
        method: "GET",
        url: `/api/reports/${report?.id}/clip`,
        headers: { cookie: users.admin.cookie },
      });
      expect(heard.statusCode).toBe(200);
      expect(heard.headers["content-type"]).toBe("audio/wav");
      expect(heard.headers["cache-control"]).toBe("private, no-store");
      expect(Buffer.compare(heard.rawPayload, wav)).toBe(0);
      // Not for the reporter, another member or a visitor.
      for (const cookie of [users.fan.cookie, users.up.cookie, undefined]) {
        const refused = await ctx.app.inject({
          method: "GET",
          url: `/api/reports/${report?.id}/clip`,
          headers: cookie ? { cookie } : {},
        });
        expect(refused.statusCode).toBe(cookie ? 403 : 401);
      }
      const done = await ctx.app.inject({
        method: "POST",
        url: `/api/reports/${report?.id}/process`,
        headers: { cookie: users.admin.cookie },
        payload: { action: "reject" },
      });
      expect(done.statusCode).toBe(200);
      expect(clipFiles()).toEqual([]);
      const gone = await ctx.app.inject({
        method: "GET",
        url: `/api/reports/${report?.id}/clip`,
        headers: { cookie: users.admin.cookie },
      });
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.message).toBe(MESSAGES.reportClipGone);
    });

    it("keeps nothing when the report is refused: not audio, too long, no reason, own song, already reported", async () => {
      const tables = await tableNames(ctx, UNCOMPARED);
      const before = await snapshotTables(ctx, tables);
      const wav = encodeWav(excerpt(track, 5, 6), RATE);
      const fields = { songId, reason: "duplicate", details: "" };
      expect((await reportWithClip(users.fan.cookie, fields, Buffer.from("not audio"), "a.txt")).statusCode).toBe(415);
      expect((await reportWithClip(users.fan.cookie, fields, encodeWav(excerpt(track, 0, 22), RATE))).statusCode).toBe(
        413,
      );
      const noReason = await reportWithClip(users.fan.cookie, { songId, details: "" }, wav);
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().error.message).toBe(MESSAGES.reportReasonRequired);
      const own = await reportWithClip(users.up.cookie, fields, wav);
      expect(own.statusCode).toBe(403);
      expect(own.json().error.message).toBe(MESSAGES.reportOwnSong);
      expect((await reportWithClip(users.fan.cookie, { ...fields, songId: "no-such-song" }, wav)).statusCode).toBe(404);
      expect(changedTables(before, await snapshotTables(ctx, tables))).toEqual([]);
      expect(clipFiles()).toEqual([]);
      expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
      // One open report per member and song: the second is refused and its clip not kept.
      expect((await reportWithClip(users.fan.cookie, fields, wav)).statusCode).toBe(201);
      const again = await reportWithClip(users.fan.cookie, fields, wav);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe(MESSAGES.reportAlreadyOpen);
      expect(clipFiles()).toHaveLength(1);
      expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
    });
  });
});

describeEachDialect("identify limits and a busy pool", (dialect) => {
  // Small limits, and one audio thread with no queue: a second clip while the thread is taken is refused.
  const ctx = useTestApp(dialect, {
    env: { IDENTIFY_PER_MEMBER_HOUR: "3", IDENTIFY_PER_ADDRESS_HOUR: "5", AUDIO_WORKERS: "1", AUDIO_QUEUE: "0" },
  });
  const users = useMembers(ctx, {
    a: "limit-a@example.com",
    b: "limit-b@example.com",
    c: "limit-c@example.com",
    d: "limit-d@example.com",
  });
  const clip = synthesizeTrack(hashString("Limit Clip"), 3, RATE);
  const limitTables = async () => {
    const tables = await tableNames(ctx, UNCOMPARED);
    return { tables, before: await snapshotTables(ctx, tables) };
  };

  it("holds a member to 3 clips an hour, then 429 with Retry-After and when they can identify again", async () => {
    const { tables, before } = await limitTables();
    const from = "203.0.113.10";
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await identifyPcm(ctx, clip, users.a.cookie, from));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    // The file route counts against the same limit, and is refused before its body is read.
    const refused = await identifyFile(ctx, encodeWav(clip, RATE), users.a.cookie, "clip.wav", from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(
      /^You have identified 3 clips this hour, the most one member may\. You can identify again in (\d+ minutes?|an hour)\.$/,
    );
    const retry = Number(refused.headers["retry-after"]);
    expect(retry).toBeGreaterThan(3000);
    expect(retry).toBeLessThanOrEqual(3600);
    expect((await identifyPcm(ctx, clip, users.a.cookie, from)).statusCode).toBe(429);
    // Another member from the same address still may.
    expect((await identifyPcm(ctx, clip, users.b.cookie, from)).statusCode).toBe(200);
    expect(changedTables(before, await snapshotTables(ctx, tables))).toEqual([]);
    expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
  });

  it("holds one address to 5 clips an hour, whoever is signed in", async () => {
    const from = "203.0.113.20";
    const who = [users.b, users.b, users.c, users.c, users.d];
    for (const u of who) expect((await identifyPcm(ctx, clip, u.cookie, from)).statusCode).toBe(200);
    const refused = await identifyPcm(ctx, clip, users.d.cookie, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(
      /^5 clips have been identified from your address this hour, the most one address may\. You can identify again in (\d+ minutes?|an hour)\.$/,
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    // The address's limit is the address's: d may still identify from elsewhere.
    expect((await identifyPcm(ctx, clip, users.d.cookie, "203.0.113.21")).statusCode).toBe(200);
  });

  it("answers 503 with Retry-After while the audio pool is full, and keeps no clip", async () => {
    const found = pools.find((p) => p.opts.workers === 1 && p.opts.queue === 0);
    if (!found) throw new Error("the suite's audio pool was not built");
    // Five minutes of a tone: its decode holds the one thread for about half a second or more.
    const rate = 22_050;
    const tone = new Float32Array(300 * rate);
    for (let i = 0; i < tone.length; i++) tone[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / rate);
    const wav = encodeWav(tone, rate);
    const long = path.join(ctx.dataDir, "hold.wav");
    writeFileSync(long, wav);
    const format = sniffAudio(wav);
    if (!format) throw new Error("WAV not recognised");
    // Signed up first: the password hashing of a sign-up takes longer than the margin.
    const [first, second, third] = await Promise.all(
      ["busy-pcm", "busy-file", "busy-after"].map((name) => member(ctx, `${name}@example.com`)),
    );
    let settled = false;
    const hold = found.pool.decode(long, format).finally(() => {
      settled = true;
    });
    const pcm = await identifyPcm(ctx, clip, first?.cookie, "203.0.113.30");
    const file = await identifyFile(ctx, encodeWav(clip, RATE), second?.cookie, "clip.wav", "203.0.113.31");
    // The refusals came while the thread was still taken.
    expect(settled).toBe(false);
    for (const res of [pcm, file]) {
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe(MESSAGES.identifyBusy);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
    await hold;
    // Free again: the same clip is answered.
    expect((await identifyPcm(ctx, clip, third?.cookie, "203.0.113.32")).statusCode).toBe(200);
  }, 60_000);
});

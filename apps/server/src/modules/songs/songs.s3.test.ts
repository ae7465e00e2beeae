import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.js";
import { createS3Storage } from "../../lib/storage-s3.js";
import { fetchAudio, dataFiles as files, member, type User, upload, verify, wavFile } from "../../test/fixtures.js";
import { createTestApp, describeEachDialect, type TestContext } from "../../test/harness.js";
import { startS3 } from "../../test/s3.js";

describe("object storage settings", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unheard-s3cfg-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = { DATA_DIR: dataDir, AUTH_SECRET: "s".repeat(40) };
  const full = {
    S3_BUCKET: "unheard-audio",
    S3_ENDPOINT: "http://minio:9000/",
    S3_ACCESS_KEY_ID: "id",
    S3_SECRET_ACCESS_KEY: "secret",
  };

  it("keeps audio on disk unless S3_BUCKET is set", () => {
    expect(loadConfig(base).s3).toBeUndefined();
  });

  it("reads the bucket settings, with path-style addressing for custom endpoints", () => {
    expect(loadConfig({ ...base, ...full }).s3).toEqual({
      bucket: "unheard-audio",
      endpoint: "http://minio:9000",
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
      prefix: "audio/",
    });
    const aws = loadConfig({
      ...base,
      ...full,
      S3_ENDPOINT: "",
      S3_REGION: "eu-central-1",
      S3_PREFIX: "/unheard/",
    }).s3;
    expect(aws).toMatchObject({
      endpoint: undefined,
      region: "eu-central-1",
      forcePathStyle: false,
      prefix: "unheard/",
    });
    expect(loadConfig({ ...base, ...full, S3_FORCE_PATH_STYLE: "false" }).s3?.forcePathStyle).toBe(false);
  });

  it.each([
    ["S3_ACCESS_KEY_ID", { ...full, S3_ACCESS_KEY_ID: "" }],
    ["S3_SECRET_ACCESS_KEY", { ...full, S3_SECRET_ACCESS_KEY: undefined }],
    ["S3_BUCKET", { ...full, S3_BUCKET: "" }],
    ["S3_BUCKET", { ...full, S3_BUCKET: "Not_A_Bucket" }],
    ["S3_ENDPOINT", { ...full, S3_ENDPOINT: "minio:9000" }],
    ["S3_FORCE_PATH_STYLE", { ...full, S3_FORCE_PATH_STYLE: "sometimes" }],
  ])("names the missing or bad variable %s", (name, env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`^Invalid ${name}:`));
  });
});

describeEachDialect("songs: audio in S3-compatible object storage", (dialect) => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let ctx: TestContext;
  let owner: User;
  let songId: string;
  let audioUrl: string;
  let key: string;
  const wav = wavFile(3, "in the bucket");

  beforeAll(async () => {
    s3 = await startS3();
    ctx = await createTestApp(dialect, { env: s3.env });
    owner = await member(ctx, "s3-owner@example.com");
  });
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  it("uploads to the bucket, leaving nothing on local disk", async () => {
    const file = { name: "b.wav", data: wav };
    const res = await upload(ctx, owner.cookie, { title: "Bucketed", artists: ["Cloud"] }, file);
    expect(res.statusCode).toBe(201);
    songId = res.json().id;
    audioUrl = res.json().audio.url;
    const row = await ctx.database.db
      .selectFrom("song")
      .select("audio_key")
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    key = `audio/${row.audio_key}`;
    expect(await s3.keys()).toEqual([key]);
    expect(files(ctx.dataDir, "audio")).toEqual([]);
    expect(files(ctx.dataDir, "tmp")).toEqual([]);
  });

  it("streams it back whole and in ranges, with the same headers as local files", async () => {
    // Visitors hear verified songs only (issue 24).
    await verify(ctx, songId);
    const whole = await fetchAudio(ctx, audioUrl);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload).toEqual(wav);
    expect(whole.headers).toMatchObject({
      "content-type": "audio/wav",
      "content-length": String(wav.length),
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
    });
    expect(whole.headers["cache-control"]).toContain("immutable");
    const part = await fetchAudio(ctx, audioUrl, { range: "bytes=100-1123" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-1123/${wav.length}`);
    expect(part.headers["content-length"]).toBe("1024");
    expect(part.rawPayload).toEqual(wav.subarray(100, 1124));
    const tail = await fetchAudio(ctx, audioUrl, { range: "bytes=-10" });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(wav.subarray(wav.length - 10));
    const bad = await fetchAudio(ctx, audioUrl, { range: `bytes=${wav.length + 1}-` });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers["content-range"]).toBe(`bytes */${wav.length}`);
    const cached = await fetchAudio(ctx, audioUrl, { "if-none-match": String(whole.headers.etag) });
    expect(cached.statusCode).toBe(304);
  });

  it("fingerprints from a downloaded copy and removes the copy", async () => {
    expect(await ctx.app.jobs.drain()).toBe(1);
    const song = await ctx.database.db
      .selectFrom("song")
      .select("fingerprinted_at")
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(song.fingerprinted_at).toBeTruthy();
    const hashes = await ctx.database.db
      .selectFrom("fingerprint")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("song_id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(Number(hashes.n)).toBeGreaterThan(0);
    expect(files(ctx.dataDir, "tmp")).toEqual([]);
  });

  it("answers a missing object as a missing preview, and removes idempotently", async () => {
    const store = createS3Storage(ctx.config.s3 ?? expect.fail("no S3 config"), {
      tmpDir: path.join(ctx.dataDir, "tmp"),
    });
    expect(await store.size("nothing-here.wav")).toBeUndefined();
    await expect(store.remove("nothing-here.wav")).resolves.toBeUndefined();
    await expect(store.localFile("nothing-here.wav")).rejects.toThrow();
    expect(files(ctx.dataDir, "tmp")).toEqual([]);
    await expect(store.size("../escape")).rejects.toThrow(/invalid storage key/);
  });

  it("deletes the object with the song", async () => {
    const boss = await member(ctx, "s3-boss@example.com", "super_admin");
    const res = await ctx.app.inject({
      method: "DELETE",
      url: `/api/songs/${songId}`,
      headers: { cookie: boss.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(await s3.keys()).toEqual([]);
    expect((await fetchAudio(ctx, audioUrl)).statusCode).toBe(404);
  });

  it("leaves nothing in the bucket when an upload is refused after storing", async () => {
    // Same title and artist as an existing song: refused inside the transaction, after the object was stored.
    const first = await upload(ctx, owner.cookie, { title: "Twice", artists: ["Cloud"] });
    expect(first.statusCode).toBe(201);
    const before = await s3.keys();
    const again = await upload(
      ctx,
      owner.cookie,
      { title: "Twice", artists: ["Cloud"] },
      { name: "t.wav", data: wavFile(2, "a different tune") },
    );
    expect(again.statusCode).toBe(409);
    expect(await s3.keys()).toEqual(before);
    expect(files(ctx.dataDir, "tmp")).toEqual([]);
  });
});

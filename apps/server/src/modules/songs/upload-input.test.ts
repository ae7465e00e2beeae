// Hostile upload input: names, part counts and malformed multipart bodies. Not repeated here, already covered:
// HTML / SVG claiming to be MP3, empty and truncated files (lib/audio-formats.test.ts, "refuses empty, non-audio,
// truncated, corrupt and silent files"); text named .mp3, undecodable and oversize files at MAX_UPLOAD_MB=0.2
// (songs.test.ts, "refuses an upload with ... and leaves nothing behind").
import { readdirSync } from "node:fs";
import path from "node:path";
import { audioUnreadableMessage, MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { dataFiles, mp3File, multipart, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

type Sent = { payload: Buffer | string; headers: Record<string, string> };

const songCount = async (ctx: TestContext) =>
  Number((await ctx.database.db.selectFrom("song").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);

/** Every file under the data dir and its parent temp folder that an upload could have written, as relative paths. */
function writtenFiles(ctx: TestContext): string[] {
  const parent = path.dirname(ctx.dataDir);
  const mine = readdirSync(parent).filter((f) => f.includes("evil") || f.endsWith(".php") || f.endsWith(".exe"));
  return [
    ...["audio", "tmp"].flatMap((d) => dataFiles(ctx.dataDir, d).map((f) => `${d}/${f}`)),
    ...readdirSync(ctx.dataDir).filter((f) => !["audio", "tmp", "mail", "auth-secret"].includes(f)),
    ...mine.map((f) => `../${f}`),
  ];
}

const FIELDS = { title: "Hostile", artists: "Intruder", genre: "Pop" };
const PHP = Buffer.from("<?php system($_GET['c']); ?>\n".repeat(40));
const EXE = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"), Buffer.alloc(3000, 0x90)]);

describeEachDialect("songs: hostile upload input", (dialect) => {
  const ctx = useTestApp(dialect, { env: { MAX_UPLOAD_MB: "0.2" } });
  const { alice } = useMembers(ctx, { alice: "alice-hostile@example.com" });
  const send = (body: Sent) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/songs",
      payload: body.payload,
      headers: { ...body.headers, cookie: alice.cookie },
    });

  /** Refused with `status` and a message containing `message`; no song row, no file in audio/ or tmp/. */
  async function expectRefused(body: Sent, status: number, message: string) {
    const songsBefore = await songCount(ctx);
    const filesBefore = writtenFiles(ctx);
    const res = await send(body);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatchObject({ code: expect.any(String), message: expect.stringContaining(message) });
    expect(await songCount(ctx)).toBe(songsBefore);
    expect(writtenFiles(ctx)).toEqual(filesBefore);
    expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
  }

  const named: [string, Buffer][] = [
    ["song.mp3.exe", EXE],
    ["song.php.mp3", PHP],
    ["../../evil.php", PHP],
    ["..%2F..%2Fevil.mp3", EXE],
    ["C:\\..\\..\\evil.exe", EXE],
    ["evil\u0000.mp3", PHP],
  ];
  for (const [name, data] of named) {
    // A name ending like audio is told the file could not be read as audio (issue 38); others, the formats taken.
    const message = name.endsWith(".mp3") ? audioUnreadableMessage("mp3") : MESSAGES.audioUnsupported;
    it(`refuses non-audio named ${JSON.stringify(name)} as unreadable, storing nothing`, async () => {
      await expectRefused(multipart(FIELDS, { name, data, type: "audio/mpeg" }), 415, message);
    });
  }

  it("never uses the client's file name: real audio under a hostile name is stored under the server's own key", async () => {
    const res = await send(
      multipart({ ...FIELDS, title: "Named Badly" }, { name: "../../evil.php.mp3.exe", data: mp3File(2) }),
    );
    expect(res.statusCode).toBe(201);
    const stored = dataFiles(ctx.dataDir, "audio");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^[A-Za-z0-9_-]+-[0-9a-f]{12}\.mp3$/);
    expect(writtenFiles(ctx).filter((f) => f.startsWith("../"))).toEqual([]);
    expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
  });

  it("refuses a second file part", async () => {
    const one = multipart(FIELDS, { name: "a.mp3", data: mp3File(1, "first") });
    const boundary = (one.headers["content-type"] ?? "").split("boundary=")[1] ?? "";
    // A second file part spliced in before the closing boundary.
    const second = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="b.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
      ),
      mp3File(1, "second"),
      Buffer.from("\r\n"),
    ]);
    const end = Buffer.from(`--${boundary}--\r\n`);
    const payload = Buffer.concat([one.payload.subarray(0, one.payload.length - end.length), second, end]);
    await expectRefused({ payload, headers: one.headers }, 400, "Too many form fields or files");
  });

  it("refuses too many fields", async () => {
    const fields = { ...FIELDS, ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra${i}`, "x"])) };
    await expectRefused(multipart(fields, { name: "a.mp3", data: mp3File(1) }), 400, "Too many form fields or files");
  });

  it("refuses a body over the route's limit as too large", async () => {
    // The file part alone is over MAX_UPLOAD_MB, the whole body over the route's limit (MAX_UPLOAD_MB + 1 MB).
    await expectRefused(
      multipart(FIELDS, { name: "big.mp3", data: Buffer.alloc(1_500_000, 0xff) }),
      413,
      MESSAGES.audioTooLarge,
    );
  });

  it("refuses JSON and text bodies as an unsupported content type", async () => {
    await expectRefused(
      { payload: JSON.stringify(FIELDS), headers: { "content-type": "application/json" } },
      415,
      "multipart/form-data",
    );
    await expectRefused({ payload: "title=x", headers: { "content-type": "text/plain" } }, 415, "");
  });

  const malformed: [string, () => Sent][] = [
    ["without a boundary", () => ({ payload: "--x\r\n\r\n", headers: { "content-type": "multipart/form-data" } })],
    [
      "cut off before its closing boundary",
      () => {
        const body = multipart(FIELDS, { name: "a.mp3", data: mp3File(1) });
        return { ...body, payload: body.payload.subarray(0, body.payload.length - 200) };
      },
    ],
    [
      "with a part header that never ends",
      () => ({
        payload: `--b\r\nContent-Disposition: form-data; name="title"${"x".repeat(100)}`,
        headers: { "content-type": "multipart/form-data; boundary=b" },
      }),
    ],
    [
      "with a boundary that never appears",
      () => ({ payload: "just some bytes", headers: { "content-type": "multipart/form-data; boundary=nothere" } }),
    ],
  ];
  for (const [name, body] of malformed) {
    it(`refuses a multipart body ${name} as a bad request, storing nothing`, async () => {
      const songsBefore = await songCount(ctx);
      const res = await send(body());
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error).toEqual({ code: expect.any(String), message: expect.any(String) });
      expect(await songCount(ctx)).toBe(songsBefore);
      expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
    });
  }
});

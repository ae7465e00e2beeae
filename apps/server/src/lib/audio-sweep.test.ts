import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { upload, useMembers } from "../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../test/harness.js";
import { sweepDataDir } from "./audio-sweep.js";

describeEachDialect("start-up sweep of the data folder", (dialect) => {
  const ctx = useTestApp(dialect);
  const users = useMembers(ctx, { alice: "alice@sweep.test" });

  it("removes audio no song names and stale temp files, and keeps every song's audio", async () => {
    const res = await upload(ctx, users.alice.cookie, { title: "Kept", artists: ["Sweeper"] });
    expect(res.statusCode).toBe(201);
    const audioDir = path.join(ctx.dataDir, "audio");
    const [kept] = readdirSync(audioDir);
    // What a process killed between moving an upload into the store and committing its row leaves behind.
    writeFileSync(path.join(audioDir, "01orphan-abcdef012345.wav"), "RIFF");
    mkdirSync(path.join(ctx.dataDir, "tmp"), { recursive: true });
    writeFileSync(path.join(ctx.dataDir, "tmp", "01half.upload"), "half");

    // With S3 the local folder is not the store: its files are left alone (temp files still go).
    const s3 = await sweepDataDir(ctx.database, ctx.dataDir, { localAudio: false });
    expect(s3).toEqual({ orphanAudio: [], tempFiles: 1 });
    expect(existsSync(path.join(audioDir, "01orphan-abcdef012345.wav"))).toBe(true);

    const swept = await sweepDataDir(ctx.database, ctx.dataDir, { localAudio: true });
    expect(swept).toEqual({ orphanAudio: ["01orphan-abcdef012345.wav"], tempFiles: 0 });
    expect(readdirSync(audioDir)).toEqual([kept]);
    expect(readdirSync(path.join(ctx.dataDir, "tmp"))).toEqual([]);
    const song = await ctx.app.inject({
      method: "GET",
      url: `/api/songs/${(res.json() as { id: string }).id}/audio`,
      headers: { cookie: users.alice.cookie },
    });
    expect(song.statusCode).toBe(200);
  });
});

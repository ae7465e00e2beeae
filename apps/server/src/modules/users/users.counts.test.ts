import type { AddressInfo } from "node:net";
import type { ImportBatch } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { expectConsistent, expectProfileCounts } from "../../test/consistency.js";
import { getMe, multipart, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { openEventStream } from "../../test/sse.js";

/** The uploadCount GET /api/me answers the holder of `cookie`. */
async function uploadCount(ctx: TestContext, cookie: string): Promise<number> {
  const res = await getMe(ctx, cookie);
  expect(res.statusCode).toBe(200);
  return res.json().uploadCount as number;
}

/** Run a bulk import of `csv` (columns: title, artists) as the holder of `cookie`. */
function importCsv(ctx: TestContext, cookie: string, csv: string) {
  const body = multipart(
    { mapping: JSON.stringify(["title", "artists"]) },
    { name: "tracker.csv", data: Buffer.from(csv), type: "text/csv", field: "file" },
  );
  return ctx.app.inject({
    method: "POST",
    url: "/api/imports",
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

// Issue 25, item 2: the profile's "Uploads" showed the songs credited to the account as an artist (0 for members).
describeEachDialect("profile counters", (dialect) => {
  const ctx = useTestApp(dialect);
  const people = useMembers(ctx, {
    maker: "maker-cnt@example.com",
    fan: "fan-cnt@example.com",
    claimer: "claimer-cnt@example.com",
    live: "live-cnt@example.com",
    boss: ["boss-cnt@example.com", "super_admin"],
  });
  const asBoss = (method: "PUT" | "POST" | "DELETE", url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: { cookie: people.boss.cookie }, ...(payload ? { payload } : {}) });
  let base: string;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  it("counts the songs a member uploaded, whoever they credit: pending and hidden ones too, deleted ones not", async () => {
    const { maker, fan } = people;
    expect(await uploadCount(ctx, maker.cookie)).toBe(0);
    const ids: string[] = [];
    for (const [title, artists] of [
      ["Count One", ["Count Artist"]],
      ["Count Two", ["Count Artist", "Count Feature"]],
      ["Count Three", ["Other Count Artist"]],
    ] as const) {
      const res = await upload(ctx, maker.cookie, { title, artists: [...artists] });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    await upload(ctx, fan.cookie, { title: "Fan Count", artists: ["Count Artist"] });
    expect(await uploadCount(ctx, maker.cookie)).toBe(3);
    expect(await uploadCount(ctx, fan.cookie)).toBe(1);
    // One verified, one hidden: both still the member's uploads.
    await verify(ctx, ids[0] ?? "");
    expect((await asBoss("PUT", `/api/songs/${ids[1]}/hidden`, { hidden: true })).statusCode).toBe(200);
    expect(await uploadCount(ctx, maker.cookie)).toBe(3);
    // A deleted song is gone, and so is its count.
    expect((await asBoss("DELETE", `/api/songs/${ids[2]}`)).statusCode).toBe(200);
    expect(await uploadCount(ctx, maker.cookie)).toBe(2);
    await expectProfileCounts(ctx, maker.cookie, fan.cookie, people.boss.cookie);
    await expectConsistent(ctx);
  });

  it("an artist account's profile counts its uploads; its credits stay on its artist page", async () => {
    const { fan, claimer } = people;
    const first = (await upload(ctx, fan.cookie, { title: "Claimed One", artists: ["Claimed Artist"] })).json();
    const second = (await upload(ctx, fan.cookie, { title: "Claimed Two", artists: ["Claimed Artist"] })).json();
    await verify(ctx, first.id, second.id);
    expect((await upload(ctx, claimer.cookie, { title: "Claimer's Own", artists: ["Not Claimed"] })).statusCode).toBe(
      201,
    );
    const claim = await asBoss("POST", `/api/admin/artists/${first.artists[0].id}/claim`, { userId: claimer.id });
    expect(claim.statusCode).toBe(200);
    expect((await getMe(ctx, claimer.cookie)).json()).toMatchObject({ isArtist: true, uploadCount: 1 });
    const page = (await ctx.app.inject({ method: "GET", url: `/api/artists/${claimer.id}` })).json();
    expect(page.trackCount).toBe(2);
    const stored = await ctx.database.db
      .selectFrom("user")
      .select("credit_count")
      .where("id", "=", claimer.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.credit_count)).toBe(2);
    await expectProfileCounts(ctx, claimer.cookie, fan.cookie);
    await expectConsistent(ctx);
  });

  it("counts a bulk import's songs as the importer's uploads, and its undo takes them back", async () => {
    const { boss } = people;
    const before = await uploadCount(ctx, boss.cookie);
    const csv = [
      "Title,Artist",
      "Imported One,Import Artist",
      "Imported Two,Import Artist",
      "Imported Three,Other",
    ].join("\n");
    const res = await importCsv(ctx, boss.cookie, csv);
    expect(res.statusCode).toBe(201);
    const batch: ImportBatch = res.json();
    expect(batch).toMatchObject({ status: "done", createdCount: 3 });
    expect(await uploadCount(ctx, boss.cookie)).toBe(before + 3);
    await expectProfileCounts(ctx, boss.cookie);
    expect((await asBoss("POST", `/api/imports/${batch.id}/undo`)).statusCode).toBe(200);
    expect(await uploadCount(ctx, boss.cookie)).toBe(before);
    await expectProfileCounts(ctx, boss.cookie);
    await expectConsistent(ctx);
  });

  it("sends the uploader's open pages their new count after an upload and a deletion", async () => {
    const { live } = people;
    const stream = await openEventStream(`${base}/api/events`, live.cookie);
    try {
      await stream.next("ready");
      const song = (await upload(ctx, live.cookie, { title: "Live Count", artists: ["Live Artist"] })).json();
      expect((await stream.next("me")).data).toMatchObject({ id: live.id, uploadCount: 1 });
      expect((await asBoss("DELETE", `/api/songs/${song.id}`)).statusCode).toBe(200);
      expect((await stream.next("me")).data).toMatchObject({ id: live.id, uploadCount: 0 });
    } finally {
      stream.close();
    }
  });
});

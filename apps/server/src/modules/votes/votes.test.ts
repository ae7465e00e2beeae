import { MESSAGES } from "@unheard/shared";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectConsistent } from "../../test/consistency.js";
import { member, storedNumber, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

const vote = (ctx: TestContext, u: User | undefined, songId: string, payload: object) =>
  ctx.app.inject({ method: "PUT", url: `/api/songs/${songId}/vote`, headers: u ? { cookie: u.cookie } : {}, payload });

const points = (ctx: TestContext, userId: string) => storedNumber(ctx, "user", "points", ["id", userId]);

describeEachDialect("votes", (dialect) => {
  const ctx = useTestApp(dialect);
  const { uploader } = useMembers(ctx, { uploader: "up-v@example.com" });
  let voters: User[];
  let songId: string;
  beforeAll(async () => {
    voters = [];
    for (let i = 0; i < 5; i++) voters.push(await member(ctx, `voter${i}@example.com`));
    songId = (await upload(ctx, uploader.cookie, { title: "Vote Me", artists: ["Voted"] })).json().id;
  });
  afterAll(() => ctx.close());

  it("follows the toggle flow by wanted state, idempotently", async () => {
    const [a] = voters as [User];
    const up = await vote(ctx, a, songId, { value: "up" });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({
      upvotes: 1,
      downvotes: 0,
      net: 1,
      status: "pending",
      myVote: "up",
      verifiedNow: false,
    });
    expect((await vote(ctx, a, songId, { value: "up" })).json()).toMatchObject({ upvotes: 1, net: 1, myVote: "up" });
    expect(await points(ctx, a.id)).toBe(1);
    // Switching sides moves the vote, not the points.
    const down = await vote(ctx, a, songId, { value: "down", reason: "duplicate", details: "  same as another  " });
    expect(down.json()).toMatchObject({ upvotes: 0, downvotes: 1, net: -1, myVote: "down" });
    expect(await points(ctx, a.id)).toBe(1);
    const row = await ctx.database.db
      .selectFrom("vote")
      .selectAll()
      .where("song_id", "=", songId)
      .where("user_id", "=", a.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ reason: "duplicate", details: "same as another" });
    const none = await vote(ctx, a, songId, { value: "none" });
    expect(none.json()).toMatchObject({ upvotes: 0, downvotes: 0, myVote: null });
    expect(await points(ctx, a.id)).toBe(0);
    expect((await vote(ctx, a, songId, { value: "none" })).json()).toMatchObject({ upvotes: 0, downvotes: 0 });
    await expectConsistent(ctx);
  });

  it("needs a reason to downvote, a signed-in voter, and someone else's song", async () => {
    const noReason = await vote(ctx, voters[1], songId, { value: "down" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.message).toBe(MESSAGES.downvoteReasonRequired);
    const badReason = await vote(ctx, voters[1], songId, { value: "down", reason: "copyright" });
    expect(badReason.statusCode).toBe(400);
    const visitor = await vote(ctx, undefined, songId, { value: "up" });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe(MESSAGES.loginToVerify);
    const own = await vote(ctx, uploader, songId, { value: "up" });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(MESSAGES.ownSongVote);
    expect((await vote(ctx, voters[1], "nope", { value: "up" })).statusCode).toBe(404);
    const votes = await ctx.database.db.selectFrom("vote").select("user_id").where("song_id", "=", songId).execute();
    expect(votes).toEqual([]);
  });

  it("verifies at net 3, returns to pending below it, and pays the uploader 200 only once", async () => {
    const [a, b, c, d] = voters as [User, User, User, User];
    const before = await points(ctx, uploader.id);
    await vote(ctx, a, songId, { value: "up" });
    await vote(ctx, b, songId, { value: "up" });
    const third = (await vote(ctx, c, songId, { value: "up" })).json();
    expect(third).toMatchObject({ net: 3, status: "verified", verifiedNow: true });
    expect(third.verifiedAt).toEqual(expect.any(String));
    expect(await points(ctx, uploader.id)).toBe(before + 200);
    const pending = (
      await ctx.app.inject({ method: "GET", url: "/api/songs/pending", headers: { cookie: d.cookie } })
    ).json();
    expect(pending.items.map((s: { id: string }) => s.id)).not.toContain(songId);
    const back = (await vote(ctx, d, songId, { value: "down", reason: "fake_leak" })).json();
    expect(back).toMatchObject({ net: 2, status: "pending", verifiedAt: null });
    const again = (await vote(ctx, d, songId, { value: "up" })).json();
    expect(again).toMatchObject({ net: 4, status: "verified", verifiedNow: true });
    expect(await points(ctx, uploader.id)).toBe(before + 200);
    await expectConsistent(ctx);
  });

  it("lets admins verify one song and super admins verify all", async () => {
    const s1 = (await upload(ctx, uploader.cookie, { title: "Admin Pick", artists: ["Voted"] })).json().id;
    const s2 = (await upload(ctx, uploader.cookie, { title: "Bulk One", artists: ["Voted"] })).json().id;
    const admin = await member(ctx, "adm-v@example.com", "admin");
    const boss = await member(ctx, "boss-v@example.com", "super_admin");
    expect(
      (
        await ctx.app.inject({
          method: "POST",
          url: `/api/songs/${s1}/verify`,
          headers: { cookie: voters[0]?.cookie ?? "" },
        })
      ).statusCode,
    ).toBe(403);
    expect((await ctx.app.inject({ method: "POST", url: `/api/songs/${s1}/verify` })).statusCode).toBe(401);
    const v = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${s1}/verify`,
      headers: { cookie: admin.cookie },
    });
    expect(v.json()).toMatchObject({ status: "verified", verifiedNow: true });
    const row = await ctx.database.db
      .selectFrom("song")
      .select(["verified_by", "verified_at"])
      .where("id", "=", s1)
      .executeTakeFirstOrThrow();
    expect(row.verified_by).toBe(admin.id);
    // A direct verification is not undone by a vote that does not cross the threshold downwards.
    expect((await vote(ctx, voters[0], s1, { value: "down", reason: "other" })).json()).toMatchObject({
      status: "verified",
    });
    expect(
      (await ctx.app.inject({ method: "POST", url: "/api/songs/verify-all", headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(403);
    const all = await ctx.app.inject({
      method: "POST",
      url: "/api/songs/verify-all",
      headers: { cookie: boss.cookie },
    });
    expect(all.json()).toMatchObject({ ok: true, message: MESSAGES.allVerified });
    expect(all.json().count).toBeGreaterThanOrEqual(1);
    const s2row = await ctx.database.db
      .selectFrom("song")
      .select(["status", "verified_by"])
      .where("id", "=", s2)
      .executeTakeFirstOrThrow();
    expect(s2row).toEqual({ status: "verified", verified_by: boss.id });
    await expectConsistent(ctx);
  });

  it("limits votes per user per minute", async () => {
    const spammer = await member(ctx, "spam-v@example.com");
    const target = (await upload(ctx, uploader.cookie, { title: "Spam Target", artists: ["Voted"] })).json().id;
    const codes: number[] = [];
    for (let i = 0; i < 31; i++)
      codes.push((await vote(ctx, spammer, target, { value: i % 2 ? "none" : "up" })).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 200)).toBe(true);
    expect(codes[30]).toBe(429);
  });
});

describeEachDialect("votes under concurrency", (dialect) => {
  // The per-user limit would refuse most of a burst; the race is what is under test here.
  const ctx = useTestApp(dialect, { env: { VOTES_PER_MINUTE: "100000" } });
  const { uploader } = useMembers(ctx, { uploader: "up-c@example.com" });

  it("counts 100 concurrent identical upvotes once", async () => {
    const songId = (await upload(ctx, uploader.cookie, { title: "Hammered", artists: ["Racer"] })).json().id;
    const voter = await member(ctx, "hammer@example.com");
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        ctx.app.inject({
          method: "PUT",
          url: `/api/songs/${songId}/vote`,
          headers: { cookie: voter.cookie },
          payload: { value: "up" },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
    expect(results.every((r) => r.json().upvotes === 1 && r.json().myVote === "up")).toBe(true);
    const rows = await ctx.database.db.selectFrom("vote").select("user_id").where("song_id", "=", songId).execute();
    expect(rows).toHaveLength(1);
    const song = await ctx.database.db
      .selectFrom("song")
      .select(["upvotes"])
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(Number(song.upvotes)).toBe(1);
    expect(await points(ctx, voter.id)).toBe(1);
    await expectConsistent(ctx);
  });

  if (dialect === "sqlite") {
    it("counts 100 concurrent upvotes from separate SQLite connections in separate threads once", async () => {
      const { Worker } = await import("node:worker_threads");
      const songId = (await upload(ctx, uploader.cookie, { title: "Threaded", artists: ["Racer"] })).json().id;
      const voter = await member(ctx, "threads@example.com");
      const worker = (count: number) =>
        new Promise<number[]>((resolve, reject) => {
          const w = new Worker(new URL("../../test/ts-worker.mjs", import.meta.url), {
            workerData: {
              entry: new URL("../../test/vote-worker.ts", import.meta.url).href,
              file: ctx.file,
              dataDir: ctx.dataDir,
              songId,
              cookie: voter.cookie,
              count,
              env: ctx.env,
            },
          });
          w.once("message", resolve);
          w.once("error", reject);
        });
      // Four connections, 25 requests each, all racing for the write lock.
      const statuses = (await Promise.all([worker(25), worker(25), worker(25), worker(25)])).flat();
      expect(statuses).toEqual(Array(100).fill(200));
      const rows = await ctx.database.db.selectFrom("vote").select("user_id").where("song_id", "=", songId).execute();
      expect(rows).toHaveLength(1);
      expect(await storedNumber(ctx, "song", "upvotes", ["id", songId])).toBe(1);
      expect(await points(ctx, voter.id)).toBe(1);
      await expectConsistent(ctx);
    }, 60_000);
  }

  it("verifies once and pays once when many users cross the threshold together", async () => {
    const songId = (await upload(ctx, uploader.cookie, { title: "Stampede", artists: ["Racer"] })).json().id;
    const crowd: User[] = [];
    for (let i = 0; i < 8; i++) crowd.push(await member(ctx, `crowd${i}@example.com`));
    const before = await points(ctx, uploader.id);
    const results = await Promise.all(crowd.map((u) => vote(ctx, u, songId, { value: "up" })));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.filter((r) => r.json().verifiedNow)).toHaveLength(1);
    expect(await points(ctx, uploader.id)).toBe(before + 200);
    const song = await ctx.database.db
      .selectFrom("song")
      .select(["upvotes", "status"])
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(Number(song.upvotes)).toBe(8);
    expect(song.status).toBe("verified");
    await expectConsistent(ctx);
  });

  it("keeps counters, status and points equal to the rows over random vote sequences", async () => {
    const users: User[] = [];
    for (let i = 0; i < 4; i++) users.push(await member(ctx, `prop${i}@example.com`));
    const songs: string[] = [];
    for (let i = 0; i < 2; i++)
      songs.push((await upload(ctx, uploader.cookie, { title: `Prop ${i}`, artists: ["Prop"] })).json().id);
    const action = fc.record({
      user: fc.integer({ min: 0, max: users.length - 1 }),
      song: fc.integer({ min: 0, max: songs.length - 1 }),
      value: fc.constantFrom("up", "down", "none"),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        // Each run starts from no votes, cast back through the API.
        for (const u of users) for (const s of songs) await vote(ctx, u, s, { value: "none" });
        const expected = new Map<string, number>();

        for (const a of actions) {
          const u = users[a.user] as User;
          const s = songs[a.song] as string;
          const res = await vote(ctx, u, s, { value: a.value, ...(a.value === "down" ? { reason: "other" } : {}) });
          expect(res.statusCode).toBe(200);
          expected.set(`${a.song}:${a.user}`, a.value === "up" ? 1 : a.value === "down" ? -1 : 0);
        }
        await expectConsistent(ctx);
        for (const [i, s] of songs.entries()) {
          const net = [...expected.entries()].filter(([k]) => k.startsWith(`${i}:`)).reduce((n, [, v]) => n + v, 0);
          const row = await ctx.database.db
            .selectFrom("song")
            .select(["upvotes", "downvotes", "status"])
            .where("id", "=", s)
            .executeTakeFirstOrThrow();
          expect(Number(row.upvotes) - Number(row.downvotes)).toBe(net);
          if (net >= 3) expect(row.status).toBe("verified");
        }
      }),
      { numRuns: 15 },
    );
  });
});

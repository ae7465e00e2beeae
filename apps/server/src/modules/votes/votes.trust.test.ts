import { VOTE_NOTES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { expectConsistent } from "../../test/consistency.js";
import { member, storedNumber, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

// Decision 014 at its default settings (the harness turns the rules off for other features' tests).
const RULES = { VOTE_MIN_ACCOUNT_DAYS: "7", VOTE_MIN_RECORD: "3", CONTESTED_OPEN_HOURS: "48" };
const DAY = 86_400_000;

const vote = (ctx: TestContext, u: User, songId: string, payload: object) =>
  ctx.app.inject({ method: "PUT", url: `/api/songs/${songId}/vote`, headers: { cookie: u.cookie }, payload });
const song = async (ctx: TestContext, u: User, songId: string) =>
  (await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: u.cookie } })).json();
const points = (ctx: TestContext, userId: string) => storedNumber(ctx, "user", "points", ["id", userId]);

/** Age an account, as the clock would. */
async function age(ctx: TestContext, u: User, days: number): Promise<void> {
  const at = new Date(Date.now() - days * DAY).toISOString();
  await ctx.database.db.updateTable("user").set({ created_at: at }).where("id", "=", u.id).execute();
}

let titles = 0;
/** An upload by `u`; returns its id. */
async function song0(ctx: TestContext, u: User, title = `Track ${++titles}`): Promise<string> {
  const res = await upload(ctx, u.cookie, { title, artists: ["Trust Artist"] });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** Make a member established through the rules: an old account with three uploads an admin verified. */
async function establish(ctx: TestContext, u: User, admin: User): Promise<void> {
  await age(ctx, u, 30);
  for (let i = 0; i < 3; i++) {
    const id = await song0(ctx, u);
    const res = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/verify`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
  }
}

describeEachDialect("vote eligibility and contested songs", (dialect) => {
  const ctx = useTestApp(dialect, { env: RULES });
  const { admin, uploader } = useMembers(ctx, {
    admin: ["admin-trust@example.com", "admin"],
    uploader: "uploader-trust@example.com",
  });
  const honest: User[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const u = await member(ctx, `honest${i}@example.com`);
      await establish(ctx, u, admin);
      honest.push(u);
    }
  }, 60_000);

  it("keeps a new account's vote without counting it, and says why", async () => {
    const id = await song0(ctx, uploader);
    const fresh = await member(ctx, "fresh-trust@example.com");
    const res = await vote(ctx, fresh, id, { value: "up" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ upvotes: 0, net: 0, myVote: "up", counted: false, note: VOTE_NOTES.tooNew(7) });
    expect(await points(ctx, fresh.id)).toBe(0);
    expect(await song(ctx, fresh, id)).toMatchObject({ myVote: "up", myVoteNote: VOTE_NOTES.tooNew(7), upvotes: 0 });
    // Old enough, but no record yet: the next reason.
    await age(ctx, fresh, 8);
    expect((await song(ctx, fresh, id)).myVoteNote).toBe(VOTE_NOTES.noRecord(3, 0));
    // Admins' votes always count.
    const adminVote = await vote(ctx, admin, id, { value: "up" });
    expect(adminVote.json()).toMatchObject({ upvotes: 1, counted: true, note: null });
  });

  it("stops counting the votes of a member whose e-mail is not verified", async () => {
    const id = await song0(ctx, uploader);
    const [h] = honest as [User];
    await ctx.database.db.updateTable("user").set({ email_verified: false }).where("id", "=", h.id).execute();
    try {
      expect((await vote(ctx, h, id, { value: "up" })).json()).toMatchObject({
        counted: false,
        note: VOTE_NOTES.emailUnverified,
      });
    } finally {
      await ctx.database.db.updateTable("user").set({ email_verified: true }).where("id", "=", h.id).execute();
    }
    expect((await vote(ctx, h, id, { value: "up" })).json()).toMatchObject({ counted: true, upvotes: 1 });
  });

  it("lets ten fresh accounts verify nothing, while three established members verify with one vote each", async () => {
    const fake = await song0(ctx, uploader, "Totally Real Leak");
    const ring: User[] = [];
    for (let i = 0; i < 10; i++) ring.push(await member(ctx, `sock${i}@example.com`));
    for (const sock of ring) expect((await vote(ctx, sock, fake, { value: "up" })).json().counted).toBe(false);
    await ctx.app.voteSweep();
    expect(await song(ctx, admin, fake)).toMatchObject({ status: "pending", upvotes: 0, net: 0 });
    expect(await points(ctx, uploader.id)).toBe(0);
    for (const sock of ring) expect(await points(ctx, sock.id)).toBe(0);

    const real = await song0(ctx, uploader, "Honest Leak");
    const results = [];
    for (const h of honest.slice(0, 3)) results.push((await vote(ctx, h, real, { value: "up" })).json());
    expect(results.map((r) => [r.counted, r.upvotes])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
    ]);
    expect(results[2]).toMatchObject({ status: "verified", verifiedNow: true });
    expect(await points(ctx, uploader.id)).toBe(200);
    await expectConsistent(ctx);
  });

  it("counts a member's earlier votes once they become eligible (the periodic pass)", async () => {
    const id = await song0(ctx, uploader);
    const late = await member(ctx, "late-trust@example.com");
    expect((await vote(ctx, late, id, { value: "up" })).json().counted).toBe(false);
    expect((await ctx.app.voteSweep()).votes).toBe(0);
    await establish(ctx, late, admin);
    expect((await ctx.app.voteSweep()).votes).toBeGreaterThanOrEqual(1);
    expect(await song(ctx, late, id)).toMatchObject({ upvotes: 1, myVote: "up", myVoteNote: null });
    // 200 for each of the three verified uploads, and now 1 for the vote that counts.
    expect(await points(ctx, late.id)).toBe(3 * 200 + 1);
  });

  it("holds a contested song for its open period, then verifies it", async () => {
    const id = await song0(ctx, uploader);
    const [critic, ...fans] = honest as [User, ...User[]];
    await vote(ctx, critic, id, { value: "down", reason: "fake_leak" });
    let last: { status: string; net: number; verifiableAt: string | null } | undefined;
    for (const f of fans) last = (await vote(ctx, f, id, { value: "up" })).json();
    expect(last).toMatchObject({ status: "pending", net: 3 });
    const created = Date.parse((await song(ctx, admin, id)).createdAt);
    expect(Date.parse(last?.verifiableAt ?? "")).toBe(created + 48 * 3_600_000);
    expect((await song(ctx, admin, id)).verifiableAt).toBe(last?.verifiableAt);
    // Not yet: the pass leaves it.
    await ctx.app.voteSweep();
    expect((await song(ctx, admin, id)).status).toBe("pending");
    // Two days later it verifies.
    await ctx.database.db
      .updateTable("song")
      .set({ created_at: new Date(Date.now() - 49 * 3_600_000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect((await ctx.app.voteSweep()).songs).toBe(1);
    expect(await song(ctx, admin, id)).toMatchObject({ status: "verified", verifiableAt: null });
    await expectConsistent(ctx);
  });
});

import { dailyCapMessage, VOTE_NOTES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { expectConsistent } from "../../test/consistency.js";
import { member, storedNumber, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

// Decisions 014 and 015 at their default settings (the harness turns the rules off for other features' tests);
// Regular members (trust level 2) verify directly here, as an admin may choose.
const RULES = {
  VOTE_MIN_ACCOUNT_DAYS: "7",
  VOTE_MIN_RECORD: "3",
  CONTESTED_OPEN_HOURS: "48",
  DIRECT_VERIFY_TRUST: "2",
};
const DAY = 86_400_000;
const SOCK_DEVICE = "sockpuppet-browser-0123456789";

/** A vote from the member's own address and browser, when the test gave them one. */
const vote = (ctx: TestContext, u: User, songId: string, payload: object) =>
  ctx.app.inject({
    method: "PUT",
    url: `/api/songs/${songId}/vote`,
    headers: { cookie: u.device ? `${u.cookie}; unheard.device=${u.device}` : u.cookie },
    payload,
    ...(u.ip ? { remoteAddress: u.ip } : {}),
  });
const me = async (ctx: TestContext, u: User) =>
  (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: u.cookie } })).json();
const voters = (ctx: TestContext, u: User, songId: string) =>
  ctx.app.inject({ method: "GET", url: `/api/admin/songs/${songId}/voters`, headers: { cookie: u.cookie } });
const discount = (ctx: TestContext, u: User, userId: string, discounted: boolean) =>
  ctx.app.inject({
    method: "PUT",
    url: `/api/admin/users/${userId}/votes-discounted`,
    headers: { cookie: u.cookie },
    payload: { discounted },
  });
/** The points a member lost on a song for backing a fake leak, from the ledger. */
async function fakeTakeBacks(ctx: TestContext, userId: string, songId: string): Promise<number[]> {
  const rows = await ctx.database.db
    .selectFrom("points_ledger")
    .select("delta")
    .where("user_id", "=", userId)
    .where("ref", "=", songId)
    .where("reason", "=", "vote_fake")
    .execute();
  return rows.map((r) => Number(r.delta));
}

/** File a fake-leak report; returns its id. */
async function fileReport(ctx: TestContext, reporter: User, songId: string): Promise<string> {
  const rep = await ctx.app.inject({
    method: "POST",
    url: `/api/songs/${songId}/reports`,
    headers: { cookie: reporter.cookie },
    payload: { reason: "fake_leak", details: "Made with an AI voice" },
  });
  expect(rep.statusCode, rep.body).toBe(201);
  const row = await ctx.database.db
    .selectFrom("report")
    .select("id")
    .where("song_id", "=", songId)
    .where("user_id", "=", reporter.id)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An admin upholds a report. */
async function resolveReport(ctx: TestContext, admin: User, reportId: string): Promise<void> {
  const res = await ctx.app.inject({
    method: "POST",
    url: `/api/reports/${reportId}/process`,
    headers: { cookie: admin.cookie },
    payload: { action: "resolve" },
  });
  expect(res.statusCode, res.body).toBe(200);
}
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
      const u = await member(ctx, `honest${i}@example.com`, "user", { ip: `198.51.${100 + i}.7` });
      await establish(ctx, u, admin);
      await age(ctx, u, 30 + 10 * i);
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
    // One person: one address, one browser, ten throwaway e-mail addresses.
    for (let i = 0; i < 10; i++)
      ring.push(await member(ctx, `sock${i}@example.com`, "user", { ip: `203.0.113.${10 + i}`, device: SOCK_DEVICE }));
    for (const sock of ring) expect((await vote(ctx, sock, fake, { value: "up" })).json().counted).toBe(false);
    await ctx.app.voteSweep();
    expect(await song(ctx, admin, fake)).toMatchObject({ status: "pending", upvotes: 0, net: 0 });
    expect(await points(ctx, uploader.id)).toBe(0);
    for (const sock of ring) expect(await points(ctx, sock.id)).toBe(0);
    // The admins' view flags the ring: one network, one browser, accounts made together.
    const view = (await voters(ctx, admin, fake)).json();
    expect(view.ringSuspected).toBe(true);
    expect(view.signals).toEqual(
      expect.arrayContaining([
        "10 voters signed up or voted from 203.0.113.0/24",
        "10 voters used the same browser (device cookie)",
        "10 voter accounts were created within 24 hours of each other",
      ]),
    );
    expect(view.voters).toHaveLength(10);
    expect(view.voters[0]).toMatchObject({
      value: "up",
      counted: false,
      accountAgeDays: 0,
      trust: { level: 0, name: "New" },
      signupPrefix: "203.0.113.0/24",
      votePrefix: "203.0.113.0/24",
    });
    expect(new Set(view.voters.map((v: { device: string }) => v.device)).size).toBe(1);
    expect(view.voters[0].flags).toHaveLength(3);
    // Registering an existing address again, from elsewhere, changes nothing about where that account signed up.
    const again = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { email: "sock0@example.com", password: "secret123", confirmPassword: "secret123" },
      remoteAddress: "198.18.0.1",
    });
    expect(again.statusCode).toBe(201);
    expect((await voters(ctx, admin, fake)).json().voters[0].signupPrefix).toBe("203.0.113.0/24");
    // Members cannot see it.
    expect((await voters(ctx, uploader, fake)).statusCode).toBe(403);

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
    // Three members from their own networks and browsers, made a month apart: nothing to flag.
    expect((await voters(ctx, admin, real)).json()).toMatchObject({ ringSuspected: false, signals: [] });
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

  it("counts toward a member's record only the upvotes that helped verify a song (issue 24)", async () => {
    const adminVerify = async (id: string) =>
      expect(
        (await ctx.app.inject({ method: "POST", url: `/api/songs/${id}/verify`, headers: { cookie: admin.cookie } }))
          .statusCode,
      ).toBe(200);
    const voter = await member(ctx, "helper-trust@example.com", "user", { ip: "192.0.2.201" });
    await establish(ctx, voter, admin);
    expect((await me(ctx, voter)).trust.score).toBe(3);
    // An upvote on a song verified already matched nothing and risked nothing.
    const done = await song0(ctx, uploader);
    await adminVerify(done);
    expect((await vote(ctx, voter, done, { value: "up" })).json()).toMatchObject({ counted: true });
    expect((await me(ctx, voter)).trust.score).toBe(3);
    // One that helped verify it counts.
    const helped = await song0(ctx, uploader);
    for (const u of [voter, honest[0] as User, honest[1] as User])
      expect((await vote(ctx, u, helped, { value: "up" })).statusCode).toBe(200);
    expect((await song(ctx, admin, helped)).status).toBe("verified");
    expect((await me(ctx, voter)).trust.score).toBe(4);
    // A vote cast while it did not count, that started counting only after its song verified, did not help.
    const late = await member(ctx, "late-helper-trust@example.com", "user", { ip: "192.0.2.202" });
    const early = await song0(ctx, uploader);
    expect((await vote(ctx, late, early, { value: "up" })).json().counted).toBe(false);
    for (const u of honest.slice(0, 3)) await vote(ctx, u, early, { value: "up" });
    expect((await song(ctx, admin, early)).status).toBe("verified");
    await establish(ctx, late, admin);
    await ctx.app.voteSweep();
    expect(await song(ctx, late, early)).toMatchObject({ upvotes: 4, myVoteNote: null });
    expect((await me(ctx, late)).trust.score).toBe(3);
    await expectConsistent(ctx);
  });

  it("keeps three accounts that upvoted verified songs from verifying an attacker's fake upload (issue 24)", async () => {
    // The scenario: each farmed account upvotes three songs the community verified long ago, waits out
    // the account age, then upvotes the attacker's fake leak.
    const verified: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await song0(ctx, uploader);
      await ctx.app.inject({ method: "POST", url: `/api/songs/${id}/verify`, headers: { cookie: admin.cookie } });
      verified.push(id);
    }
    const attacker = await member(ctx, "attacker-trust@example.com", "user", { ip: "203.0.113.201" });
    const farmed: User[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await member(ctx, `farmed${i}-trust@example.com`, "user", { ip: `192.0.2.${210 + i}` });
      for (const id of verified) expect((await vote(ctx, u, id, { value: "up" })).statusCode).toBe(200);
      await age(ctx, u, 8);
      expect((await me(ctx, u)).trust).toMatchObject({ level: 0, score: 0, votesCount: false });
      farmed.push(u);
    }
    const fake = await song0(ctx, attacker, "Unreleased Masterpiece (Leak)");
    for (const u of farmed)
      expect((await vote(ctx, u, fake, { value: "up" })).json()).toMatchObject({
        counted: false,
        note: VOTE_NOTES.noRecord(3, 0),
      });
    await ctx.app.voteSweep();
    expect(await song(ctx, admin, fake)).toMatchObject({ status: "pending", upvotes: 0 });
    expect(await points(ctx, attacker.id)).toBe(0);
    await expectConsistent(ctx);
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

  it("takes back what a fake leak earned, and the trust of those who backed it", async () => {
    const backer = await member(ctx, "backer-trust@example.com", "user", { ip: "192.0.2.44" });
    await establish(ctx, backer, admin);
    const other = await song0(ctx, uploader, "Another Leak");
    expect((await vote(ctx, backer, other, { value: "up" })).json()).toMatchObject({ counted: true, upvotes: 1 });
    const leak = await song0(ctx, uploader, "Fake Leak");
    const [a, b] = honest.slice(2) as [User, User];
    for (const u of [backer, a, b]) expect((await vote(ctx, u, leak, { value: "up" })).json().counted).toBe(true);
    expect((await song(ctx, admin, leak)).status).toBe("verified");
    const before = { uploader: await points(ctx, uploader.id), backer: await points(ctx, backer.id) };
    expect((await me(ctx, backer)).trust).toMatchObject({ level: 1, name: "Member", strikes: 0, votesCount: true });

    const [critic] = honest.slice(4) as [User];
    const first = await fileReport(ctx, critic, leak);
    const second = await fileReport(ctx, honest[0] as User, leak);
    await resolveReport(ctx, admin, first);
    const row = await ctx.database.db
      .selectFrom("song")
      .select(["status", "is_hidden", "fake_at", "upvotes", "verified_by"])
      .where("id", "=", leak)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", upvotes: 0, verified_by: null });
    expect(Boolean(row.is_hidden)).toBe(true);
    expect(row.fake_at).not.toBeNull();
    // The uploader loses the +200, each backer the point for the vote.
    expect(await points(ctx, uploader.id)).toBe(before.uploader - 200);
    expect(await fakeTakeBacks(ctx, a.id, leak)).toEqual([-1]);
    // The backer had exactly the record the rules ask for: a strike costs them their eligibility, so their other
    // counted vote stops counting too (and its point goes with it).
    expect(await points(ctx, backer.id)).toBe(before.backer - 2);
    expect((await me(ctx, backer)).trust).toMatchObject({
      level: 0,
      strikes: 1,
      votesCount: false,
      note: VOTE_NOTES.noRecord(3, 0),
    });
    expect(await song(ctx, admin, other)).toMatchObject({ upvotes: 0 });
    // The uploader has a strike too.
    expect((await me(ctx, uploader)).trust.strikes).toBe(1);
    // The periodic pass never counts a vote on a fake leak again, and a second upheld report takes nothing more.
    await ctx.app.voteSweep();
    expect((await song(ctx, admin, leak)).upvotes).toBe(0);
    await resolveReport(ctx, admin, second);
    expect(await points(ctx, uploader.id)).toBe(before.uploader - 200);
    expect(await fakeTakeBacks(ctx, a.id, leak)).toEqual([-1]);
    const audit = await ctx.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("target_id", "=", leak)
      .where("action", "=", "song.fake")
      .execute();
    expect(audit).toHaveLength(1);
    await expectConsistent(ctx);
  });

  it("lets an admin discount a member's votes, with the points, and restore them", async () => {
    const id = await song0(ctx, uploader);
    const voter = await member(ctx, "discounted-trust@example.com", "user", { ip: "192.0.2.99" });
    await establish(ctx, voter, admin);
    expect((await vote(ctx, voter, id, { value: "up" })).json()).toMatchObject({ counted: true, upvotes: 1 });
    const before = await points(ctx, voter.id);
    const res = await discount(ctx, admin, voter.id, true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, moved: 1 });
    expect(await points(ctx, voter.id)).toBe(before - 1);
    expect(await song(ctx, voter, id)).toMatchObject({ upvotes: 0, myVote: "up", myVoteNote: VOTE_NOTES.discounted });
    // The periodic pass leaves a discounted member alone.
    await ctx.app.voteSweep();
    expect((await song(ctx, admin, id)).upvotes).toBe(0);
    const logged = await ctx.database.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("target_id", "=", voter.id)
      .execute();
    expect(logged).toEqual([{ action: "user.votes_discounted", actor_id: admin.id }]);
    // Only admins may, and not on themselves.
    expect((await discount(ctx, uploader, voter.id, false)).statusCode).toBe(403);
    expect((await discount(ctx, admin, admin.id, true)).statusCode).toBe(403);
    expect((await discount(ctx, admin, "no-such-user", true)).statusCode).toBe(404);
    // Restored: the vote counts again, with its point.
    expect((await discount(ctx, admin, voter.id, false)).json()).toMatchObject({ moved: 1 });
    expect(await points(ctx, voter.id)).toBe(before);
    expect((await song(ctx, admin, id)).upvotes).toBe(1);
    await expectConsistent(ctx);
  });

  it("raises members' trust with their record, and lets the chosen level verify directly", async () => {
    const regular = await member(ctx, "regular-trust@example.com", "user", { ip: "192.0.2.150" });
    await establish(ctx, regular, admin);
    expect((await me(ctx, regular)).trust).toMatchObject({ level: 1, score: 3 });
    // Ten accepted contributions and a month: Regular, the level this suite lets verify directly.
    for (let i = 0; i < 7; i++) {
      const sid = await song0(ctx, regular);
      await ctx.app.inject({ method: "POST", url: `/api/songs/${sid}/verify`, headers: { cookie: admin.cookie } });
    }
    await age(ctx, regular, 31);
    expect((await me(ctx, regular)).trust).toMatchObject({ level: 2, name: "Regular", score: 10 });
    const id = await song0(ctx, uploader);
    const res = (await vote(ctx, regular, id, { value: "up" })).json();
    expect(res).toMatchObject({ status: "verified", verifiedNow: true, upvotes: 1 });
    const row = await ctx.database.db
      .selectFrom("song")
      .select("verified_by")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.verified_by).toBe(regular.id);
    // A contested song still waits for its open period.
    const contested = await song0(ctx, uploader);
    await vote(ctx, honest[0] as User, contested, { value: "down", reason: "fake_leak" });
    expect((await vote(ctx, regular, contested, { value: "up" })).json()).toMatchObject({ status: "pending" });
    // A Member (level 1) has no such power.
    const plain = await song0(ctx, uploader);
    expect((await vote(ctx, honest[1] as User, plain, { value: "up" })).json()).toMatchObject({ status: "pending" });
    await expectConsistent(ctx);
  });
});

describeEachDialect("daily caps", (dialect) => {
  // New accounts (younger than 7 days) are trust level 0; old enough with no record asked, level 1.
  const ctx = useTestApp(dialect, { env: { VOTE_MIN_ACCOUNT_DAYS: "7", VOTE_MIN_RECORD: "0", DAILY_CAPS: "true" } });
  const { admin, capped } = useMembers(ctx, {
    admin: ["admin-caps@example.com", "admin"],
    capped: "capped@example.com",
  });
  const songs: string[] = [];
  beforeAll(async () => {
    // 21 songs to vote on and report, written straight to the table: the caps count votes, not uploads.
    const now = new Date().toISOString();
    for (let i = 0; i < 21; i++) {
      const id = `capsong${String(i).padStart(8, "0")}`;
      await ctx.database.db
        .insertInto("song")
        .values({
          id,
          title: `Cap ${i}`,
          title_key: `cap ${i}`,
          genre: "Other",
          created_at: now,
          updated_at: now,
        })
        .execute();
      songs.push(id);
    }
  });

  it("caps a new member's votes a day, counting new votes only; admins have no cap", async () => {
    expect((await me(ctx, capped)).trust).toMatchObject({
      level: 0,
      caps: { votes: 20, reports: 5, uploads: 3, suggestions: 5 },
    });
    for (const id of songs.slice(0, 20)) expect((await vote(ctx, capped, id, { value: "up" })).statusCode).toBe(200);
    const refused = await vote(ctx, capped, songs[20] as string, { value: "up" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(dailyCapMessage("votes", 20, "in 24 hours"));
    expect(await storedNumber(ctx, "song", "upvotes", ["id", songs[20] as string])).toBe(0);
    // Changing or withdrawing a vote is not a new one.
    expect((await vote(ctx, capped, songs[0] as string, { value: "down", reason: "other" })).statusCode).toBe(200);
    expect((await vote(ctx, capped, songs[1] as string, { value: "none" })).statusCode).toBe(200);
    for (const id of songs) expect((await vote(ctx, admin, id, { value: "up" })).statusCode).toBe(200);
    expect((await me(ctx, admin)).trust.caps).toBeNull();
  });

  it("caps reports and uploads, and raises the caps with trust", async () => {
    const reporter = await member(ctx, "reporter-caps@example.com");
    const report = (id: string) =>
      ctx.app.inject({
        method: "POST",
        url: `/api/songs/${id}/reports`,
        headers: { cookie: reporter.cookie },
        payload: { reason: "other", details: "Wrong" },
      });
    for (const id of songs.slice(0, 5)) expect((await report(id)).statusCode).toBe(201);
    const refused = await report(songs[5] as string);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(dailyCapMessage("reports", 5, "in 24 hours"));

    for (let i = 0; i < 3; i++)
      expect((await upload(ctx, reporter.cookie, { title: `Up ${i}`, artists: ["Caps"] })).statusCode).toBe(201);
    const over = await upload(ctx, reporter.cookie, { title: "Up 3", artists: ["Caps"] });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toBe(dailyCapMessage("uploads", 3, "in 24 hours"));
    // A week later the member is level 1: ten uploads and ten reports a day.
    await age(ctx, reporter, 8);
    expect((await me(ctx, reporter)).trust).toMatchObject({
      level: 1,
      caps: { votes: 50, reports: 10, uploads: 10, suggestions: 10 },
    });
    expect((await upload(ctx, reporter.cookie, { title: "Up 3", artists: ["Caps"] })).statusCode).toBe(201);
    expect((await report(songs[5] as string)).statusCode).toBe(201);
  });
});

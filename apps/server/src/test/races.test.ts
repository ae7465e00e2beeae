// Races: the same write sent many times at once, through separate database connections, takes effect once.
// SQLite: worker threads, each an app with its own connection to the file (as request-worker.ts); PostgreSQL: the
// app and two sibling apps, each with its own pool. Every answer is a clean 2xx or 409, never a 5xx.
import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { createPlayTokens } from "../modules/plays/play-token.js";
import { expectConsistent } from "./consistency.js";
import { dataFiles, multipart, upload, useMembers, verify, vote, wavFile } from "./fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "./harness.js";
import { type Answer, useRacers } from "./racers.js";
import type { WorkerRequest } from "./request-worker.js";

/** Every stored counter equals the rows it counts (likes, this week's likes, reports, followers, credits). */
async function expectCountersMatchRows(ctx: TestContext): Promise<void> {
  const { db } = ctx.database;
  const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
  const songs = await sql<{ id: string }>`
    select s.id from song s
    where s.favorite_count != (select count(*) from favorite f where f.song_id = s.id)
       or s.week_likes != (select count(*) from favorite f where f.song_id = s.id and f.created_at >= ${weekAgo})
       or s.report_count != (select count(*) from report r where r.song_id = s.id)`.execute(db);
  expect(songs.rows).toEqual([]);
  const users = await sql<{ id: string }>`
    select u.id from "user" u
    where u.follower_count != (select count(*) from follow f where f.artist_id = u.id)
       or u.credit_count != (select count(*) from song_artist sa where sa.artist_id = u.id)`.execute(db);
  expect(users.rows).toEqual([]);
  await expectConsistent(ctx);
}

/** The statuses, sorted, after checking none is a 5xx and every 4xx has the JSON error body. */
function statuses(answers: Answer[]): number[] {
  for (const a of answers) {
    expect(a.statusCode, a.body).toBeLessThan(500);
    if (a.statusCode >= 400) expect(JSON.parse(a.body).error).toMatchObject({ code: expect.any(String) });
  }
  return answers.map((a) => a.statusCode).sort();
}

const count = async (ctx: TestContext, query: ReturnType<typeof sql<{ n: number | string }>>) =>
  Number((await query.execute(ctx.database.db)).rows[0]?.n);

/** Audit entries of `action` on `targetId`. */
const audits = (ctx: TestContext, action: string, targetId: string) =>
  count(ctx, sql`select count(*) as n from audit_log where action = ${action} and target_id = ${targetId}`);
/** Notifications of `kind` sent to `userId`. */
const notices = (ctx: TestContext, userId: string, kind: string) =>
  count(ctx, sql`select count(*) as n from notification where user_id = ${userId} and kind = ${kind}`);

/** How many times each race fires the same request. */
const N = 12;

describeEachDialect("races: concurrent duplicates take effect once", (dialect) => {
  // Limits out of the way: the race is under test, not the rate limiter.
  const ctx = useTestApp(dialect, { env: { AUTH_LIMIT_SCALE: "1000", VOTES_PER_MINUTE: "100000" } });
  const racers = useRacers(ctx);
  const { uploader, fan, admin, editor } = useMembers(ctx, {
    uploader: "race-up@example.com",
    fan: "race-fan@example.com",
    admin: ["race-admin@example.com", "admin"],
    editor: "race-editor@example.com",
  });
  let songId = "";
  let artistId = "";
  beforeAll(async () => {
    const res = await upload(ctx, uploader.cookie, { title: "Raced", artists: ["Race Artist"] });
    expect(res.statusCode).toBe(201);
    songId = res.json().id;
    artistId = res.json().artists[0].id;
    await verify(ctx, songId);
  });
  const same = (n: number, request: WorkerRequest) => Array.from({ length: n }, () => request);

  it("likes a song once", async () => {
    const answers = await racers.race(
      same(N, { method: "PUT", url: `/api/songs/${songId}/favorite`, headers: { cookie: fan.cookie } }),
    );
    expect(statuses(answers)).toEqual(Array(N).fill(200));
    expect(answers.every((a) => JSON.parse(a.body).isFavorite === true)).toBe(true);
    expect(await count(ctx, sql`select count(*) as n from favorite where song_id = ${songId}`)).toBe(1);
    expect(await count(ctx, sql`select favorite_count as n from song where id = ${songId}`)).toBe(1);
    await expectCountersMatchRows(ctx);
  });

  it("counts one play reported many times at once once (decision 027)", async () => {
    // Started a minute ago, as the server would have signed it: past the threshold of every song.
    const signer = createPlayTokens(ctx.config.authSecret);
    const token = signer.sign({
      songId,
      listener: signer.listener(`user:${fan.id}`),
      startedAt: Date.now() - 60_000,
    });
    const answers = await racers.race(
      same(N, {
        method: "POST",
        url: `/api/songs/${songId}/plays`,
        headers: { cookie: fan.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ token }),
      }),
    );
    expect(statuses(answers)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => JSON.parse(a.body).counted === true)).toHaveLength(1);
    expect(await count(ctx, sql`select count(*) as n from song_play where song_id = ${songId}`)).toBe(1);
    expect(await count(ctx, sql`select play_count as n from song where id = ${songId}`)).toBe(1);
    await expectCountersMatchRows(ctx);
  });

  it("follows an artist once", async () => {
    const answers = await racers.race(
      same(N, { method: "PUT", url: `/api/artists/${artistId}/follow`, headers: { cookie: fan.cookie } }),
    );
    expect(statuses(answers)).toEqual(Array(N).fill(200));
    expect(await count(ctx, sql`select count(*) as n from follow where artist_id = ${artistId}`)).toBe(1);
    expect(await count(ctx, sql`select follower_count as n from "user" where id = ${artistId}`)).toBe(1);
    await expectCountersMatchRows(ctx);
  });

  it("takes one open report per member and song", async () => {
    const answers = await racers.race(
      same(N, {
        method: "POST",
        url: `/api/songs/${songId}/reports`,
        headers: { cookie: fan.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ reason: "fake_leak", details: "same report, many times" }),
      }),
    );
    expect(statuses(answers)).toEqual([201, ...Array(N - 1).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(JSON.parse(a.body).error.message).toBe(MESSAGES.reportAlreadyOpen);
    expect(await count(ctx, sql`select count(*) as n from report where song_id = ${songId}`)).toBe(1);
    expect(await count(ctx, sql`select report_count as n from song where id = ${songId}`)).toBe(1);
    await expectCountersMatchRows(ctx);
  });

  it("keeps one waitlist entry per e-mail", async () => {
    const answers = await racers.race(
      same(N, {
        method: "POST",
        url: "/api/waitlist",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ name: "Eager", email: "eager-race@example.com" }),
      }),
    );
    expect(statuses(answers)).toEqual(Array(N).fill(200));
    expect(
      await count(ctx, sql`select count(*) as n from waitlist_entry where email = ${"eager-race@example.com"}`),
    ).toBe(1);
  });

  it("stores one of several concurrent uploads of the same title and artist, and only its file", async () => {
    const audioBefore = dataFiles(ctx.dataDir, "audio").length;
    // Different audio each time, so only the title-and-artist rule can refuse them.
    const requests = Array.from({ length: 6 }, (_, i) => {
      const body = multipart(
        { title: "Same Time", artists: "Race Artist", genre: "Pop" },
        { name: `take${i}.wav`, data: wavFile(2, `take ${i}`) },
      );
      return {
        method: "POST",
        url: "/api/songs",
        headers: { ...body.headers, cookie: uploader.cookie },
        payload: body.payload,
      };
    });
    const answers = await racers.race(requests);
    expect(statuses(answers)).toEqual([201, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(JSON.parse(a.body).error.message).toBe(MESSAGES.duplicateSong);
    expect(await count(ctx, sql`select count(*) as n from song where title_key = ${"same time"}`)).toBe(1);
    expect(dataFiles(ctx.dataDir, "audio")).toHaveLength(audioBefore + 1);
    expect(dataFiles(ctx.dataDir, "tmp")).toEqual([]);
    await expectCountersMatchRows(ctx);
  }, 60_000);

  it("applies an edit suggestion approved by several admins at once once", async () => {
    const suggested = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${songId}/edit-suggestions`,
      headers: { cookie: editor.cookie },
      payload: {
        title: "Raced (Fixed)",
        artists: ["Race Artist"],
        genre: "Pop",
        releaseDate: null,
        soundcloudUrl: null,
        reason: "typo",
      },
    });
    expect(suggested.statusCode).toBe(201);
    const suggestionId = suggested.json().id as string;
    const versionBefore = await count(ctx, sql`select version as n from song where id = ${songId}`);
    const answers = await racers.race(
      same(8, {
        method: "POST",
        url: `/api/edit-suggestions/${suggestionId}/review`,
        headers: { cookie: admin.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ action: "approve" }),
      }),
    );
    expect(statuses(answers)).toEqual([200, ...Array(7).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(JSON.parse(a.body).error.message).toBe(MESSAGES.suggestionAlreadyReviewed);
    expect(await count(ctx, sql`select version as n from song where id = ${songId}`)).toBe(versionBefore + 1);
    expect(await count(ctx, sql`select count(*) as n from song_history where song_id = ${songId}`)).toBe(1);
    expect(await audits(ctx, "suggestion.approved", suggestionId)).toBe(1);
    expect(await notices(ctx, editor.id, "suggestion_processed")).toBe(1);
    await expectCountersMatchRows(ctx);
  });

  it("processes a report handled by several admins at once once", async () => {
    const song = await upload(ctx, uploader.cookie, { title: "Fake Or Not", artists: ["Race Artist"] });
    const id = song.json().id as string;
    expect((await vote(ctx, editor.cookie, id, "up")).statusCode).toBe(200);
    const reported = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/reports`,
      headers: { cookie: fan.cookie },
      payload: { reason: "fake_leak", details: "not theirs" },
    });
    expect(reported.statusCode).toBe(201);
    const report = await ctx.database.db
      .selectFrom("report")
      .select("id")
      .where("song_id", "=", id)
      .executeTakeFirstOrThrow();
    const answers = await racers.race(
      same(8, {
        method: "POST",
        url: `/api/reports/${report.id}/process`,
        headers: { cookie: admin.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ action: "resolve" }),
      }),
    );
    expect(statuses(answers)).toEqual([200, ...Array(7).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(JSON.parse(a.body).error.message).toBe(MESSAGES.reportAlreadyProcessed);
    expect(await audits(ctx, "report.resolved", report.id)).toBe(1);
    expect(await notices(ctx, fan.id, "report_processed")).toBe(1);
    await expectCountersMatchRows(ctx);
  });
});

// Issue 24 (finding 9): a new member capped at 3 uploads a day got 6 of 12 parallel uploads through, because the
// cap was judged before the decode and outside the insert's transaction. Every daily cap (uploads, votes, reports)
// is judged inside the transaction that inserts the row, serialised per member (BEGIN IMMEDIATE on SQLite, an
// advisory lock on PostgreSQL): sent in parallel over separate connections, exactly the cap goes through.
import { dailyCapMessage } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { multipart, useMembers, wavFile } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { type Answer, useRacers } from "../../test/racers.js";

/** How many answers have each status; no 5xx. */
function tally(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) {
    expect(a.statusCode, a.body).toBeLessThan(500);
    out[a.statusCode] = (out[a.statusCode] ?? 0) + 1;
  }
  return out;
}

const count = async (ctx: TestContext, query: ReturnType<typeof sql<{ n: number | string }>>) =>
  Number((await query.execute(ctx.database.db)).rows[0]?.n);

describeEachDialect("daily caps hold under concurrency (issue 24)", (dialect) => {
  // Caps on at their defaults: a new account (under 7 days) is trust level 0: 3 uploads, 20 votes, 5 reports.
  const ctx = useTestApp(dialect, {
    env: {
      VOTE_MIN_ACCOUNT_DAYS: "7",
      VOTE_MIN_RECORD: "0",
      DAILY_CAPS: "true",
      VOTES_PER_MINUTE: "100000",
      AUTH_LIMIT_SCALE: "1000",
      // Every upload waits for a decoding thread rather than being answered busy: the cap is under test.
      AUDIO_QUEUE: "100",
    },
  });
  // The suite's app plus one sibling app (PostgreSQL) or two worker threads (SQLite).
  const lanes = useRacers(ctx, { siblings: 1, threads: 2 });
  const users = useMembers(ctx, {
    uploader: "cap-race-up@example.com",
    voter: "cap-race-voter@example.com",
    reporter: "cap-race-reporter@example.com",
  });
  const songs: string[] = [];
  beforeAll(async () => {
    // Songs to vote on and report, written straight to the table: the caps count votes and reports, not uploads.
    const now = new Date().toISOString();
    for (let i = 0; i < 30; i++) {
      const id = `capracesong${String(i).padStart(6, "0")}`;
      await ctx.database.db
        .insertInto("song")
        .values({
          id,
          title: `Cap Race ${i}`,
          title_key: `cap race ${i}`,
          genre: "Other",
          created_at: now,
          updated_at: now,
        })
        .execute();
      songs.push(id);
    }
  });

  it("uploads: 12 in parallel from a member capped at 3 store exactly 3", async () => {
    const requests = Array.from({ length: 12 }, (_, i) => {
      const body = multipart(
        { title: `Raced Upload ${i}`, artists: ["Cap Racer"], genre: "Pop" },
        { name: "song.wav", data: wavFile(2, `raced upload ${i}`) },
      );
      return {
        method: "POST",
        url: "/api/songs",
        headers: { ...body.headers, cookie: users.uploader.cookie },
        payload: body.payload,
      };
    });
    const answers = await lanes.race(requests);
    expect(tally(answers)).toEqual({ 201: 3, 429: 9 });
    const refused = answers.find((a) => a.statusCode === 429);
    expect(JSON.parse(refused?.body ?? "{}").error.message).toBe(dailyCapMessage("uploads", 3, "in 24 hours"));
    expect(await count(ctx, sql`select count(*) as n from song where submitted_by = ${users.uploader.id}`)).toBe(3);
  }, 120_000);

  it("votes: 30 new votes in parallel from a member capped at 20 store exactly 20", async () => {
    const answers = await lanes.race(
      songs.map((id) => ({
        method: "PUT",
        url: `/api/songs/${id}/vote`,
        headers: { cookie: users.voter.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ value: "up" }),
      })),
    );
    expect(tally(answers)).toEqual({ 200: 20, 429: 10 });
    expect(await count(ctx, sql`select count(*) as n from vote where user_id = ${users.voter.id}`)).toBe(20);
  }, 60_000);

  it("reports: 12 in parallel from a member capped at 5 store exactly 5", async () => {
    const answers = await lanes.race(
      songs.slice(0, 12).map((id) => ({
        method: "POST",
        url: `/api/songs/${id}/reports`,
        headers: { cookie: users.reporter.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ reason: "other", details: "Raced" }),
      })),
    );
    expect(tally(answers)).toEqual({ 201: 5, 429: 7 });
    expect(await count(ctx, sql`select count(*) as n from report where user_id = ${users.reporter.id}`)).toBe(5);
  }, 60_000);
});

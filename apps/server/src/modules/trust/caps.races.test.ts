// Issue 24 (finding 9): a new member capped at 3 uploads a day got 6 of 12 parallel uploads through, because the
// cap was judged before the decode and outside the insert's transaction. Every daily cap (uploads, votes, reports)
// is judged inside the transaction that inserts the row, serialised per member (BEGIN IMMEDIATE on SQLite, an
// advisory lock on PostgreSQL): sent in parallel over separate connections, exactly the cap goes through.
import { Worker } from "node:worker_threads";
import { dailyCapMessage } from "@unheard/shared";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { App } from "../../http.js";
import { multipart, useMembers, wavFile } from "../../test/fixtures.js";
import { createSiblingApp, describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import type { WorkerReply, WorkerRequest } from "../../test/request-worker.js";

type Answer = { statusCode: number; body: string };

/**
 * Requests fired at once over separate connections: the suite's app plus, on SQLite, two worker threads with their
 * own connection to the file (as other server processes), on PostgreSQL a sibling app with its own pool.
 */
function useLanes(ctx: TestContext): { race(requests: WorkerRequest[]): Promise<Answer[]> } {
  const apps: App[] = [];
  const siblings: { close(): Promise<void> }[] = [];
  const workers: { worker: Worker; send(requests: WorkerRequest[]): Promise<Answer[]> }[] = [];
  beforeAll(async () => {
    apps.push(ctx.app);
    if (ctx.database.dialect === "postgres") {
      const sibling = await createSiblingApp(ctx);
      siblings.push(sibling);
      apps.push(sibling.app);
      return;
    }
    for (let i = 0; i < 2; i++) {
      const worker = new Worker(new URL("../../test/ts-worker.mjs", import.meta.url), {
        workerData: {
          entry: new URL("../../test/request-worker.ts", import.meta.url).href,
          file: ctx.file,
          dataDir: ctx.dataDir,
          env: ctx.env,
        },
      });
      const pending = new Map<number, (answers: Answer[]) => void>();
      let next = 0;
      await new Promise<void>((resolve, reject) => {
        worker.on("message", (reply: WorkerReply) => {
          if ("ready" in reply) resolve();
          else pending.get(reply.id)?.(reply.results);
        });
        worker.once("error", reject);
      });
      workers.push({
        worker,
        send: (requests) =>
          new Promise((resolve) => {
            const id = next++;
            pending.set(id, resolve);
            worker.postMessage({ id, requests });
          }),
      });
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of siblings) await s.close();
    for (const w of workers) await w.worker.terminate();
  });
  return {
    async race(requests) {
      const lanes = apps.length + workers.length;
      const answers: Answer[] = new Array(requests.length);
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          const items = requests.map((r, i) => ({ r, i })).filter(({ i }) => i % lanes === lane);
          const app = apps[lane];
          const got = app
            ? await Promise.all(
                items.map(async ({ r }) => {
                  const res = await app.inject({
                    method: r.method as "GET",
                    url: r.url,
                    headers: r.headers ?? {},
                    ...(r.payload !== undefined ? { payload: r.payload as string } : {}),
                  });
                  return { statusCode: res.statusCode, body: res.body };
                }),
              )
            : await (workers[lane - apps.length]?.send(items.map(({ r }) => r)) ?? []);
          items.forEach(({ i }, k) => {
            answers[i] = got[k] as Answer;
          });
        }),
      );
      return answers;
    },
  };
}

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
  const lanes = useLanes(ctx);
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

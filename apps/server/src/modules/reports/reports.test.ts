import { MESSAGES, REPORTS_PER_MINUTE } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { insertVerifiedSongs } from "../../test/export-fixtures.js";
import { getMe, member, storedNumber, type User, upload, useOwnerFanAdmin, verify } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

describeEachDialect("reports", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, fan: reporter, admin } = useOwnerFanAdmin(ctx, "r");
  let songId: string;
  beforeAll(async () => {
    songId = (await upload(ctx, owner.cookie, { title: "Reported", artists: ["Rep"] })).json().id;
    await verify(ctx, songId);
  });

  const report = (u: User | undefined, id: string, payload: object) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/reports`,
      headers: u ? { cookie: u.cookie } : {},
      payload,
    });

  it("files one open report per user and song, counting it on the song", async () => {
    const res = await report(reporter, songId, { reason: "fake_leak", details: "  AI voice  " });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(MESSAGES.reportSent);
    const again = await report(reporter, songId, { reason: "duplicate" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MESSAGES.reportAlreadyOpen);
    const row = await ctx.database.db
      .selectFrom("report")
      .selectAll()
      .where("song_id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reason: "fake_leak",
      details: "AI voice",
      status: "pending",
      processed_at: null,
      processed_by: null,
    });
    expect(await storedNumber(ctx, "song", "report_count", ["id", songId])).toBe(1);
  });

  it("refuses reports without sign-in, reason, song, or on one's own song", async () => {
    const visitor = await report(undefined, songId, { reason: "other" });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe(MESSAGES.loginToReport);
    const noReason = await report(owner, songId, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.message).toBe(MESSAGES.reportReasonRequired);
    expect((await report(reporter, "missing", { reason: "other" })).json().error.message).toBe(MESSAGES.songNotFound);
    const own = await report(owner, songId, { reason: "other" });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(MESSAGES.reportOwnSong);
  });

  it("lets admins resolve or reject, recording who and when, once", async () => {
    const list = (
      await ctx.app.inject({ method: "GET", url: "/api/reports", headers: { cookie: admin.cookie } })
    ).json();
    expect(list.items).toEqual([
      expect.objectContaining({
        songId,
        songTitle: "Reported",
        reason: "fake_leak",
        details: "AI voice",
        reporter: { id: reporter.id, username: (await getMe(ctx, reporter.cookie)).json().username },
      }),
    ]);
    const id = list.items[0].id;
    const res = await ctx.app.inject({
      method: "POST",
      url: `/api/reports/${id}/process`,
      headers: { cookie: admin.cookie },
      payload: { action: "resolve" },
    });
    expect(res.json()).toEqual({ ok: true, message: MESSAGES.reportResolved });
    const row = await ctx.database.db.selectFrom("report").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("resolved");
    expect(row.processed_by).toBe(admin.id);
    expect(row.processed_at).not.toBeNull();
    const twice = { method: "POST", url: `/api/reports/${id}/process`, payload: { action: "reject" } } as const;
    expect((await ctx.app.inject({ ...twice, headers: { cookie: admin.cookie } })).statusCode).toBe(409);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/reports", headers: { cookie: admin.cookie } })).json().items,
    ).toEqual([]);
    // An upheld fake-leak report marks the song as fake and hides it (decision 015; the trust suite covers the points).
    const song = await ctx.database.db
      .selectFrom("song")
      .select(["is_hidden", "fake_by"])
      .where("id", "=", songId)
      .executeTakeFirstOrThrow();
    expect({ hidden: Boolean(song.is_hidden), by: song.fake_by }).toEqual({ hidden: true, by: admin.id });
    await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${songId}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: false },
    });
    // A closed report lets the user report again.
    expect((await report(reporter, songId, { reason: "duplicate" })).statusCode).toBe(201);
    const log = await ctx.database.db.selectFrom("audit_log").selectAll().where("target_id", "=", id).execute();
    expect(log.map((l) => [l.action, l.actor_id])).toEqual([["report.resolved", admin.id]]);
  });

  it("hides a song from every list and shows it only to admins", async () => {
    const hide = await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${songId}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: true },
    });
    expect(hide.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: reporter.cookie } }))
        .statusCode,
    ).toBe(404);
    const asAdmin = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: admin.cookie } })
    ).json();
    expect(asAdmin.isHidden).toBe(true);
    const feed = (await ctx.app.inject({ method: "GET", url: "/api/songs" })).json();
    expect(feed.items.map((s: { id: string }) => s.id)).not.toContain(songId);
    expect((await ctx.app.inject({ method: "GET", url: "/api/search?q=reported" })).json().songs).toEqual([]);
    await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${songId}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: false },
    });
    // Shown again to members (the upheld fake-leak report above sent it back to pending, which visitors never see).
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: reporter.cookie } }))
        .statusCode,
    ).toBe(200);
  });

  // Issue 24: the queue showed the oldest 500 reports, so a report filed after a flood never appeared.
  it("pages the admin queue through every pending report, oldest first, and a late one appears", async () => {
    const { db } = ctx.database;
    const songs = await insertVerifiedSongs(db, 120, { prefix: "rq", artists: 1 });
    // Many at one instant: the id orders them, and no page may skip or repeat one.
    const at = "2020-01-01T00:00:00.000Z";
    await db
      .insertInto("report")
      .values(
        songs.map((song_id, i) => ({
          id: `rqreport${String(i).padStart(4, "0")}`,
          song_id,
          user_id: reporter.id,
          reason: "duplicate",
          details: "",
          created_at: at,
        })),
      )
      .execute();
    const late = await upload(ctx, owner.cookie, { title: "Late Report", artists: ["Late"] });
    await verify(ctx, late.json().id);
    const lateFiler = await member(ctx, "late-r@example.com");
    expect((await report(lateFiler, late.json().id, { reason: "wrong_title" })).statusCode).toBe(201);
    const pending = await db.selectFrom("report").select("id").where("status", "=", "pending").execute();
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url = `/api/reports?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await ctx.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { items: { id: string }[]; nextCursor: string | null; total: number };
      expect(page.items.length).toBeLessThanOrEqual(50);
      expect(page.total).toBe(pending.length);
      ids.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(pending.map((p) => p.id).sort());
    const lateRow = await db
      .selectFrom("report")
      .select("id")
      .where("user_id", "=", lateFiler.id)
      .executeTakeFirstOrThrow();
    expect(ids.at(-1)).toBe(lateRow.id);
  });
});

// Issue 24: reports, like edit suggestions, are limited per minute whatever the member's daily cap.
describeEachDialect("reports per minute", (dialect) => {
  const ctx = useTestApp(dialect, { env: { REPORTS_PER_MINUTE: String(REPORTS_PER_MINUTE) } });

  it(`holds a member to ${REPORTS_PER_MINUTE} reports a minute, with a clear message; admins are not held`, async () => {
    const flooder = await member(ctx, "flooder-r@example.com");
    const boss = await member(ctx, "boss-r@example.com", "admin");
    const songs = await insertVerifiedSongs(ctx.database.db, REPORTS_PER_MINUTE + 3, { prefix: "rflood", artists: 1 });
    const file = (u: User, id: string) =>
      ctx.app.inject({
        method: "POST",
        url: `/api/songs/${id}/reports`,
        headers: { cookie: u.cookie },
        payload: { reason: "duplicate" },
      });
    const answers = [];
    for (const id of songs) answers.push(await file(flooder, id));
    expect(answers.map((a) => a.statusCode)).toEqual([...Array(REPORTS_PER_MINUTE).fill(201), ...Array(3).fill(429)]);
    expect(answers.at(-1)?.json().error.message).toBe(MESSAGES.tooManyReports);
    const made = await ctx.database.db.selectFrom("report").select("id").where("user_id", "=", flooder.id).execute();
    expect(made).toHaveLength(REPORTS_PER_MINUTE);
    for (const id of songs) expect((await file(boss, id)).statusCode).toBe(201);
  });
});

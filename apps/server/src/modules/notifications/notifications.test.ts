import { expect, it } from "vitest";
import { everyKind, member, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, outboxFor, useTestApp } from "../../test/harness.js";

describeEachDialect("notifications", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up, fan } = useMembers(ctx, { up: "up-n@example.com", fan: "fan-n@example.com" });

  const list = async (u: User) =>
    (await ctx.app.inject({ method: "GET", url: "/api/notifications", headers: { cookie: u.cookie } })).json();

  it("tells followers about a new song, and stakeholders when it is verified or returns to pending", async () => {
    const first = (await upload(ctx, up.cookie, { title: "Notify One", artists: ["Bell Artist"] })).json();
    const artistId = first.artists[0].id;
    await ctx.app.inject({ method: "PUT", url: `/api/artists/${artistId}/follow`, headers: { cookie: fan.cookie } });
    const second = (await upload(ctx, up.cookie, { title: "Notify Two", artists: ["Bell Artist"] })).json();
    let page = await list(fan);
    expect(page.unread).toBe(1);
    expect(page.items[0]).toMatchObject({
      kind: "new_song",
      read: false,
      payload: { songId: second.id, songTitle: "Notify Two", artists: ["Bell Artist"] },
    });

    const voters: User[] = [];
    for (let i = 0; i < 3; i++) voters.push(await member(ctx, `voter-n${i}@example.com`));
    await ctx.app.inject({ method: "PUT", url: `/api/songs/${second.id}/favorite`, headers: { cookie: fan.cookie } });
    for (const v of voters)
      await ctx.app.inject({
        method: "PUT",
        url: `/api/songs/${second.id}/vote`,
        headers: { cookie: v.cookie },
        payload: { value: "up" },
      });
    const upPage = await list(up);
    expect(upPage.items.map((n: { kind: string }) => n.kind)).toContain("song_verified");
    page = await list(fan);
    expect(page.items[0]).toMatchObject({ kind: "song_verified", payload: { songId: second.id } });
    // The voter whose vote verified it is not told about their own action; the earlier voters are.
    expect((await list(voters[2] as User)).items).toEqual([]);
    expect((await list(voters[0] as User)).items.map((n: { kind: string }) => n.kind)).toEqual(["song_verified"]);
    await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${second.id}/vote`,
      headers: { cookie: voters[0]?.cookie ?? "" },
      payload: { value: "none" },
    });
    expect((await list(fan)).items[0].kind).toBe("song_unverified");
  });

  it("marks one or all as read", async () => {
    const page = await list(fan);
    const res = await ctx.app.inject({
      method: "POST",
      url: `/api/notifications/${page.items[0].id}/read`,
      headers: { cookie: fan.cookie },
    });
    expect(res.json().unread).toBe(page.unread - 1);
    const all = await ctx.app.inject({
      method: "POST",
      url: "/api/notifications/all/read",
      headers: { cookie: fan.cookie },
    });
    expect(all.json().unread).toBe(0);
    expect((await list(fan)).items.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it("respects each user's settings per kind", async () => {
    const settings = (
      await ctx.app.inject({ method: "GET", url: "/api/me/notification-settings", headers: { cookie: fan.cookie } })
    ).json();
    expect(settings).toEqual(everyKind(false));
    const saved = await ctx.app.inject({
      method: "PUT",
      url: "/api/me/notification-settings",
      headers: { cookie: fan.cookie },
      payload: { kinds: { ...settings.kinds, new_song: false }, emailDigest: true },
    });
    expect(saved.json().kinds.new_song).toBe(false);
    const before = (await list(fan)).items.length;
    await upload(ctx, up.cookie, { title: "Notify Three", artists: ["Bell Artist"] });
    expect((await list(fan)).items.length).toBe(before);
  });

  it("tells reporters and suggesters when an admin processes their report or suggestion", async () => {
    const admin = await member(ctx, "adm-n@example.com", "admin");
    const song = (await upload(ctx, up.cookie, { title: "Notify Four", artists: ["Other Bell"] })).json();
    await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${song.id}/reports`,
      headers: { cookie: fan.cookie },
      payload: { reason: "duplicate" },
    });
    const report = (
      await ctx.app.inject({ method: "GET", url: "/api/reports", headers: { cookie: admin.cookie } })
    ).json().items[0];
    await ctx.app.inject({
      method: "POST",
      url: `/api/reports/${report.id}/process`,
      headers: { cookie: admin.cookie },
      payload: { action: "reject" },
    });
    expect((await list(fan)).items[0]).toMatchObject({
      kind: "report_processed",
      payload: { songTitle: "Notify Four", status: "rejected" },
    });
    const sid = (
      await ctx.app.inject({
        method: "POST",
        url: `/api/songs/${song.id}/edit-suggestions`,
        headers: { cookie: fan.cookie },
        payload: { title: "Notify Four (fixed)", artists: ["Other Bell"], genre: "Pop", reason: "typo" },
      })
    ).json().id;
    await ctx.app.inject({
      method: "POST",
      url: `/api/edit-suggestions/${sid}/review`,
      headers: { cookie: admin.cookie },
      payload: { action: "approve" },
    });
    expect((await list(fan)).items[0]).toMatchObject({ kind: "suggestion_processed", payload: { status: "approved" } });
  });

  it("mails the daily digest once a day to users who turned it on", async () => {
    const { createNotifier } = await import("./notifications.service.js");
    const { createEventBus } = await import("../../lib/events.js");
    const { createMailer } = await import("../../lib/mail.js");
    const log = ctx.app.log;
    const bus = await createEventBus(ctx.database, { url: ctx.database.url, log });
    const mailer = createMailer({ smtpUrl: undefined, from: "x <x@x.x>", dataDir: ctx.dataDir, log });
    const notifier = createNotifier({ database: ctx.database, bus, mailer, config: ctx.config, log });
    try {
      const sent = await notifier.sendDigests();
      expect(sent).toBe(1);
      const mails = outboxFor(ctx.dataDir, "fan-n@example.com");
      expect(mails.at(-1)).toContain("Subject: Unheard:");
      expect(mails.at(-1)).toContain("Notify Four");
      expect(await notifier.sendDigests()).toBe(0);
      // The uploader did not ask for a digest (their only mail is the verification e-mail).
      expect(outboxFor(ctx.dataDir, "up-n@example.com").filter((m) => m.includes("Subject: Unheard:"))).toHaveLength(0);
      expect(await notifier.sendDigests(new Date(Date.now() + 25 * 3600 * 1000))).toBe(0);
    } finally {
      await bus.close();
    }
  });
});

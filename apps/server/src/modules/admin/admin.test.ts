import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { member, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

describeEachDialect("admin roles and audit", (dialect) => {
  const ctx = useTestApp(dialect);
  const { boss, admin, user } = useMembers(ctx, {
    boss: ["boss-a@example.com", "super_admin"],
    admin: ["admin-a@example.com", "admin"],
    user: "user-a@example.com",
  });

  const setRole = (as: User, id: string, role: string) =>
    ctx.app.inject({
      method: "PUT",
      url: `/api/admin/users/${id}/role`,
      headers: { cookie: as.cookie },
      payload: { role },
    });
  const roleOf = async (id: string) =>
    (await ctx.database.db.selectFrom("user").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;

  it("lets a super admin grant and take back admin and contributor roles", async () => {
    expect((await setRole(boss, user.id, "admin")).json().message).toBe(MESSAGES.roleUpdated);
    expect(await roleOf(user.id)).toBe("admin");
    expect(
      await ctx.database.db.selectFrom("admin").select("user_id").where("user_id", "=", user.id).executeTakeFirst(),
    ).toBeDefined();
    expect((await setRole(boss, user.id, "verified_contributor")).statusCode).toBe(200);
    expect(await roleOf(user.id)).toBe("verified_contributor");
    expect(
      await ctx.database.db.selectFrom("admin").select("user_id").where("user_id", "=", user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await setRole(boss, user.id, "user")).statusCode).toBe(200);
  });

  it("lets admins grant only contributor status, and nobody touch a super admin or themselves", async () => {
    expect((await setRole(admin, user.id, "verified_contributor")).statusCode).toBe(200);
    const grantAdmin = await setRole(admin, user.id, "admin");
    expect(grantAdmin.statusCode).toBe(403);
    expect(grantAdmin.json().error.message).toBe(MESSAGES.roleNotAllowed);
    expect(await roleOf(user.id)).toBe("verified_contributor");
    expect((await setRole(admin, boss.id, "user")).statusCode).toBe(403);
    expect((await setRole(boss, boss.id, "user")).statusCode).toBe(403);
    expect((await setRole(boss, admin.id, "super_admin" as string)).statusCode).toBe(400);
    expect(await roleOf(boss.id)).toBe("super_admin");
  });

  it("logs every moderation action for super admins", async () => {
    const song = (await upload(ctx, user.cookie, { title: "Audited", artists: ["Aud"] })).json().id;
    await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${song}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: true },
    });
    await ctx.app.inject({ method: "POST", url: `/api/songs/${song}/verify`, headers: { cookie: admin.cookie } });
    await ctx.app.inject({ method: "DELETE", url: `/api/songs/${song}`, headers: { cookie: boss.cookie } });
    const log = (
      await ctx.app.inject({ method: "GET", url: "/api/admin/audit", headers: { cookie: boss.cookie } })
    ).json().items;
    const actions = log.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["user.role_changed", "song.hidden", "song.verified", "song.deleted"]),
    );
    expect(log.find((e: { action: string }) => e.action === "song.deleted")).toMatchObject({
      actor: { id: boss.id },
      targetId: song,
      targetLabel: "Audited",
    });
    // The target reads as the member's handle (a neutral one since issue 24, never the e-mail's local part).
    const { username } = await ctx.database.db
      .selectFrom("user")
      .select("username")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(log.find((e: { action: string }) => e.action === "user.role_changed")?.targetLabel).toBe(username);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/admin/audit", headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(403);
  });

  it("finds users by name or e-mail", async () => {
    const res = (
      await ctx.app.inject({ method: "GET", url: "/api/admin/users?q=user-a", headers: { cookie: admin.cookie } })
    ).json();
    expect(res.items.map((u: { email: string }) => u.email)).toEqual(["user-a@example.com"]);
  });
});

/** Every admin endpoint, with a body that would succeed for an entitled caller. */
function adminEndpoints(ids: { song: string; report: string; suggestion: string; entry: string; user: string }) {
  return [
    { method: "GET", url: "/api/reports", level: "admin" },
    { method: "POST", url: `/api/reports/${ids.report}/process`, payload: { action: "resolve" }, level: "admin" },
    { method: "PUT", url: `/api/songs/${ids.song}/hidden`, payload: { hidden: true }, level: "admin" },
    { method: "GET", url: "/api/edit-suggestions", level: "admin" },
    {
      method: "POST",
      url: `/api/edit-suggestions/${ids.suggestion}/review`,
      payload: { action: "approve" },
      level: "admin",
    },
    { method: "GET", url: "/api/admin/waitlist", level: "admin" },
    { method: "POST", url: `/api/admin/waitlist/${ids.entry}/approve`, level: "admin" },
    { method: "POST", url: `/api/admin/users/${ids.user}/approve`, level: "admin" },
    { method: "GET", url: "/api/admin/users", level: "admin" },
    {
      method: "PUT",
      url: `/api/admin/users/${ids.user}/role`,
      payload: { role: "verified_contributor" },
      level: "admin",
    },
    { method: "POST", url: `/api/songs/${ids.song}/verify`, level: "admin" },
    { method: "GET", url: "/api/admin/audit", level: "super" },
    { method: "POST", url: "/api/songs/verify-all", level: "super" },
    { method: "DELETE", url: `/api/songs/${ids.song}`, level: "super" },
  ] as const;
}

describeEachDialect("admin endpoints refuse the unentitled", (dialect) => {
  const ctx = useTestApp(dialect);

  /** A fingerprint of every table's content that moderation can touch. */
  async function snapshot(): Promise<string> {
    const parts: string[] = [];
    for (const table of [
      "song",
      "report",
      "edit_suggestion",
      "waitlist_entry",
      "waitlist_approval",
      "user",
      "admin",
      "audit_log",
      "song_history",
    ]) {
      const rows = await sql.raw(`select * from "${table}" order by 1`).execute(ctx.database.db);
      parts.push(JSON.stringify(rows.rows));
    }
    return parts.join("\n");
  }

  it("answers 401 to visitors and 403 to members (and admins for super-admin endpoints), changing nothing", async () => {
    const owner = await member(ctx, "owner-p@example.com");
    const plain = await member(ctx, "plain-p@example.com");
    const contributor = await member(ctx, "vc-p@example.com", "verified_contributor");
    const admin = await member(ctx, "admin-p@example.com", "admin");
    const song = (await upload(ctx, owner.cookie, { title: "Guarded", artists: ["Guard"] })).json().id;
    await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${song}/reports`,
      headers: { cookie: plain.cookie },
      payload: { reason: "other" },
    });
    const report = (await ctx.database.db.selectFrom("report").select("id").executeTakeFirstOrThrow()).id;
    const suggestion = (
      await ctx.app.inject({
        method: "POST",
        url: `/api/songs/${song}/edit-suggestions`,
        headers: { cookie: plain.cookie },
        payload: { title: "G2", artists: ["Guard"], genre: "Pop", reason: "r" },
      })
    ).json().id;
    await ctx.app.inject({ method: "POST", url: "/api/waitlist", payload: { name: "W", email: "w@example.com" } });
    const entry = (await ctx.database.db.selectFrom("waitlist_entry").select("id").executeTakeFirstOrThrow()).id;
    const endpoints = adminEndpoints({ song, report, suggestion, entry, user: plain.id });
    const before = await snapshot();
    for (const e of endpoints) {
      const call = (cookie?: string) =>
        ctx.app.inject({
          method: e.method,
          url: e.url,
          headers: cookie ? { cookie } : {},
          ...("payload" in e ? { payload: e.payload } : {}),
        });
      expect((await call()).statusCode, `${e.method} ${e.url} as visitor`).toBe(401);
      expect((await call(plain.cookie)).statusCode, `${e.method} ${e.url} as user`).toBe(403);
      expect((await call(contributor.cookie)).statusCode, `${e.method} ${e.url} as contributor`).toBe(403);
      if (e.level === "super") expect((await call(admin.cookie)).statusCode, `${e.method} ${e.url} as admin`).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });
});

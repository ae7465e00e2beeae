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
    // Issue 25: an artist target read "user <id>"; it is named, and marked as an artist for its link.
    const aud = await ctx.database.db
      .selectFrom("user")
      .select("id")
      .where("username", "=", "Aud")
      .where("is_artist", "=", true)
      .executeTakeFirstOrThrow();
    const verifiedArtist = await ctx.app.inject({
      method: "PUT",
      url: `/api/admin/artists/${aud.id}/verified`,
      headers: { cookie: boss.cookie },
      payload: { verified: true },
    });
    expect(verifiedArtist.statusCode, verifiedArtist.body).toBe(200);
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
    expect(log.find((e: { action: string }) => e.action === "user.role_changed")).toMatchObject({
      targetLabel: username,
      targetIsArtist: false,
    });
    expect(log.find((e: { action: string }) => e.action === "artist.verified")).toMatchObject({
      targetId: aud.id,
      targetLabel: "Aud",
      targetIsArtist: true,
    });
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/admin/audit", headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(403);
  });

  // Issue 24: the audit log showed the newest 200 entries only, so a busy spell hid everything before it. It pages
  // newest first (50 by default) with a keyset cursor to its oldest entry.
  it("pages the audit log newest first through every entry, and a late one appears on top", async () => {
    const { db } = ctx.database;
    type Page = { items: { id: string; createdAt: string }[]; nextCursor: string | null; total: number };
    const read = (query = "") =>
      ctx.app.inject({ method: "GET", url: `/api/admin/audit${query}`, headers: { cookie: boss.cookie } });
    // Many at one instant: the id orders them, and no page may skip or repeat one.
    const at = "2020-01-01T00:00:00.000Z";
    await db
      .insertInto("audit_log")
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          id: `auflood${String(i).padStart(4, "0")}`,
          actor_id: admin.id,
          action: "song.hidden",
          target_type: "song",
          target_id: null,
          details: "{}",
          created_at: at,
        })),
      )
      .execute();
    const stored = await db.selectFrom("audit_log").select("id").execute();
    const first = (await read()).json() as Page;
    expect(first.items).toHaveLength(50);
    expect(first.total).toBe(stored.length);
    const ids: string[] = [];
    const times: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await read(`?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      expect(page.items.length).toBeLessThanOrEqual(50);
      ids.push(...page.items.map((e) => e.id));
      times.push(...page.items.map((e) => e.createdAt));
      cursor = page.nextCursor;
      pages++;
      // An action taken while the log is read: the pages still to come neither skip nor repeat an entry for it.
      if (pages === 1) {
        const next = (await roleOf(user.id)) === "user" ? "verified_contributor" : "user";
        expect((await setRole(boss, user.id, next)).json().message).toBe(MESSAGES.roleUpdated);
      }
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(stored.map((e) => e.id).sort());
    expect(times).toEqual([...times].sort().reverse());
    // The flood, oldest of all, comes last, by id descending at its one instant.
    expect(ids.slice(-120)).toEqual(
      stored
        .map((e) => e.id)
        .filter((id) => id.startsWith("auflood"))
        .sort()
        .reverse(),
    );
    // The late action heads the next first page, which counts it.
    const fresh = (await read()).json() as Page & { items: { action: string; actor: { id: string } | null }[] };
    expect(fresh.total).toBe(stored.length + 1);
    expect(fresh.items[0]).toMatchObject({ action: "user.role_changed", actor: { id: boss.id }, targetId: user.id });
    expect(stored.map((e) => e.id)).not.toContain(fresh.items[0]?.id);
    // A crafted cursor is a clear 400, never a 5xx.
    const crafted = Buffer.from(JSON.stringify({ createdAt: at, id: "' or 1=1 --" })).toString("base64url");
    const bad = await read(`?cursor=${crafted}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MESSAGES.invalidCursor);
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

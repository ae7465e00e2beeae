import http from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_PERMISSIONS, type AdminPermission } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids.js";
import { nameKey } from "../lib/text.js";
import { nowIso } from "../lib/time.js";
import { everyKind, grantAdmin, member, upload, verify } from "./fixtures.js";
import { describeEachDialect, sessionCookie, signUp, useTestApp } from "./harness.js";
import {
  isMatrixRoute,
  MATRIX_ROLES,
  type MatrixFixtures,
  type MatrixRequest,
  type MatrixRole,
  PERMISSION_MATRIX,
} from "./permission-matrix.js";
import { changedTables, snapshotTables, tableNames } from "./table-snapshot.js";

const PASSWORD = "secret123";
/** Rate-limit counters count attempts, refused ones included: that is their job, so they may change on a 4xx. */
const UNSNAPSHOTTED = new Set(["rate_limit"]);
/** The columns of a user that no endpoint lets the user set for themselves. */
const PRIVILEGED = ["role", "points", "is_verified", "email_verified", "off_waitlist", "votes_discounted"] as const;

type SignedInRole = Exclude<MatrixRole, "visitor">;
const emailOf = (role: MatrixRole) => `perm-${role === "visitor" ? "spare" : role}@example.com`;

describeEachDialect("permission matrix", (dialect) => {
  // Auth limits scaled up: the matrix signs in and registers far more often than a person would.
  const ctx = useTestApp(dialect, {
    env: { AUTH_LIMIT_SCALE: "1000", VOTES_PER_MINUTE: "1000", SUGGESTIONS_PER_MINUTE: "1000" },
  });
  const cookies = {} as Record<SignedInRole, string>;
  const userIds = {} as Record<SignedInRole, string>;
  const ids = { song: "", pendingSong: "", hiddenSong: "", artist: "", owner: "" };
  /** Per permission, the cookie of an admin holding every permission but that one. */
  const lacking = {} as Record<AdminPermission, string>;
  let tables: string[] = [];
  let port = 0;
  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${dialect} ${++counter}`;

  async function login(email: string): Promise<string> {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`login of ${email} failed: ${res.body}`);
    return sessionCookie(res);
  }

  async function insertUser(opts: { placeholderArtist?: boolean; held?: boolean } = {}): Promise<string> {
    const id = newId();
    const username = unique(opts.placeholderArtist ? "Placeholder" : "Target");
    const now = nowIso();
    await ctx.database.db
      .insertInto("user")
      .values({
        id,
        name: username,
        email: `${id.toLowerCase()}@example.com`,
        email_verified: !opts.placeholderArtist,
        created_at: now,
        updated_at: now,
        username,
        username_key: nameKey(username),
        is_artist: Boolean(opts.placeholderArtist),
        is_placeholder: Boolean(opts.placeholderArtist),
        off_waitlist: !opts.held,
      })
      .execute();
    return id;
  }

  async function freshSong(opts: { hidden?: boolean } = {}): Promise<string> {
    const id = newId();
    const title = unique("Clone");
    const now = nowIso();
    // No audio file: deleting the copy must not remove the shared song's file.
    await ctx.database.db
      .insertInto("song")
      .values({
        id,
        title,
        title_key: nameKey(title),
        genre: "Pop",
        release_date: null,
        soundcloud_url: null,
        submitted_by: ids.owner,
        is_hidden: Boolean(opts.hidden),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await ctx.database.db
      .insertInto("song_artist")
      .values({ song_id: id, artist_id: ids.artist, position: 0 })
      .execute();
    return id;
  }

  const fx: MatrixFixtures = {
    ids,
    userId: (role) => (role === "visitor" ? undefined : userIds[role]),
    emailOf,
    password: PASSWORD,
    freshEmail: () => `perm-new-${dialect}-${++counter}@example.com`,
    unique,
    freshSong,
    freshUser: insertUser,
    async freshReport() {
      const id = newId();
      await ctx.database.db
        .insertInto("report")
        .values({ id, song_id: await freshSong(), user_id: userIds.user, reason: "duplicate", created_at: nowIso() })
        .execute();
      return id;
    },
    async freshSuggestion() {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/api/songs/${await freshSong()}/edit-suggestions`,
        headers: { cookie: cookies.user },
        payload: { title: unique("Suggested"), artists: ["Matrix Artist"], genre: "Rock", reason: "matrix" },
      });
      if (res.statusCode !== 201) throw new Error(`suggestion failed: ${res.body}`);
      return res.json().id as string;
    },
    async freshNotification() {
      const id = newId();
      await ctx.database.db
        .insertInto("notification")
        .values({
          id,
          user_id: ids.owner,
          kind: "report_processed",
          payload: JSON.stringify({ songId: ids.song, songTitle: "Matrix Song", status: "resolved" }),
          created_at: nowIso(),
        })
        .execute();
      return id;
    },
    async freshWaitlistEntry() {
      const id = newId();
      await ctx.database.db
        .insertInto("waitlist_entry")
        .values({ id, name: "Matrix", email: fx.freshEmail(), created_at: nowIso() })
        .execute();
      return id;
    },
    freshCookie: async (role) => (role === "visitor" ? undefined : login(emailOf(role))),
    async playToken(role, songId) {
      const cookie = role === "visitor" ? undefined : cookies[role];
      const res = await ctx.app.inject({
        method: "POST",
        url: `/api/songs/${songId}/plays/start`,
        headers: cookie ? { cookie } : {},
      });
      if (res.statusCode !== 200) throw new Error(`play start failed: ${res.body}`);
      return res.json().token as string;
    },
    async row(table, where) {
      let q = ctx.database.db.selectFrom(table).selectAll();
      for (const [column, value] of Object.entries(where)) q = q.where(sql.ref(column), "=", value);
      return (await q.execute()).map((r) => JSON.stringify(r));
    },
  };

  /** Every table's rows (but rate-limit counters), hashed per table. */
  const snapshot = () => snapshotTables(ctx, tables);

  /** Only the status of an event stream: it never ends, so it is read over a real connection and dropped. */
  function streamStatus(url: string, cookie: string | undefined): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: url, headers: cookie ? { cookie } : {} }, (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", (err) => reject(err));
    });
  }

  async function send(
    method: string,
    role: MatrixRole,
    call: MatrixRequest,
  ): Promise<{ status: number; body: string }> {
    const cookie =
      call.cookie === undefined ? (role === "visitor" ? undefined : cookies[role]) : (call.cookie ?? undefined);
    if (call.stream) return { status: await streamStatus(call.url, cookie), body: "" };
    const res = await ctx.app.inject({
      method: method as "GET",
      url: call.url,
      headers: { ...call.headers, ...(cookie ? { cookie } : {}) },
      ...(call.payload !== undefined ? { payload: call.payload } : {}),
    });
    if (call.newSession && role !== "visitor" && res.statusCode === 200) cookies[role] = sessionCookie(res);
    return { status: res.statusCode, body: res.body };
  }

  /** A user's privileged columns, as stored. */
  async function privileged(userId: string) {
    const row = await ctx.database.db
      .selectFrom("user")
      .select([...PRIVILEGED])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return JSON.stringify(row);
  }

  beforeAll(async () => {
    // Signed up in role order; `unverified` stays on the waitlist.
    for (const role of MATRIX_ROLES) {
      if (role === "visitor") continue;
      const email = emailOf(role);
      const made =
        role === "unverified"
          ? { cookie: await signUp(ctx, email, PASSWORD), id: "" }
          : await member(ctx, email, role === "owner" ? "user" : role);
      if (role === "unverified") {
        const row = await ctx.database.db
          .selectFrom("user")
          .select("id")
          .where("email", "=", email)
          .executeTakeFirstOrThrow();
        made.id = row.id;
      }
      cookies[role] = made.cookie;
      userIds[role] = made.id;
    }
    await member(ctx, emailOf("visitor"));
    for (const permission of ADMIN_PERMISSIONS) {
      const admin = await member(ctx, `perm-no-${permission.toLowerCase()}@example.com`, "admin");
      await grantAdmin(
        ctx,
        admin.id,
        ADMIN_PERMISSIONS.filter((p) => p !== permission),
      );
      lacking[permission] = admin.cookie;
    }
    ids.owner = userIds.owner;
    // The owner has an artist page of their own (PATCH /api/artists/:id acts on it).
    await ctx.database.db.updateTable("user").set({ is_artist: true }).where("id", "=", ids.owner).execute();
    const song = await upload(ctx, cookies.owner, { title: "Matrix Song", artists: ["Matrix Artist"] });
    if (song.statusCode !== 201) throw new Error(`upload failed: ${song.body}`);
    ids.song = song.json().id;
    ids.artist = song.json().artists[0].id;
    // The shared song is verified (visitors see it); the pending one only members do (issue 24).
    await verify(ctx, ids.song);
    const pending = await upload(ctx, cookies.owner, { title: "Matrix Pending", artists: ["Matrix Artist"] });
    ids.pendingSong = pending.json().id;
    const hidden = await upload(ctx, cookies.owner, { title: "Matrix Hidden", artists: ["Matrix Artist"] });
    ids.hiddenSong = hidden.json().id;
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", ids.hiddenSong).execute();
    // The owner's own favourite and follow, which other members' calls must leave alone.
    for (const url of [`/api/songs/${ids.song}/favorite`, `/api/artists/${ids.artist}/follow`]) {
      const res = await ctx.app.inject({ method: "PUT", url, headers: { cookie: cookies.owner } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    }
    tables = await tableNames(ctx, UNSNAPSHOTTED);
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  it("names every API route the app registers, and no other", () => {
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
    const registered = new Set(ctx.app.routeList().filter(isMatrixRoute).map(key));
    const listed = new Set(PERMISSION_MATRIX.map((c) => `${c.method} ${c.route}`));
    expect(registered.size).toBeGreaterThan(50);
    expect([...registered].filter((r) => !listed.has(r)).sort(), "routes missing from the matrix").toEqual([]);
    expect([...listed].filter((r) => !registered.has(r)).sort(), "matrix rows for routes that do not exist").toEqual(
      [],
    );
  });

  it("sees a change to any row (the refusal check is not vacuous)", async () => {
    const before = await snapshot();
    expect(tables).toEqual(expect.arrayContaining(["user", "song", "session", "report", "notification"]));
    await ctx.database.db.updateTable("user").set({ bio: "changed" }).where("id", "=", userIds.user).execute();
    expect(changedTables(before, await snapshot())).toEqual(["user"]);
    await ctx.database.db.updateTable("user").set({ bio: "" }).where("id", "=", userIds.user).execute();
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  describe("every route x role answers as the matrix says; a refused call changes nothing", () => {
    for (const row of PERMISSION_MATRIX) {
      it(`${row.method} ${row.route}${row.label ? ` (${row.label})` : ""}`, async () => {
        const problems: string[] = [];
        for (const [i, role] of MATRIX_ROLES.entries()) {
          const expected = row.expect[i] ?? 0;
          const call = await row.request(fx, role);
          // Only a refusal is checked for changes; a call answered otherwise than expected fails on its status.
          const refusal = expected >= 400 && expected < 500;
          const before = refusal ? await snapshot() : undefined;
          const probe = call.untouched ? await call.untouched() : undefined;
          const { status, body } = await send(row.method, role, call);
          if (status !== expected) problems.push(`${role}: ${status}, expected ${expected} ${body.slice(0, 200)}`);
          if (before && status >= 400 && status < 500) {
            const changed = changedTables(before, await snapshot());
            if (changed.length > 0) problems.push(`${role}: refused with ${status} but changed ${changed.join(", ")}`);
          }
          if (call.untouched && JSON.stringify(await call.untouched()) !== JSON.stringify(probe))
            problems.push(`${role}: changed another user's rows`);
        }
        expect(problems).toEqual([]);
      });
    }
  });

  describe("an admin without the permission a row names gets 403 and changes nothing (issue 24)", () => {
    const rows = PERMISSION_MATRIX.filter((r) => r.permission);
    it("names a permission on the routes of each one", () => {
      expect(new Set(rows.map((r) => r.permission))).toEqual(new Set(ADMIN_PERMISSIONS));
    });
    for (const row of rows) {
      it(`${row.method} ${row.route}${row.label ? ` (${row.label})` : ""} without ${row.permission}`, async () => {
        const call = await row.request(fx, "admin");
        const before = await snapshot();
        const { status, body } = await send(row.method, "admin", {
          ...call,
          cookie: lacking[row.permission as AdminPermission],
        });
        expect(status, body).toBe(403);
        expect(changedTables(before, await snapshot())).toEqual([]);
      });
    }
  });

  it("lets nobody set their own role, points, verification or waitlist flag", async () => {
    const grab = {
      role: "super_admin",
      points: 1_000_000,
      isVerified: true,
      is_verified: true,
      isEmailVerified: true,
      email_verified: true,
      emailVerified: true,
      offWaitlist: true,
      off_waitlist: true,
      waitlisted: false,
      isAdmin: true,
      isSuperAdmin: true,
      votesDiscounted: false,
    };
    const roles = MATRIX_ROLES.filter((r): r is SignedInRole => r !== "visitor");
    for (const role of roles) {
      const id = userIds[role];
      const before = await privileged(id);
      const headers = { cookie: cookies[role] };
      const calls: { method: "PATCH" | "PUT" | "POST"; url: string; payload?: object }[] = [
        { method: "PATCH", url: "/api/me", payload: { username: unique("self"), ...grab } },
        { method: "PATCH", url: "/api/me", payload: grab },
        {
          method: "PATCH",
          url: `/api/artists/${id}`,
          payload: { bio: "me", instagram: null, twitter: null, website: null, ...grab },
        },
        {
          method: "PUT",
          url: "/api/me/notification-settings",
          payload: { ...everyKind(true), ...grab },
        },
        { method: "PUT", url: `/api/admin/users/${id}/role`, payload: { role: "admin" } },
        { method: "PUT", url: `/api/admin/users/${id}/role`, payload: { role: "user" } },
        { method: "PUT", url: `/api/admin/users/${id}/role`, payload: { role: "super_admin" } },
        { method: "POST", url: `/api/admin/users/${id}/approve` },
        { method: "PUT", url: `/api/admin/users/${id}/votes-discounted`, payload: { discounted: true } },
        {
          method: "POST",
          url: "/api/auth/change-password",
          payload: { currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD, ...grab },
        },
      ];
      for (const call of calls) {
        const res = await ctx.app.inject({ ...call, headers });
        expect(`${role} ${call.method} ${call.url}: ${await privileged(id)}`, res.body).toBe(
          `${role} ${call.method} ${call.url}: ${before}`,
        );
        // The password change revoked every other session: the role goes on with the one it answered with.
        if (call.url === "/api/auth/change-password") {
          expect(res.statusCode, res.body).toBe(200);
          cookies[role] = sessionCookie(res);
        }
      }
    }
    // Nor can a new account start out privileged.
    const email = fx.freshEmail();
    const reg = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { email, password: PASSWORD, confirmPassword: PASSWORD, ...grab },
    });
    expect(reg.statusCode).toBe(201);
    const made = await ctx.database.db
      .selectFrom("user")
      .select([...PRIVILEGED])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(made).toMatchObject({ role: "user", points: 0 });
    expect(Boolean(made.is_verified) || Boolean(made.email_verified) || Boolean(made.off_waitlist)).toBe(false);
  });

  it("does not let admins hand out admin or super admin, nor change admins or themselves", async () => {
    const roleOf = async (id: string) =>
      (await ctx.database.db.selectFrom("user").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;
    const setRole = (cookie: string, id: string, role: string) =>
      ctx.app.inject({ method: "PUT", url: `/api/admin/users/${id}/role`, headers: { cookie }, payload: { role } });
    const target = await insertUser();
    const otherAdmin = await insertUser();
    await ctx.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", otherAdmin).execute();

    expect((await setRole(cookies.admin, target, "admin")).statusCode).toBe(403);
    // super_admin is not a role anyone can hand out: the schema refuses it before anyone is asked.
    expect((await setRole(cookies.admin, target, "super_admin")).statusCode).toBe(400);
    expect((await setRole(cookies.super_admin, target, "super_admin")).statusCode).toBe(400);
    expect(await roleOf(target)).toBe("user");
    expect((await setRole(cookies.admin, otherAdmin, "user")).statusCode).toBe(403);
    expect(await roleOf(otherAdmin)).toBe("admin");
    expect((await setRole(cookies.admin, userIds.super_admin, "user")).statusCode).toBe(403);
    expect((await setRole(cookies.super_admin, userIds.super_admin, "user")).statusCode).toBe(403);
    expect(await roleOf(userIds.super_admin)).toBe("super_admin");
    // What an admin may do, and a super admin's grant of admin.
    expect((await setRole(cookies.admin, target, "verified_contributor")).statusCode).toBe(200);
    expect((await setRole(cookies.super_admin, target, "admin")).statusCode).toBe(200);
    expect(await roleOf(target)).toBe("admin");
  });

  it("takes a role away from the very next request", async () => {
    const admin = await member(ctx, fx.freshEmail(), "admin");
    const users = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/admin/users", headers: { cookie } });
    expect((await users(admin.cookie)).statusCode).toBe(200);
    // Demoted by the super admin through the API.
    const demote = await ctx.app.inject({
      method: "PUT",
      url: `/api/admin/users/${admin.id}/role`,
      headers: { cookie: cookies.super_admin },
      payload: { role: "user" },
    });
    expect(demote.statusCode).toBe(200);
    expect((await users(admin.cookie)).statusCode).toBe(403);

    // Demoted in the database (an operator, another instance): the same session is refused at once.
    const other = await member(ctx, fx.freshEmail(), "super_admin");
    const audit = () => ctx.app.inject({ method: "GET", url: "/api/admin/audit", headers: { cookie: other.cookie } });
    expect((await audit()).statusCode).toBe(200);
    await ctx.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", other.id).execute();
    expect((await audit()).statusCode).toBe(403);
    expect((await users(other.cookie)).statusCode).toBe(200);
    await ctx.database.db.updateTable("user").set({ role: "user" }).where("id", "=", other.id).execute();
    expect((await users(other.cookie)).statusCode).toBe(403);

    // Sent back to the waitlist: contributing stops at once too.
    await ctx.database.db.updateTable("user").set({ off_waitlist: false }).where("id", "=", other.id).execute();
    const vote = await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${await freshSong()}/vote`,
      headers: { cookie: other.cookie },
      payload: { value: "up" },
    });
    expect(vote.statusCode).toBe(403);
  });

  it("shows each member only their own profile, notifications and favourites", async () => {
    const notification = await fx.freshNotification();
    const fav = await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${ids.song}/favorite`,
      headers: { cookie: cookies.owner },
    });
    expect(fav.statusCode).toBe(200);
    for (const role of MATRIX_ROLES) {
      if (role === "visitor") continue;
      const headers = { cookie: cookies[role] };
      const get = async (url: string) => {
        const res = await ctx.app.inject({ method: "GET", url, headers });
        expect(res.statusCode, `${role} ${url}`).toBe(200);
        return res.json();
      };
      const me = await get("/api/me");
      expect(me).toMatchObject({ id: userIds[role], email: emailOf(role) });
      expect((await get("/api/session")).user).toMatchObject({ id: userIds[role], email: emailOf(role) });
      const notifications = (await get("/api/notifications")).items.map((n: { id: string }) => n.id);
      expect(notifications.includes(notification), role).toBe(role === "owner");
      if (role === "unverified") continue;
      const favorites = (await get("/api/me/favorites")).items.map((s: { id: string }) => s.id);
      // Every other member took their favourite of the shared song back in the matrix; the owner's is theirs.
      expect(favorites.includes(ids.song), role).toBe(role === "owner");
    }
  });

  it("treats an account whose e-mail is not verified as a visitor: it cannot sign in", async () => {
    const email = fx.freshEmail();
    const reg = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { email, password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.headers["set-cookie"] ?? []).not.toContainEqual(expect.stringContaining("session_token="));
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(String(res.headers["set-cookie"] ?? "")).not.toContain("session_token=");
  });
});

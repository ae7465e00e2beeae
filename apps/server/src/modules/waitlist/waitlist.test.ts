import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { expect, it } from "vitest";
import { getMe, member, upload, useMembers } from "../../test/fixtures.js";
import { createTestApp, describeEachDialect, signUp, useTestApp } from "../../test/harness.js";

describeEachDialect("waitlist", (dialect) => {
  const ctx = useTestApp(dialect);
  const { admin } = useMembers(ctx, { admin: ["admin-w@example.com", "admin"] });

  const approve = (url: string) => ctx.app.inject({ method: "POST", url, headers: { cookie: admin.cookie } });
  const join = (payload: object) => ctx.app.inject({ method: "POST", url: "/api/waitlist", payload });
  type Entry = { id: string; email: string; name: string; hasAccount: boolean; emailVerified: boolean };
  type Page = { items: Entry[]; nextCursor: string | null; total: number };
  const page = (query = "") =>
    ctx.app.inject({ method: "GET", url: `/api/admin/waitlist${query}`, headers: { cookie: admin.cookie } });
  /** Every entry, oldest first, following the pages to the end. */
  const list = async () => {
    const items: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res = await page(cursor ? `?cursor=${encodeURIComponent(cursor)}` : "");
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Page;
      items.push(...body.items);
      cursor = body.nextCursor;
    } while (cursor);
    return items;
  };

  it("adds an entry once per e-mail and checks the fields", async () => {
    expect((await join({ name: "Ada", email: "Ada@Example.com" })).json()).toEqual({
      ok: true,
      message: MESSAGES.waitlistJoined,
    });
    expect((await join({ name: "Ada again", email: "ada@example.com" })).statusCode).toBe(200);
    expect((await list()).filter((e) => e.email === "ada@example.com")).toHaveLength(1);
    expect((await join({ name: "", email: "x@example.com" })).json().error.message).toBe(MESSAGES.waitlistNameRequired);
    expect((await join({ name: "X", email: "" })).json().error.message).toBe(MESSAGES.waitlistEmailRequired);
    expect((await join({ name: "X", email: "nope" })).json().error.message).toBe(MESSAGES.invalidEmail);
  });

  it("approves an account: it gets in and the entry is gone", async () => {
    const cookie = await signUp(ctx, "held@example.com");
    expect((await getMe(ctx, cookie)).json().waitlisted).toBe(true);
    await join({ name: "Held", email: "held@example.com" });
    const entry = (await list()).find((e) => e.email === "held@example.com");
    expect(entry?.hasAccount).toBe(true);
    const res = await approve(`/api/admin/waitlist/${entry?.id}/approve`);
    expect(res.json()).toEqual({ ok: true, message: offWaitlistMessage("held@example.com"), userFound: true });
    expect((await getMe(ctx, cookie)).json()).toMatchObject({
      waitlisted: false,
      offWaitlist: true,
    });
    expect((await list()).find((e) => e.email === "held@example.com")).toBeUndefined();
  });

  it("remembers an approved e-mail with no account, so that account starts let in", async () => {
    await join({ name: "Later", email: "later@example.com" });
    const entry = (await list()).find((e) => e.email === "later@example.com");
    const res = await approve(`/api/admin/waitlist/${entry?.id}/approve`);
    expect(res.json()).toEqual({ ok: true, message: MESSAGES.waitlistNoUser, userFound: false });
    const cookie = await signUp(ctx, "later@example.com");
    expect((await getMe(ctx, cookie)).json().waitlisted).toBe(false);
  });

  it("lets an admin let a registered user in directly", async () => {
    const cookie = await signUp(ctx, "direct@example.com");
    const me = (await getMe(ctx, cookie)).json();
    const res = await approve(`/api/admin/users/${me.id}/approve`);
    expect(res.json().message).toBe(offWaitlistMessage("direct@example.com"));
    expect((await getMe(ctx, cookie)).json().waitlisted).toBe(false);
  });

  // Issue 24: anyone may join (20 an hour per address), and the admin list showed the oldest 1000 only, so a flood
  // buried every later entry. It pages (50 by default) with a keyset cursor to its end.
  it("pages the admin list through every entry, oldest first, and a late one appears", async () => {
    const { db } = ctx.database;
    // Many at one instant: the id orders them, and no page may skip or repeat one.
    const at = "2020-01-01T00:00:00.000Z";
    await db
      .insertInto("waitlist_entry")
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          id: `wlflood${String(i).padStart(4, "0")}`,
          name: `Flood ${i}`,
          email: `flood-${i}@example.com`,
          created_at: at,
        })),
      )
      .execute();
    expect((await join({ name: "Late", email: "late-w@example.com" })).statusCode).toBe(200);
    // Everyone who waits: the form's entries and the accounts other tests registered that were never let in.
    const entries = await db.selectFrom("waitlist_entry").select(["id", "email"]).execute();
    const accounts = await db
      .selectFrom("user")
      .select("id")
      .where("off_waitlist", "=", false)
      .where("role", "=", "user")
      .where("is_placeholder", "=", false)
      .where(
        "email",
        "not in",
        entries.map((e) => e.email),
      )
      .execute();
    const stored = [...entries, ...accounts];
    const first = (await page()).json() as Page;
    expect(first.items).toHaveLength(50);
    expect(first.total).toBe(stored.length);
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await page(`?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Page;
      expect(body.items.length).toBeLessThanOrEqual(50);
      expect(body.total).toBe(stored.length);
      ids.push(...body.items.map((e) => e.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(stored.map((e) => e.id).sort());
    // The flood in id order at its one instant, and the late entry last.
    const flood = ids.filter((id) => id.startsWith("wlflood"));
    expect(flood).toEqual([...flood].sort());
    expect(flood).toHaveLength(120);
    const late = await db
      .selectFrom("waitlist_entry")
      .select("id")
      .where("email", "=", "late-w@example.com")
      .executeTakeFirstOrThrow();
    expect(ids.at(-1)).toBe(late.id);
    // A crafted cursor is a clear 400, never a 5xx.
    const crafted = Buffer.from(JSON.stringify({ createdAt: "garbage", id: "x" })).toString("base64url");
    const bad = await page(`?cursor=${crafted}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MESSAGES.invalidCursor);
  });

  // Issue 25: registering is joining. The admin list showed form entries only, so an admin read "Nobody is waiting"
  // while registered members waited; now one queue holds both, and one Approve lets either in.
  it("lists a registered account that waits, once, and its Approve lets it in", async () => {
    const cookie = await signUp(ctx, "registered-w@example.com");
    const me = (await getMe(ctx, cookie)).json();
    expect(me.waitlisted).toBe(true);
    const waiting = (await list()).filter((e) => e.email === "registered-w@example.com");
    expect(waiting).toEqual([
      expect.objectContaining({ id: me.id, name: me.username, hasAccount: true, emailVerified: true }),
    ]);
    // Joining by the form as well leaves one row: the form's entry, with its account.
    await join({ name: "Registered", email: "registered-w@example.com" });
    const both = (await list()).filter((e) => e.email === "registered-w@example.com");
    expect(both).toHaveLength(1);
    expect(both[0]).toMatchObject({ name: "Registered", hasAccount: true });
    expect(both[0]?.id).not.toBe(me.id);
    await ctx.database.db.deleteFrom("waitlist_entry").where("email", "=", "registered-w@example.com").execute();
    // Approve by the account's id, as the list gave it.
    const res = await approve(`/api/admin/waitlist/${me.id}/approve`);
    expect(res.json()).toEqual({ ok: true, message: offWaitlistMessage("registered-w@example.com"), userFound: true });
    expect((await getMe(ctx, cookie)).json().waitlisted).toBe(false);
    expect((await list()).find((e) => e.email === "registered-w@example.com")).toBeUndefined();
    // A credit's placeholder artist profile is no one's account, so it never waits.
    const owner = await member(ctx, "uploader-w@example.com");
    const up = await upload(ctx, owner.cookie, { title: "Credits", artists: ["Placeholder Artist W"] });
    expect(up.statusCode, up.body).toBe(201);
    expect((await list()).find((e) => e.name === "Placeholder Artist W")).toBeUndefined();
    // Admins never wait, and an unknown id is a 404.
    expect((await list()).find((e) => e.email === "admin-w@example.com")).toBeUndefined();
    expect((await approve("/api/admin/waitlist/nosuchid/approve")).statusCode).toBe(404);
  });

  it("never gates when WAITLIST_GATE is off", async () => {
    const open = await createTestApp(dialect, { env: { WAITLIST_GATE: "false" } });
    try {
      const cookie = await signUp(open, "free@example.com");
      expect((await getMe(open, cookie)).json().waitlisted).toBe(false);
      // Nobody waits, so the accounts are not in the admin's queue.
      const openAdmin = await member(open, "admin-open@example.com", "admin");
      await open.database.db.updateTable("user").set({ off_waitlist: false }).execute();
      const res = await open.app.inject({
        method: "GET",
        url: "/api/admin/waitlist",
        headers: { cookie: openAdmin.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total).toBe(0);
    } finally {
      await open.close();
    }
  });
});

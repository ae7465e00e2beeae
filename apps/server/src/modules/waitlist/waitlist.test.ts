import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { expect, it } from "vitest";
import { getMe, useMembers } from "../../test/fixtures.js";
import { createTestApp, describeEachDialect, signUp, useTestApp } from "../../test/harness.js";

describeEachDialect("waitlist", (dialect) => {
  const ctx = useTestApp(dialect);
  const { admin } = useMembers(ctx, { admin: ["admin-w@example.com", "admin"] });

  const approve = (url: string) => ctx.app.inject({ method: "POST", url, headers: { cookie: admin.cookie } });
  const join = (payload: object) => ctx.app.inject({ method: "POST", url: "/api/waitlist", payload });
  const list = async () =>
    (await ctx.app.inject({ method: "GET", url: "/api/admin/waitlist", headers: { cookie: admin.cookie } })).json()
      .items;

  it("adds an entry once per e-mail and checks the fields", async () => {
    expect((await join({ name: "Ada", email: "Ada@Example.com" })).json()).toEqual({
      ok: true,
      message: MESSAGES.waitlistJoined,
    });
    expect((await join({ name: "Ada again", email: "ada@example.com" })).statusCode).toBe(200);
    expect((await list()).filter((e: { email: string }) => e.email === "ada@example.com")).toHaveLength(1);
    expect((await join({ name: "", email: "x@example.com" })).json().error.message).toBe(MESSAGES.waitlistNameRequired);
    expect((await join({ name: "X", email: "" })).json().error.message).toBe(MESSAGES.waitlistEmailRequired);
    expect((await join({ name: "X", email: "nope" })).json().error.message).toBe(MESSAGES.invalidEmail);
  });

  it("approves an account: it gets in and the entry is gone", async () => {
    const cookie = await signUp(ctx, "held@example.com");
    expect((await getMe(ctx, cookie)).json().waitlisted).toBe(true);
    await join({ name: "Held", email: "held@example.com" });
    const entry = (await list()).find((e: { email: string }) => e.email === "held@example.com");
    expect(entry.hasAccount).toBe(true);
    const res = await approve(`/api/admin/waitlist/${entry.id}/approve`);
    expect(res.json()).toEqual({ ok: true, message: offWaitlistMessage("held@example.com"), userFound: true });
    expect((await getMe(ctx, cookie)).json()).toMatchObject({
      waitlisted: false,
      offWaitlist: true,
    });
    expect((await list()).find((e: { email: string }) => e.email === "held@example.com")).toBeUndefined();
  });

  it("remembers an approved e-mail with no account, so that account starts let in", async () => {
    await join({ name: "Later", email: "later@example.com" });
    const entry = (await list()).find((e: { email: string }) => e.email === "later@example.com");
    const res = await approve(`/api/admin/waitlist/${entry.id}/approve`);
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

  it("never gates when WAITLIST_GATE is off", async () => {
    const open = await createTestApp(dialect, { env: { WAITLIST_GATE: "false" } });
    try {
      const cookie = await signUp(open, "free@example.com");
      expect((await getMe(open, cookie)).json().waitlisted).toBe(false);
    } finally {
      await open.close();
    }
  });
});

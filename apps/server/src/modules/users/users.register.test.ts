// Issue 38, newcomer finding 4: members choose their username at registration (the form offers a neutral handle),
// under the rename rules: no artist's name, no look-alike of a taken name, not the e-mail's local part.
import { MESSAGES } from "@unheard/shared";
import { expect, it } from "vitest";
import { getMe, patchMe, upload, useMembers } from "../../test/fixtures.js";
import {
  describeEachDialect,
  lastLink,
  outboxFor,
  sessionCookie,
  signUp,
  type TestContext,
  useTestApp,
} from "../../test/harness.js";

const PASSWORD = "secret123";

/** Register through the API as the form does, with `username` when given. */
const register = (ctx: TestContext, email: string, username?: string, remoteAddress?: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { email, password: PASSWORD, confirmPassword: PASSWORD, ...(username === undefined ? {} : { username }) },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** Verify the e-mail from the outbox and sign in: the new account's session cookie. */
async function verifyAndSignIn(ctx: TestContext, email: string): Promise<string> {
  const link = new URL(lastLink(ctx.dataDir, email, "/api/auth/verify-email"));
  expect((await ctx.app.inject({ method: "GET", url: `${link.pathname}${link.search}` })).statusCode).toBe(302);
  const login = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  return sessionCookie(login);
}

/** How many accounts hold `email`. */
async function accounts(ctx: TestContext, email: string): Promise<number> {
  const rows = await ctx.database.db.selectFrom("user").select("id").where("email", "=", email).execute();
  return rows.length;
}

describeEachDialect("usernames chosen at registration", (dialect) => {
  const ctx = useTestApp(dialect);
  const people = useMembers(ctx, { uploader: "reg-uploader@example.com" });

  it("keeps the username chosen at registration, and says whether new accounts wait on the waitlist", async () => {
    const res = await register(ctx, "chooser@example.com", "  Night Listener ");
    expect(res.statusCode).toBe(201);
    // The harness runs with the gate on (the default): the success screen tells of the waitlist (finding 5).
    expect(res.json()).toEqual({ ok: true, message: MESSAGES.registerSuccess, waitlist: true });
    const me = (await getMe(ctx, await verifyAndSignIn(ctx, "chooser@example.com"))).json();
    expect(me).toMatchObject({ username: "Night Listener", email: "chooser@example.com", waitlisted: true });
  });

  it("still gives a neutral handle when no username is sent (API clients, older forms)", async () => {
    expect((await register(ctx, "no-name@example.com")).statusCode).toBe(201);
    const me = (await getMe(ctx, await verifyAndSignIn(ctx, "no-name@example.com"))).json();
    expect(me.username).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
  });

  it("refuses an artist's name, a look-alike of a taken name and a malformed one, creating no account", async () => {
    await upload(ctx, people.uploader.cookie, { title: "Register Credit", artists: ["Mira Vale"] });
    const taken = await signUp(ctx, "holder@example.com");
    expect((await patchMe(ctx, taken, { username: "paypal" })).statusCode).toBe(200);
    const mailsBefore = outboxFor(ctx.dataDir, "squat@example.com").length;
    const cases: [string, number, string][] = [
      ["mira vale", 409, MESSAGES.usernameIsArtist],
      ["MIRA  VALE", 409, MESSAGES.usernameIsArtist],
      // Fullwidth letters and whole-script Cyrillic look-alikes fold to the taken key.
      ["ｐａｙｐａｌ", 409, MESSAGES.usernameTaken],
      ["\u0440\u0430\u0443\u0440\u0430\u04cf", 409, MESSAGES.usernameTaken],
      ["PayPal", 409, MESSAGES.usernameTaken],
      // Mixed scripts and invisible characters are no username at all.
      ["\u0430dmin", 400, "one alphabet"],
      ["Mira\u200bVale", 400, "Username may use"],
    ];
    for (const [name, status, message] of cases) {
      const res = await register(ctx, "squat@example.com", name);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error.message, name).toContain(message);
      if (status === 409) expect(res.json().error.fields, name).toEqual({ username: res.json().error.message });
    }
    expect(await accounts(ctx, "squat@example.com")).toBe(0);
    expect(outboxFor(ctx.dataDir, "squat@example.com")).toHaveLength(mailsBefore);
    // Another name goes through.
    expect((await register(ctx, "squat@example.com", "Mira Fan")).statusCode).toBe(201);
    expect(await accounts(ctx, "squat@example.com")).toBe(1);
  });

  it("refuses the e-mail's local part as a username, at registration and on a rename", async () => {
    for (const name of ["sam.jones", "Sam Jones", "SAM_JONES", "samjones", "ｓａｍｊｏｎｅｓ"]) {
      const res = await register(ctx, "sam.jones+music@example.com", name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toMatchObject({
        message: MESSAGES.usernameIsEmail,
        fields: { username: MESSAGES.usernameIsEmail },
      });
    }
    expect(await accounts(ctx, "sam.jones+music@example.com")).toBe(0);
    // A name that only contains it is the member's business.
    expect((await register(ctx, "sam.jones+music@example.com", "Sam Jones Fan")).statusCode).toBe(201);
    const cookie = await verifyAndSignIn(ctx, "sam.jones+music@example.com");
    const rename = await patchMe(ctx, cookie, { username: "Sam-Jones" });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().error.message).toBe(MESSAGES.usernameIsEmail);
    expect((await getMe(ctx, cookie)).json().username).toBe("Sam Jones Fan");
  });

  it("lets one of two registrations racing for one name have it; the other is told it is taken", async () => {
    const [a, b] = await Promise.all([
      register(ctx, "racer-a@example.com", "Photo Finish", "10.38.0.1"),
      register(ctx, "racer-b@example.com", "photo finish", "10.38.0.2"),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const lost = a.statusCode === 409 ? a : b;
    expect(lost.json().error).toMatchObject({ code: "username_taken", message: MESSAGES.usernameTaken });
    expect((await accounts(ctx, "racer-a@example.com")) + (await accounts(ctx, "racer-b@example.com"))).toBe(1);
  });

  it("answers a known e-mail with a free name exactly like a new one (no enumeration)", async () => {
    expect((await register(ctx, "known@example.com", "First Name")).statusCode).toBe(201);
    const again = await register(ctx, "known@example.com", "Second Name");
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ ok: true, message: MESSAGES.registerSuccess, waitlist: true });
    const me = (await getMe(ctx, await verifyAndSignIn(ctx, "known@example.com"))).json();
    expect(me.username).toBe("First Name");
  });
});

describeEachDialect("registration without the waitlist gate", (dialect) => {
  const ctx = useTestApp(dialect, { env: { WAITLIST_GATE: "false" } });

  it("says new accounts do not wait", async () => {
    const res = await register(ctx, "open-door@example.com", "Doorway Listener");
    expect(res.json()).toEqual({ ok: true, message: MESSAGES.registerSuccess, waitlist: false });
  });
});

import { MESSAGES, usernameSchema } from "@unheard/shared";
import { expect, it } from "vitest";
import { getMe, patchMe } from "../../test/fixtures.js";
import {
  createTestApp,
  describeEachDialect,
  lastLink,
  outboxFor,
  sessionCookie,
  signUp,
  type TestContext,
  useTestApp,
} from "../../test/harness.js";

const post = (ctx: TestContext, url: string, payload: unknown, cookie?: string) =>
  ctx.app.inject({ method: "POST", url, payload: payload as object, headers: cookie ? { cookie } : {} });

/** Register as the form does: the password, then `confirmPassword` (the same unless given). */
const register = (ctx: TestContext, email: string, password = "secret1", confirmPassword = password) =>
  post(ctx, "/api/auth/register", { email, password, confirmPassword });

const login = (ctx: TestContext, email: string, password: string) => post(ctx, "/api/auth/login", { email, password });

describeEachDialect("accounts", (dialect) => {
  const ctx = useTestApp(dialect, { env: { SUPER_ADMIN_EMAIL: "boss@example.com" } });
  /** Change the password as the holder of `cookie`, typing the new one twice. */
  const changePassword = (cookie: string | undefined, currentPassword: string, newPassword: string) =>
    post(ctx, "/api/auth/change-password", { currentPassword, newPassword, confirmPassword: newPassword }, cookie);

  it("registers, e-mails a verification link, verifies and logs in", async () => {
    const reg = await register(ctx, "Ann@Example.com");
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toEqual({ ok: true, message: MESSAGES.registerSuccess, waitlist: true });
    // Login is refused until the e-mail is verified.
    const early = await login(ctx, "ann@example.com", "secret1");
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toEqual({ code: "email_not_verified", message: MESSAGES.emailNotVerified });

    const link = new URL(lastLink(ctx.dataDir, "ann@example.com", "/api/auth/verify-email"));
    expect(link.origin).toBe("http://localhost:3000");
    const verify = await ctx.app.inject({ method: "GET", url: `${link.pathname}${link.search}` });
    expect(verify.statusCode).toBe(302);
    expect(verify.headers.location).toBe("/login?verify=ok");

    const loggedIn = await login(ctx, "ann@example.com", "secret1");
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.json().message).toBe(MESSAGES.loginSuccess);
    const setCookie = String(loggedIn.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);

    const me = await getMe(ctx, sessionCookie(loggedIn));
    expect(me.statusCode).toBe(200);
    // Spec §4 defaults, but for the username: a neutral handle, not the e-mail's local part (issue 24).
    expect(me.json().username).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
    expect(me.json()).toMatchObject({
      email: "ann@example.com",
      role: "user",
      points: 0,
      isPublic: false,
      isAdmin: false,
      canDeleteContent: false,
      isEmailVerified: true,
      offWaitlist: false,
      waitlisted: true,
    });
  });

  it("checks the registration form like the page does", async () => {
    const mismatch = await register(ctx, "b@example.com", "secret1", "secret2");
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields.confirmPassword).toBe(MESSAGES.passwordsDoNotMatch);
    const short = await register(ctx, "b@example.com", "12345");
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe(MESSAGES.passwordTooShort);
    const badEmail = await register(ctx, "nope");
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.fields.email).toBe(MESSAGES.invalidEmail);
    const missing = await post(ctx, "/api/auth/register", {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe("validation_failed");
    const users = await ctx.database.db.selectFrom("user").select("id").where("email", "=", "b@example.com").execute();
    expect(users).toHaveLength(0);
  });

  it("answers a second registration of an e-mail exactly like the first (no enumeration)", async () => {
    await register(ctx, "dup@example.com");
    const again = await register(ctx, "DUP@example.com", "other-pass");
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ ok: true, message: MESSAGES.registerSuccess, waitlist: true });
    const rows = await ctx.database.db.selectFrom("user").select("id").where("email", "=", "dup@example.com").execute();
    expect(rows).toHaveLength(1);
    // The owner is told instead of the caller.
    const mails = outboxFor(ctx.dataDir, "dup@example.com");
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain("already has an account");
  });

  it("refuses bad logins with one message whether or not the account exists", async () => {
    await signUp(ctx, "carl@example.com", "right-pass");
    const wrong = await login(ctx, "carl@example.com", "wrong-pass");
    const unknown = await login(ctx, "nobody@example.com", "wrong-pass");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toEqual({ code: "invalid_credentials", message: MESSAGES.loginFailed });
    expect(wrong.headers["set-cookie"]).toBeUndefined();
  });

  it("resends the verification e-mail, answering the same for unknown e-mails", async () => {
    await register(ctx, "dana@example.com");
    const known = await post(ctx, "/api/auth/resend-verification", { email: "dana@example.com" });
    const unknown = await post(ctx, "/api/auth/resend-verification", { email: "ghost@example.com" });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ ok: true, message: MESSAGES.verificationSent });
    expect(unknown.json()).toEqual(known.json());
    expect(outboxFor(ctx.dataDir, "dana@example.com")).toHaveLength(2);
    expect(outboxFor(ctx.dataDir, "ghost@example.com")).toHaveLength(0);
  });

  it("rejects forged or tampered verification links", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/auth/verify-email?token=forged" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login?verify=failed");
    const json = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/verify-email?token=forged",
      headers: { accept: "application/json" },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.code).toBe("invalid_token");
  });

  it("answers the session without an error for visitors", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/session" })).json()).toEqual({ user: null });
    const cookie = await signUp(ctx, "sess@example.com");
    const res = await ctx.app.inject({ method: "GET", url: "/api/session", headers: { cookie } });
    expect(res.json().user).toMatchObject({ email: "sess@example.com" });
  });

  it("logs out: the session no longer works", async () => {
    const cookie = await signUp(ctx, "eve@example.com");
    const out = await post(ctx, "/api/auth/logout", {}, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe(MESSAGES.logoutSuccess);
    const me = await getMe(ctx, cookie);
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe("unauthorized");
  });

  it("resets a forgotten password by e-mail, once per link", async () => {
    await signUp(ctx, "fay@example.com", "old-pass");
    const ask = await post(ctx, "/api/auth/forgot-password", { email: "fay@example.com" });
    const askUnknown = await post(ctx, "/api/auth/forgot-password", { email: "no-fay@example.com" });
    expect(ask.statusCode).toBe(200);
    expect(ask.json()).toEqual({ ok: true, message: MESSAGES.resetSent });
    expect(askUnknown.json()).toEqual(ask.json());
    const link = new URL(lastLink(ctx.dataDir, "fay@example.com", "/reset-password"));
    const token = link.searchParams.get("token") ?? "";
    const resetPassword = (newPassword: string, confirmPassword = newPassword) =>
      post(ctx, "/api/auth/reset-password", { token, newPassword, confirmPassword });
    const mismatch = await resetPassword("new-pass", "nope-pass");
    expect(mismatch.statusCode).toBe(400);
    const reset = await resetPassword("new-pass");
    expect(reset.statusCode).toBe(200);
    const reuse = await resetPassword("other-pass");
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe("invalid_token");
    expect((await login(ctx, "fay@example.com", "old-pass")).statusCode).toBe(401);
    expect((await login(ctx, "fay@example.com", "new-pass")).statusCode).toBe(200);
  });

  it("changes the password with the current one and ends the other sessions", async () => {
    const first = await signUp(ctx, "gus@example.com", "pass-one");
    const otherLogin = await login(ctx, "gus@example.com", "pass-one");
    const other = sessionCookie(otherLogin);
    const wrong = await changePassword(first, "nope-nope", "pass-two");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.currentPassword).toBe(MESSAGES.currentPasswordWrong);
    const visitor = await changePassword(undefined, "pass-one", "pass-two");
    expect(visitor.statusCode).toBe(401);
    const ok = await changePassword(first, "pass-one", "pass-two");
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(MESSAGES.passwordUpdated);
    const current = sessionCookie(ok);
    expect((await getMe(ctx, current)).statusCode).toBe(200);
    expect((await getMe(ctx, other)).statusCode).toBe(401);
    expect((await login(ctx, "gus@example.com", "pass-two")).statusCode).toBe(200);
  });

  it("makes SUPER_ADMIN_EMAIL super admin with a full admin record at sign-in", async () => {
    const cookie = await signUp(ctx, "boss@example.com");
    const me = (await getMe(ctx, cookie)).json();
    expect(me).toMatchObject({
      role: "super_admin",
      isAdmin: true,
      isSuperAdmin: true,
      canDeleteContent: true,
      waitlisted: false,
    });
    const admin = await ctx.database.db
      .selectFrom("admin")
      .selectAll()
      .where("user_id", "=", me.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(admin.permissions)).toEqual({
      canManageAdmins: true,
      canVerifyArtists: true,
      canManageReports: true,
      canBulkImport: true,
      canEditAllSongs: true,
    });
  });

  it("lets no request set its own role, points or verification flags", async () => {
    const reg = await post(ctx, "/api/auth/register", {
      email: "mallory@example.com",
      password: "secret1",
      confirmPassword: "secret1",
      role: "super_admin",
      points: 9999,
      emailVerified: true,
      offWaitlist: true,
    });
    expect(reg.statusCode).toBe(201);
    const row = await ctx.database.db
      .selectFrom("user")
      .selectAll()
      .where("email", "=", "mallory@example.com")
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("user");
    expect(Number(row.points)).toBe(0);
    expect(Boolean(row.email_verified)).toBe(false);
    expect(Boolean(row.off_waitlist)).toBe(false);
    const cookie = await signUp(ctx, "trent@example.com");
    const patch = await patchMe(ctx, cookie, { username: "trent", role: "admin" });
    expect(patch.statusCode).toBe(400);
    const me = (await getMe(ctx, cookie)).json();
    expect(me.role).toBe("user");
  });

  it("renames the profile; usernames are unique regardless of case", async () => {
    const a = await signUp(ctx, "hal@example.com");
    const b = await signUp(ctx, "ivy@example.com");
    const ok = await patchMe(ctx, a, { username: "  Night Owl " });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().username).toBe("Night Owl");
    const taken = await patchMe(ctx, b, { username: "night owl" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: "username_taken", message: MESSAGES.usernameTaken });
    const bad = await patchMe(ctx, b, { username: "<script>" });
    expect(bad.statusCode).toBe(400);
    const visitor = await patchMe(ctx, undefined, { username: "x-visitor" });
    expect(visitor.statusCode).toBe(401);
  });

  it("gives new accounts unique neutral usernames that do not show their e-mail (issue 24)", async () => {
    const emails = ["sam.jones@one.example", "sam.jones@two.example", "zoe@three.example"];
    for (const email of emails) await signUp(ctx, email);
    const rows = await ctx.database.db
      .selectFrom("user")
      .select(["username", "username_key"])
      .where("email", "in", emails)
      .execute();
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.username).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
      expect(r.username.toLowerCase()).not.toContain("sam");
      expect(r.username.toLowerCase()).not.toContain("zoe");
      // A valid username the member could have chosen (so keeping it on the profile form passes).
      expect(usernameSchema.safeParse(r.username).success).toBe(true);
    }
    expect(new Set(rows.map((r) => r.username_key)).size).toBe(3);
  });
});

describeEachDialect("login and reset limits", (dialect) => {
  const ctx = useTestApp(dialect);
  const loginFrom = (remoteAddress: string, email: string, password: string) =>
    ctx.app.inject({ method: "POST", url: "/api/auth/login", remoteAddress, payload: { email, password } });

  // Issue 24: the limit was per account from anywhere, so anyone's ten wrong guesses locked the owner out.
  it("throttles guesses on an account per client with 429 and Retry-After, never locking the owner out", async () => {
    await signUp(ctx, "target@example.com", "owner-pass");
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await loginFrom("10.6.6.6", "target@example.com", `guess-${i}`)).statusCode);
    expect(codes).toEqual([...Array(10).fill(401), 429]);
    const blocked = await loginFrom("10.6.6.6", "target@example.com", "owner-pass");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({ code: "rate_limited", message: MESSAGES.tooManyRequests });
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // The owner, from a client that has not failed: in.
    expect((await loginFrom("10.7.7.7", "target@example.com", "owner-pass")).statusCode).toBe(200);
  });

  it("limits login attempts per IP across accounts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await loginFrom("10.9.9.9", `spray-${i}@example.com`, "guess");
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another client is not affected.
    const other = await loginFrom("10.1.1.1", "spray-x@example.com", "guess");
    expect(other.statusCode).toBe(401);
  });

  it("scales the limits when AUTH_LIMIT_SCALE is set (test environments only)", async () => {
    const scaled = await createTestApp(dialect, { env: { AUTH_LIMIT_SCALE: "2" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push(
          (await post(scaled, "/api/auth/forgot-password", { email: `scaled-${i}@example.com` })).statusCode,
        );
      }
      expect(statuses).toEqual([...Array(20).fill(200), 429]);
    } finally {
      await scaled.close();
    }
  });

  // Issue 24: three requests answered 429 for 15 minutes, so anyone could stop the owner from resetting.
  it("limits reset mails per account silently: the same answer, no more mail, and mail again next window", async () => {
    await signUp(ctx, "reset-me@example.com", "old-pass");
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(ctx, "/api/auth/forgot-password", { email: "reset-me@example.com" });
      expect(res.statusCode).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    const resetMails = () => outboxFor(ctx.dataDir, "reset-me@example.com").filter((m) => m.includes("reset-password"));
    await expect.poll(() => resetMails().length).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(resetMails()).toHaveLength(3);
    // An hour later (the window has run out), the owner gets a link again.
    await ctx.database.db
      .updateTable("rate_limit")
      .set({ expires_at: 0 })
      .where("key", "like", "reset-account:%")
      .execute();
    expect((await post(ctx, "/api/auth/forgot-password", { email: "reset-me@example.com" })).statusCode).toBe(200);
    await expect.poll(() => resetMails().length).toBe(4);
  });
});

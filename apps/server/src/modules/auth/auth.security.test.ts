import { MESSAGES } from "@unheard/shared";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Mailer, MailMessage } from "../../lib/mail.js";
import { getMe } from "../../test/fixtures.js";
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

// Issue 15, item 2: sessions and passwords. What auth.test.ts already covers (logout, single-use reset links,
// other sessions ending on password change, per-account and per-IP login limits, one login refusal for known
// and unknown e-mails) is not repeated here.

/** What a request may add: headers, and the client address it comes from. */
type Extra = { headers?: Record<string, string>; remoteAddress?: string };

const post = (ctx: TestContext, url: string, payload: object, extra: Extra = {}) =>
  ctx.app.inject({ method: "POST", url, payload, ...extra });

const login = (ctx: TestContext, email: string, password: string, extra: Extra = {}) =>
  post(ctx, "/api/auth/login", { email, password }, extra);

/** The token of the newest reset link e-mailed to `email`. */
function resetToken(ctx: TestContext, email: string): string {
  return new URL(lastLink(ctx.dataDir, email, "/reset-password")).searchParams.get("token") ?? "";
}

const resetPassword = (ctx: TestContext, token: string, newPassword: string) =>
  post(ctx, "/api/auth/reset-password", { token, newPassword, confirmPassword: newPassword });

/** The median of a few numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

describeEachDialect("sessions and passwords", (dialect) => {
  const ctx = useTestApp(dialect);

  it("issues a new session id at login and ends the one the browser held before", async () => {
    const before = await signUp(ctx, "fix@example.com", "pass-one");
    const again = await login(ctx, "fix@example.com", "pass-one", { headers: { cookie: before } });
    expect(again.statusCode).toBe(200);
    const after = sessionCookie(again);
    expect(after).not.toBe(before);
    expect((await getMe(ctx, after)).statusCode).toBe(200);
    // The session id the browser came with is dead on the server, not just replaced in the cookie jar.
    expect((await getMe(ctx, before)).statusCode).toBe(401);
    // Signing in as someone else from a browser with a session ends that session too.
    await signUp(ctx, "other@example.com", "pass-two");
    const switched = await login(ctx, "other@example.com", "pass-two", { headers: { cookie: after } });
    expect(switched.statusCode).toBe(200);
    expect((await getMe(ctx, after)).statusCode).toBe(401);
    expect((await getMe(ctx, sessionCookie(switched))).json().email).toBe("other@example.com");
  });

  it("keeps the session when a login attempt from the same browser fails", async () => {
    const cookie = await signUp(ctx, "keep@example.com", "pass-one");
    const wrong = await login(ctx, "keep@example.com", "wrong-pass", { headers: { cookie } });
    expect(wrong.statusCode).toBe(401);
    expect((await getMe(ctx, cookie)).statusCode).toBe(200);
  });

  it("ends the session that changed the password: its old cookie gets 401", async () => {
    const cookie = await signUp(ctx, "chg@example.com", "pass-one");
    const res = await post(
      ctx,
      "/api/auth/change-password",
      { currentPassword: "pass-one", newPassword: "pass-two", confirmPassword: "pass-two" },
      { headers: { cookie } },
    );
    expect(res.statusCode).toBe(200);
    expect((await getMe(ctx, cookie)).statusCode).toBe(401);
    expect((await getMe(ctx, sessionCookie(res))).statusCode).toBe(200);
  });

  it("ends every session of the account when the password is reset by e-mail", async () => {
    const cookie = await signUp(ctx, "rst@example.com", "pass-one");
    await post(ctx, "/api/auth/forgot-password", { email: "rst@example.com" });
    expect((await resetPassword(ctx, resetToken(ctx, "rst@example.com"), "pass-two")).statusCode).toBe(200);
    expect((await getMe(ctx, cookie)).statusCode).toBe(401);
  });

  it("lets a reset link work for one hour only", async () => {
    await signUp(ctx, "hour@example.com", "pass-one");
    const asked = Date.now();
    await post(ctx, "/api/auth/forgot-password", { email: "hour@example.com" });
    const token = resetToken(ctx, "hour@example.com");
    const identifier = `reset-password:${token}`;
    const row = await ctx.database.db
      .selectFrom("verification")
      .select("expires_at")
      .where("identifier", "=", identifier)
      .executeTakeFirstOrThrow();
    const expiresAt = new Date(row.expires_at).getTime();
    expect(Math.abs(expiresAt - asked - 60 * 60 * 1000)).toBeLessThan(60_000);
    // An hour later (the row's expiry moved to just past now): refused, and the old password stays.
    await ctx.database.db
      .updateTable("verification")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("identifier", "=", identifier)
      .execute();
    const late = await resetPassword(ctx, token, "pass-two");
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toEqual({ code: "invalid_token", message: MESSAGES.invalidToken });
    expect((await login(ctx, "hour@example.com", "pass-two")).statusCode).toBe(401);
    expect((await login(ctx, "hour@example.com", "pass-one")).statusCode).toBe(200);
  });

  it("builds reset and verification links from PUBLIC_URL, never from the Host header", async () => {
    const forged = {
      host: "evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      "x-forwarded-port": "443",
    };
    const reg = await post(
      ctx,
      "/api/auth/register",
      {
        email: "host@example.com",
        password: "pass-one",
        confirmPassword: "pass-one",
        callbackURL: "https://evil.example",
      },
      { headers: forged },
    );
    expect(reg.statusCode).toBe(201);
    const verify = new URL(lastLink(ctx.dataDir, "host@example.com", "/api/auth/verify-email"));
    expect(verify.origin).toBe("http://localhost:3000");
    const verified = await ctx.app.inject({
      method: "GET",
      url: `${verify.pathname}${verify.search}&callbackURL=https://evil.example`,
      headers: forged,
    });
    expect(verified.headers.location).toBe("/login?verify=ok");

    const ask = await post(
      ctx,
      "/api/auth/forgot-password",
      { email: "host@example.com", redirectTo: "https://evil.example/steal" },
      { headers: forged },
    );
    expect(ask.statusCode).toBe(200);
    const reset = new URL(lastLink(ctx.dataDir, "host@example.com", "/reset-password"));
    expect(reset.origin).toBe("http://localhost:3000");
    expect(reset.pathname).toBe("/reset-password");
    // No other address anywhere in the messages.
    for (const mail of outboxFor(ctx.dataDir, "host@example.com")) expect(mail).not.toContain("evil.example");
  });

  it("accepts passwords of 128 characters without truncating them", async () => {
    const long = `${"Ab1-".repeat(31)}wxyz`;
    expect(long).toHaveLength(128);
    await signUp(ctx, "long@example.com", long);
    expect((await login(ctx, "long@example.com", long)).statusCode).toBe(200);
    expect((await login(ctx, "long@example.com", `${long.slice(0, 127)}Z`)).statusCode).toBe(401);
    expect((await login(ctx, "long@example.com", long.slice(0, 127))).statusCode).toBe(401);
    expect((await login(ctx, "long@example.com", long.slice(0, 72))).statusCode).toBe(401);
    // Beyond the limit the form answers with a message rather than hashing megabytes.
    const tooLong = await post(ctx, "/api/auth/register", {
      email: "longer@example.com",
      password: `${long}x`,
      confirmPassword: `${long}x`,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe("validation_failed");
  });
});

describeEachDialect("login limits by client network", (dialect) => {
  // At a tenth of the production limits: 3 logins per client IP, 1 per account per window.
  const ctx = useTestApp(dialect, { env: { AUTH_LIMIT_SCALE: "0.1" } });
  let proxied: TestContext;
  beforeAll(async () => {
    proxied = await createTestApp(dialect, { env: { AUTH_LIMIT_SCALE: "0.1", TRUST_PROXY: "true" } });
  });
  afterAll(() => proxied?.close());

  let n = 0;
  /** A login attempt for a fresh account (so only the per-IP limit can trip) from `remoteAddress`. */
  const attempt = (app: TestContext, remoteAddress: string, headers: Record<string, string> = {}) =>
    login(app, `spray-${n++}@example.com`, "guess-guess", { remoteAddress, headers });

  // Issue 24: one account's limit from anywhere let anyone lock its owner out. Now: one try per client while
  // the account is under attack (scale 0.1: a budget of 1 failure, 1 try per client).
  it("throttles each account per client, and lets a client that has not failed through", async () => {
    await signUp(ctx, "acct@example.com", "owner-pass");
    expect((await login(ctx, "acct@example.com", "guess-1", { remoteAddress: "10.0.0.1" })).statusCode).toBe(401);
    const second = await login(ctx, "acct@example.com", "guess-2", { remoteAddress: "10.0.0.1" });
    expect(second.statusCode).toBe(429);
    expect(second.json().error).toEqual({ code: "rate_limited", message: MESSAGES.tooManyRequests });
    // Another client gets its one try while the account is under attack, then waits too.
    expect((await login(ctx, "acct@example.com", "guess-3", { remoteAddress: "10.0.0.2" })).statusCode).toBe(401);
    expect((await login(ctx, "acct@example.com", "guess-4", { remoteAddress: "10.0.0.2" })).statusCode).toBe(429);
    // Case and spacing do not make it another account.
    expect((await login(ctx, " ACCT@example.com ", "guess-5", { remoteAddress: "10.0.0.2" })).statusCode).toBe(429);
    // The owner, from a clean client, is in.
    expect((await login(ctx, "acct@example.com", "owner-pass", { remoteAddress: "10.0.0.3" })).statusCode).toBe(200);
  });

  it("counts IPv6 clients by their /64 network", async () => {
    const statuses = [];
    for (const ip of ["2001:db8:aa:1::1", "2001:db8:aa:1::2", "2001:db8:aa:1:ffff:1:2:3", "2001:db8:aa:1::9"]) {
      statuses.push((await attempt(ctx, ip)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Also written in full, or with another case: still the same network.
    expect((await attempt(ctx, "2001:0DB8:00AA:0001:0:0:0:7")).statusCode).toBe(429);
    // The next /64 has its own count.
    expect((await attempt(ctx, "2001:db8:aa:2::1")).statusCode).toBe(401);
  });

  it("counts IPv4 clients by their address", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt(ctx, "192.0.2.10")).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await attempt(ctx, "192.0.2.11")).statusCode).toBe(401);
  });

  it("ignores a forged X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await attempt(ctx, "198.51.100.7", { "x-forwarded-for": `203.0.113.${i}` })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);

    // Behind a trusted proxy the forwarded address is the client: each gets its own count...
    const behindProxy = [];
    for (let i = 0; i < 4; i++) {
      behindProxy.push((await attempt(proxied, "127.0.0.1", { "x-forwarded-for": `203.0.113.${i}` })).statusCode);
    }
    expect(behindProxy).toEqual([401, 401, 401, 401]);
    // ...and one forwarded address is limited like a direct one.
    const one = [];
    for (let i = 0; i < 4; i++)
      one.push((await attempt(proxied, "127.0.0.1", { "x-forwarded-for": "203.0.113.50" })).statusCode);
    expect(one).toEqual([401, 401, 401, 429]);
  });
});

// Issue 24: ten wrong passwords from any address, then the owner's right one from another address got 429 for
// 15 minutes (admins too). At production limits: guessing is slowed per client, the owner is never locked out.
describeEachDialect("login throttling without lockout", (dialect) => {
  const ctx = useTestApp(dialect);
  const from = (remoteAddress: string, email: string, password: string) =>
    login(ctx, email, password, { remoteAddress });
  const tries = async (remoteAddress: string, email: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await from(remoteAddress, email, `wrong-${i}`)).statusCode);
    return out;
  };

  it("lets the owner (an admin) in from a clean client after 10+ failures from another; the attacker stays throttled", async () => {
    await signUp(ctx, "owner-lock@example.com", "owner-pass");
    await ctx.database.db
      .updateTable("user")
      .set({ role: "super_admin" })
      .where("email", "=", "owner-lock@example.com")
      .execute();
    expect(await tries("203.0.113.66", "owner-lock@example.com", 12)).toEqual([...Array(10).fill(401), 429, 429]);
    const owner = await from("198.51.100.20", "owner-lock@example.com", "owner-pass");
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.role).toBe("super_admin");
    // The attacker's client is still throttled, even holding the right password now.
    expect((await from("203.0.113.66", "owner-lock@example.com", "owner-pass")).statusCode).toBe(429);
    // The owner mistyping once from their clean client is not locked out either: they get in after.
    expect((await from("198.51.100.21", "owner-lock@example.com", "typo")).statusCode).toBe(401);
    expect((await from("198.51.100.20", "owner-lock@example.com", "owner-pass")).statusCode).toBe(200);
  });

  it("gives each other client one guess while the account is under attack", async () => {
    await signUp(ctx, "spread@example.com", "owner-pass");
    expect(await tries("203.0.113.70", "spread@example.com", 10)).toEqual(Array(10).fill(401));
    for (let c = 71; c < 76; c++) expect(await tries(`203.0.113.${c}`, "spread@example.com", 2)).toEqual([401, 429]);
  });

  it("counts guesses sent all at once from one client", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => from("203.0.113.90", "parallel@example.com", `wrong-${i}`)),
    );
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10);
  });

  it("still throttles one client across many accounts (credential stuffing)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push((await from("203.0.113.99", `stuffed-${i}@example.com`, "pw")).statusCode);
    expect(statuses).toEqual([...Array(30).fill(401), 429, 429]);
  });
});

/** A mail server that takes `delayMs` per message, as SMTP may; what it was given, once delivered. */
function slowSmtp(delayMs: number): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    mode: "smtp",
    sent,
    async send(msg) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(msg);
    },
  };
}

describeEachDialect("no account enumeration by answer or timing", (dialect) => {
  // Production-like: mail goes over a slow SMTP server, so a request that waited for it would stand out.
  const MAIL_MS = 300;
  const mailer = slowSmtp(MAIL_MS);
  // Limits far out of the way: these tests repeat the same calls.
  const ctx = useTestApp(dialect, { env: { AUTH_LIMIT_SCALE: "100" }, mailer });
  const ROUNDS = 5;
  // Generous, for a shared machine: medians within 3x of each other, or (for answers of a few milliseconds,
  // where the ratio is mostly noise) within 20 ms, far below the mail server's 300 ms.
  const MAX_RATIO = 3;
  const NOISE_MS = 20;

  type Answer = { status: number; body: string };
  const answer = async (res: Promise<{ statusCode: number; body: string }>): Promise<Answer> => {
    const r = await res;
    return { status: r.statusCode, body: r.body };
  };

  /** Time `ROUNDS` calls of each kind, interleaved so load changes hit both alike; their answers and medians. */
  async function race(what: string, known: (i: number) => Promise<Answer>, unknown: (i: number) => Promise<Answer>) {
    const times = { known: [] as number[], unknown: [] as number[] };
    const answers = { known: [] as Answer[], unknown: [] as Answer[] };
    // One warm-up of each (compiled statements, first hash).
    await known(-1);
    await unknown(-1);
    for (let i = 0; i < ROUNDS; i++) {
      for (const kind of i % 2 ? (["unknown", "known"] as const) : (["known", "unknown"] as const)) {
        const started = performance.now();
        const answer = await (kind === "known" ? known(i) : unknown(i));
        times[kind].push(performance.now() - started);
        answers[kind].push(answer);
      }
    }
    const medians = { known: median(times.known), unknown: median(times.unknown) };
    if (process.env.SHOW_TIMINGS) console.info(`${dialect} ${what} median ms`, medians);
    return { answers, medians };
  }

  function expectAlike(result: Awaited<ReturnType<typeof race>>) {
    const all = [...result.answers.known, ...result.answers.unknown];
    for (const a of all) expect(a).toEqual(all[0]);
    const { known, unknown } = result.medians;
    const ratio = Math.max(known, unknown) / Math.max(Math.min(known, unknown), 0.001);
    expect(ratio < MAX_RATIO || Math.abs(known - unknown) < NOISE_MS, `${known} ms vs ${unknown} ms`).toBe(true);
  }

  /** Register an account; its e-mail is not verified. */
  function register(email: string, password: string) {
    return post(ctx, "/api/auth/register", { email, password, confirmPassword: password });
  }

  /** An account with a verified e-mail (the link went to the slow mail server, so verify in the database). */
  async function account(email: string, password: string) {
    await register(email, password);
    await ctx.database.db.updateTable("user").set({ email_verified: true }).where("email", "=", email).execute();
  }

  /** Wait until the mail server has been handed `n` messages for `to`. */
  async function delivered(to: string, n: number) {
    await expect
      .poll(() => mailer.sent.filter((m) => m.to === to).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(n);
  }

  it("answers login the same, in similar time, for existing and unknown e-mails", async () => {
    await account("timed@example.com", "right-pass");
    // An account that exists but never verified its e-mail, with a wrong password, must not stand out either.
    await register("unverified@example.com", "right-pass");
    const result = await race(
      "login",
      (i) => answer(login(ctx, i % 2 ? "unverified@example.com" : "timed@example.com", `wrong-pass-${i}`)),
      (i) => answer(login(ctx, `nobody-${i}@example.com`, `wrong-pass-${i}`)),
    );
    expect(result.answers.known[0]?.status).toBe(401);
    expectAlike(result);
  });

  it("answers registration the same, in similar time, for existing and new e-mails", async () => {
    await account("taken@example.com", "right-pass");
    const register = (email: string) =>
      answer(post(ctx, "/api/auth/register", { email, password: "some-pass", confirmPassword: "some-pass" }));
    const result = await race(
      "register",
      () => register("taken@example.com"),
      (i) => register(`fresh-${i}@example.com`),
    );
    expect(result.answers.known[0]?.status).toBe(201);
    expectAlike(result);
    // The owner is told, without the answer waiting for the mail server.
    await delivered("taken@example.com", ROUNDS);
  });

  it("answers password reset requests the same, in similar time, for existing and unknown e-mails", async () => {
    await account("forgetful@example.com", "right-pass");
    const result = await race(
      "reset",
      () => answer(post(ctx, "/api/auth/forgot-password", { email: "forgetful@example.com" })),
      (i) => answer(post(ctx, "/api/auth/forgot-password", { email: `ghost-${i}@example.com` })),
    );
    expect(result.answers.known[0]?.status).toBe(200);
    expectAlike(result);
    // Both sides well under the mail server's time: nobody waited for it.
    expect(result.medians.known).toBeLessThan(MAIL_MS);
    await delivered("forgetful@example.com", ROUNDS);
    expect(mailer.sent.some((m) => m.to.startsWith("ghost-"))).toBe(false);
  });

  it("answers a resend of the verification e-mail the same, in similar time, for pending and unknown e-mails", async () => {
    await register("pending@example.com", "p-pass1");
    const result = await race(
      "resend",
      () => answer(post(ctx, "/api/auth/resend-verification", { email: "pending@example.com" })),
      (i) => answer(post(ctx, "/api/auth/resend-verification", { email: `ghost-v-${i}@example.com` })),
    );
    expect(result.answers.known[0]?.status).toBe(200);
    // (Better Auth pads this answer to a fixed minimum time on both sides.)
    expectAlike(result);
    await delivered("pending@example.com", ROUNDS);
  });
});

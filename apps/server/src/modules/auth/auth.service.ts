import { MESSAGES } from "@unheard/shared";
import { isAPIError } from "better-auth/api";
import { AppError } from "../../errors.js";
import { clientKey, type RateLimiter } from "../../lib/rate-limit.js";
import type { Auth } from "./auth.js";

/**
 * Limits for the account flows. Guessing is throttled per client, never by locking the account (issue 24: ten
 * wrong passwords from anywhere locked the owner out for 15 minutes, admins too; three reset requests did the same
 * for resets):
 * - loginIp: attempts from one client, whatever the accounts (credential stuffing);
 * - loginClient: attempts on one account from one client; a success starts it again;
 * - loginAccount: failed attempts on one account from anywhere. Past it the account is under attack and each
 *   client gets one try a window: many clients guess slowly, and the owner, from a client that has not
 *   failed, still signs in;
 * - resetAccount, resendAccount: mails to one account an hour. Past them the answer is the same success, and
 *   no mail goes out: neither a lockout nor a sign that the account exists.
 */
export const AUTH_LIMITS = {
  loginIp: { name: "login-ip", limit: 30, windowSec: 15 * 60 },
  loginClient: { name: "login-client", limit: 10, windowSec: 15 * 60 },
  loginAccount: { name: "login-account", limit: 10, windowSec: 15 * 60 },
  registerIp: { name: "register-ip", limit: 20, windowSec: 60 * 60 },
  resetIp: { name: "reset-ip", limit: 10, windowSec: 15 * 60 },
  resetAccount: { name: "reset-account", limit: 3, windowSec: 60 * 60 },
  resendIp: { name: "resend-ip", limit: 10, windowSec: 15 * 60 },
  resendAccount: { name: "resend-account", limit: 3, windowSec: 60 * 60 },
  changePassword: { name: "change-password", limit: 10, windowSec: 15 * 60 },
} as const;

type AuthLimit = (typeof AUTH_LIMITS)[keyof typeof AUTH_LIMITS];

/** Better Auth's answer code, when the error is one of its own. */
function authCode(err: unknown): string | undefined {
  if (!isAPIError(err)) return undefined;
  const body = err.body as { code?: string } | undefined;
  return body?.code;
}

/** A Better Auth call's result plus the Set-Cookie headers to pass on. */
type WithCookies<T> = { result: T; setCookie: string[] };

function cookiesOf(headers: Headers | undefined): string[] {
  return headers?.getSetCookie?.() ?? [];
}

/** The account rules around Better Auth: limits, enumeration-safe answers, spec §8 messages. */
export function createAuthService(deps: { auth: Auth; limiter: RateLimiter; limitScale?: number }) {
  const { auth } = deps;
  const scale = deps.limitScale ?? 1;
  // Test environments may scale every account limit up; production runs at 1.
  const scaled = (rule: AuthLimit) => ({ ...rule, limit: Math.ceil(rule.limit * scale) });
  const limiter = {
    hit: (rule: AuthLimit, subject: string) => deps.limiter.hit(scaled(rule), subject),
    // Per-client limits count an IPv6 client by its /64 (see clientKey).
    hitIp: (rule: AuthLimit, ip: string) => deps.limiter.hit(scaled(rule), clientKey(ip)),
    /** Count a mail to an account; false once past the rule's limit (then no mail goes out, silently). */
    mayMail: async (rule: AuthLimit, email: string) => (await deps.limiter.record(rule, email)) <= scaled(rule).limit,
  };
  return {
    /**
     * Create an account. `username` is the name the member chose (issue 38), checked by `checkName` once the
     * address's budget allows the attempt; without one the account gets a neutral handle (auth.ts).
     */
    async register(
      input: { email: string; password: string; username?: string | undefined },
      ip: string,
      headers: Headers,
      checkName?: () => Promise<void>,
    ): Promise<void> {
      await limiter.hitIp(AUTH_LIMITS.registerIp, ip);
      await checkName?.();
      try {
        // Same answer for new and existing e-mails (Better Auth hashes in both cases; see auth.ts). The chosen
        // name travels as Better Auth's `name`, which the user hook turns into the username.
        await auth.api.signUpEmail({
          body: { email: input.email, password: input.password, name: input.username ?? "" },
          headers,
        });
      } catch (err) {
        // Two registrations racing for one name: the unique index decides, and Better Auth hides its error behind
        // "failed to create user". The name, looked at again, tells whether that was the race.
        if (checkName && authCode(err) === "FAILED_TO_CREATE_USER") await checkName();
        throw mapError(err, "bad_request", MESSAGES.registerFailed);
      }
    },

    async login(
      input: { email: string; password: string },
      ip: string,
      headers: Headers,
    ): Promise<WithCookies<{ userId: string }>> {
      await limiter.hitIp(AUTH_LIMITS.loginIp, ip);
      // Attempts on this account from this client, counted before the attempt so parallel guesses count too.
      const pair = `${input.email}|${clientKey(ip)}`;
      const tries = await limiter.hit(AUTH_LIMITS.loginClient, pair);
      // Under attack (failures from anywhere past the budget), a client gets its first try only: a clean
      // client, the owner's, still gets through with the right password; a guessing one waits for its window.
      if (
        tries > 1 &&
        (await deps.limiter.peek(AUTH_LIMITS.loginAccount, input.email)) >= scaled(AUTH_LIMITS.loginAccount).limit
      )
        await deps.limiter.refuse(AUTH_LIMITS.loginClient, pair);
      // The session this browser already holds, if any: it ends once the new one exists, so a session id
      // never outlives a sign-in (a planted or leaked one is worthless afterwards).
      const previous = await auth.api.getSession({ headers });
      let signedIn: { headers: Headers; response: { user: { id: string } } };
      try {
        signedIn = await auth.api.signInEmail({
          body: { email: input.email, password: input.password, rememberMe: true },
          headers,
          returnHeaders: true,
        });
      } catch (err) {
        const code = authCode(err);
        if (code === "EMAIL_NOT_VERIFIED") throw new AppError("email_not_verified", MESSAGES.emailNotVerified);
        if (code === "INVALID_EMAIL_OR_PASSWORD") {
          // Known and unknown e-mails alike (no enumeration by timing or by limits).
          await deps.limiter.record(AUTH_LIMITS.loginAccount, input.email);
          throw new AppError("invalid_credentials", MESSAGES.loginFailed);
        }
        throw mapError(err, "invalid_credentials", MESSAGES.loginFailed);
      }
      if (previous) await auth.api.revokeSession({ body: { token: previous.session.token }, headers });
      // The owner got in from this client: its earlier failures no longer count against it.
      await deps.limiter.reset(AUTH_LIMITS.loginClient, pair);
      return { result: { userId: signedIn.response.user.id }, setCookie: cookiesOf(signedIn.headers) };
    },

    async logout(headers: Headers): Promise<string[]> {
      try {
        const { headers: out } = await auth.api.signOut({ headers, returnHeaders: true });
        return cookiesOf(out);
      } catch (err) {
        // Signing out without a session is already the wanted state.
        if (isAPIError(err)) return [];
        throw err;
      }
    },

    async resendVerification(email: string, ip: string): Promise<void> {
      await limiter.hitIp(AUTH_LIMITS.resendIp, ip);
      // Past the account's mails an hour: the same answer, and no mail (not a lockout, not an oracle).
      if (!(await limiter.mayMail(AUTH_LIMITS.resendAccount, email))) return;
      try {
        await auth.api.sendVerificationEmail({ body: { email } });
      } catch (err) {
        // Unknown or already verified e-mails answer like the rest (no enumeration).
        if (!isAPIError(err)) throw err;
      }
    },

    async verifyEmail(token: string): Promise<void> {
      try {
        await auth.api.verifyEmail({ query: { token } });
      } catch (err) {
        throw mapError(err, "invalid_token", MESSAGES.invalidToken);
      }
    },

    async forgotPassword(email: string, ip: string, redirectTo: string): Promise<void> {
      await limiter.hitIp(AUTH_LIMITS.resetIp, ip);
      // Past the account's mails an hour: the same success, and no mail. A 429 here locked the owner out of
      // resets whenever anyone asked three times, and told them the limit was reached.
      if (!(await limiter.mayMail(AUTH_LIMITS.resetAccount, email))) return;
      try {
        await auth.api.requestPasswordReset({ body: { email, redirectTo } });
      } catch (err) {
        throw mapError(err, "bad_request", MESSAGES.resetFailed);
      }
    },

    async resetPassword(token: string, newPassword: string, ip: string): Promise<void> {
      await limiter.hitIp(AUTH_LIMITS.resetIp, ip);
      try {
        await auth.api.resetPassword({ body: { token, newPassword } });
      } catch (err) {
        throw mapError(err, "invalid_token", MESSAGES.invalidToken);
      }
    },

    async changePassword(
      userId: string,
      input: { currentPassword: string; newPassword: string },
      headers: Headers,
    ): Promise<string[]> {
      await limiter.hit(AUTH_LIMITS.changePassword, userId);
      try {
        const { headers: out } = await auth.api.changePassword({
          body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
          headers,
          returnHeaders: true,
        });
        return cookiesOf(out);
      } catch (err) {
        if (authCode(err) === "INVALID_PASSWORD") {
          throw new AppError("validation_failed", MESSAGES.currentPasswordWrong, {
            fields: { currentPassword: MESSAGES.currentPasswordWrong },
          });
        }
        throw mapError(err, "bad_request", MESSAGES.profileUpdateFailed);
      }
    },

    /** The signed-in user's id, or undefined for visitors. */
    async sessionUserId(headers: Headers): Promise<string | undefined> {
      const session = await auth.api.getSession({ headers });
      return session?.user.id;
    },
  };
}

/** The auth service type. */
export type AuthService = ReturnType<typeof createAuthService>;

/** Better Auth's expected refusals become AppErrors; anything else is a real failure and bubbles up. */
function mapError(err: unknown, code: "bad_request" | "invalid_token" | "invalid_credentials", message: string): Error {
  if (err instanceof AppError) return err;
  if (isAPIError(err)) {
    const status = err.statusCode;
    if (status >= 400 && status < 500) return new AppError(code, message);
  }
  return err instanceof Error ? err : new Error(String(err));
}

import { MESSAGES } from "@unheard/shared";
import { isAPIError } from "better-auth/api";
import { AppError } from "../../errors.js";
import { clientKey, type RateLimiter } from "../../lib/rate-limit.js";
import type { Auth } from "./auth.js";

/** Limits for the account flows: per client IP and per account. */
export const AUTH_LIMITS = {
  loginIp: { name: "login-ip", limit: 30, windowSec: 15 * 60 },
  loginAccount: { name: "login-account", limit: 10, windowSec: 15 * 60 },
  registerIp: { name: "register-ip", limit: 20, windowSec: 60 * 60 },
  resetIp: { name: "reset-ip", limit: 10, windowSec: 15 * 60 },
  resetAccount: { name: "reset-account", limit: 3, windowSec: 15 * 60 },
  resendIp: { name: "resend-ip", limit: 10, windowSec: 15 * 60 },
  resendAccount: { name: "resend-account", limit: 3, windowSec: 15 * 60 },
  changePassword: { name: "change-password", limit: 10, windowSec: 15 * 60 },
} as const;

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
  const limiter = {
    hit: (rule: (typeof AUTH_LIMITS)[keyof typeof AUTH_LIMITS], subject: string) =>
      deps.limiter.hit({ ...rule, limit: Math.ceil(rule.limit * scale) }, subject),
    // Per-client limits count an IPv6 client by its /64 (see clientKey).
    hitIp: (rule: (typeof AUTH_LIMITS)[keyof typeof AUTH_LIMITS], ip: string) =>
      deps.limiter.hit({ ...rule, limit: Math.ceil(rule.limit * scale) }, clientKey(ip)),
  };
  return {
    async register(input: { email: string; password: string }, ip: string, headers: Headers): Promise<void> {
      await limiter.hitIp(AUTH_LIMITS.registerIp, ip);
      try {
        // Same answer for new and existing e-mails (Better Auth hashes in both cases; see auth.ts).
        await auth.api.signUpEmail({ body: { email: input.email, password: input.password, name: "" }, headers });
      } catch (err) {
        throw mapError(err, "bad_request", MESSAGES.registerFailed);
      }
    },

    async login(
      input: { email: string; password: string },
      ip: string,
      headers: Headers,
    ): Promise<WithCookies<{ userId: string }>> {
      await limiter.hitIp(AUTH_LIMITS.loginIp, ip);
      await limiter.hit(AUTH_LIMITS.loginAccount, input.email);
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
        if (code === "INVALID_EMAIL_OR_PASSWORD") throw new AppError("invalid_credentials", MESSAGES.loginFailed);
        throw mapError(err, "invalid_credentials", MESSAGES.loginFailed);
      }
      if (previous) await auth.api.revokeSession({ body: { token: previous.session.token }, headers });
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
      await limiter.hit(AUTH_LIMITS.resendAccount, email);
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
      await limiter.hit(AUTH_LIMITS.resetAccount, email);
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

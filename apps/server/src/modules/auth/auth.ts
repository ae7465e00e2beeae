import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@unheard/shared";
import { betterAuth } from "better-auth";
import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import { newId } from "../../lib/ids.js";
import type { Mailer, MailMessage } from "../../lib/mail.js";
import { nameKey } from "../../lib/text.js";
import { createUsersRepo } from "../users/users.repo.js";
import { authMails } from "./auth.mails.js";

/** A session lasts 30 days... */
export const SESSION_EXPIRES_IN_SEC = 60 * 60 * 24 * 30;
/** ...and is extended when it is used more than a day after it was last extended. */
export const SESSION_UPDATE_AGE_SEC = 60 * 60 * 24;
/** Better Auth's session cookie, with our prefix. */
export const SESSION_COOKIE = "unheard.session_token";

/** Better Auth on our own database, with our snake_case columns and our mail. */
export function createAuth(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  onMailError?: (err: unknown, msg: MailMessage) => void;
}) {
  const { config, database, mailer } = deps;
  const users = createUsersRepo(database);
  const mails = authMails(config);
  // Over SMTP a message takes as long as the mail server likes. Answers must not wait for it: only existing
  // accounts get a reset or verification mail, so the wait would tell which e-mails have one. The outbox
  // (development, tests) is a quick local write, done before answering so the link is there with the answer.
  const send = async (msg: MailMessage): Promise<void> => {
    if (mailer.mode !== "smtp") return mailer.send(msg);
    mailer.send(msg).catch((err) => deps.onMailError?.(err, msg));
  };
  const ts = { createdAt: "created_at", updatedAt: "updated_at" };
  return betterAuth({
    appName: "Unheard",
    baseURL: config.publicUrl,
    secret: config.authSecret,
    database: { db: database.db, type: database.dialect },
    telemetry: { enabled: false },
    // Limits are ours (database-backed, shared by all instances); see lib/rate-limit.ts.
    rateLimit: { enabled: false },
    logger: { disabled: config.env === "test" },
    user: {
      fields: { emailVerified: "email_verified", ...ts },
      additionalFields: {
        username: { type: "string", required: false, input: false },
        usernameKey: { type: "string", required: false, input: false, fieldName: "username_key" },
        offWaitlist: { type: "boolean", required: false, input: false, fieldName: "off_waitlist" },
      },
    },
    session: {
      fields: { expiresAt: "expires_at", ipAddress: "ip_address", userAgent: "user_agent", userId: "user_id", ...ts },
      expiresIn: SESSION_EXPIRES_IN_SEC,
      updateAge: SESSION_UPDATE_AGE_SEC,
    },
    account: {
      fields: {
        accountId: "account_id",
        providerId: "provider_id",
        userId: "user_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        ...ts,
      },
    },
    verification: { fields: { expiresAt: "expires_at", ...ts } },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => send(mails.resetPassword(user.email, token)),
      // Registering an e-mail that exists answers like a new sign-up; the owner gets a notice instead.
      onExistingUserSignUp: async ({ user }) => send(mails.existingAccount(user.email)),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, token }) => send(mails.verifyEmail(user.email, token)),
    },
    advanced: {
      cookiePrefix: "unheard",
      useSecureCookies: config.publicUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      database: { generateId: () => newId() },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            // The name the member chose at registration (checked by the route; the unique index settles a race),
            // else a neutral handle.
            const chosen = user.name?.trim();
            const username = chosen ? { name: chosen, key: nameKey(chosen) } : await users.freeUsername();
            const offWaitlist = await users.isApprovedEmail(user.email);
            return {
              data: { ...user, name: username.name, username: username.name, usernameKey: username.key, offWaitlist },
            };
          },
        },
      },
      session: {
        create: {
          after: async (session) => {
            await users.onSignIn(session.userId, config.superAdminEmail);
          },
        },
      },
    },
  });
}

/** The Better Auth instance type. */
export type Auth = ReturnType<typeof createAuth>;

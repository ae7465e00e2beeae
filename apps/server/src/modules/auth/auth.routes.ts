import {
  changePasswordSchema,
  emailOnlySchema,
  loginSchema,
  MESSAGES,
  meSchema,
  okSchema,
  registerResultSchema,
  registerSchema,
  resetPasswordSchema,
  verifyEmailQuerySchema,
} from "@unheard/shared";
import { z } from "zod";
import type { Config } from "../../config.js";
import { type App, requireUserId, setCookies, webHeaders } from "../../http.js";
import { deviceOf, ipPrefix } from "../../lib/client-origin.js";
import { routeOptions } from "../../lib/route-schemas.js";
import type { UsersService } from "../users/users.service.js";
import type { AuthService } from "./auth.service.js";

const tags = ["auth"];
const options = routeOptions(tags, 400, 401, 403, 429);

/** Account routes: register, verify, login, logout, reset and change password. */
export function authRoutes(app: App, deps: { authService: AuthService; usersService: UsersService; config: Config }) {
  const { authService, usersService, config } = deps;

  app.post("/api/auth/register", options(registerResultSchema, { body: registerSchema }, 201), async (req, reply) => {
    // A second of slack: a timestamp column may keep less precision than the clock.
    const since = new Date(Date.now() - 1000).toISOString();
    const { username, email } = req.body;
    // A chosen name obeys the rename rules (artists' names, look-alikes, the e-mail's local part; issue 38).
    const checkName =
      username === undefined
        ? undefined
        : async () => {
            const refused = await usersService.refuseNewUsername(username, email);
            if (refused) throw refused;
          };
    await authService.register(req.body, req.ip, webHeaders(req), checkName);
    // Where the account signed up, for the admins' ring view (decision 015).
    await usersService.recordSignup(req.body.email, since, {
      ipPrefix: ipPrefix(req.ip),
      device: deviceOf(req, reply),
    });
    // Whether new accounts wait on the waitlist: the site's setting, the same for every address (an approved
    // address is let straight in, which the answer must not tell).
    return reply.status(201).send({ ok: true, message: MESSAGES.registerSuccess, waitlist: config.waitlistGate });
  });

  app.post(
    "/api/auth/login",
    options(z.object({ ok: z.literal(true), message: z.string(), user: meSchema }), { body: loginSchema }),
    async (req, reply) => {
      const { result, setCookie } = await authService.login(req.body, req.ip, webHeaders(req));
      setCookies(reply, setCookie);
      return { ok: true as const, message: MESSAGES.loginSuccess, user: await usersService.me(result.userId) };
    },
  );

  app.post("/api/auth/logout", { schema: { tags, response: { 200: okSchema } } }, async (req, reply) => {
    setCookies(reply, await authService.logout(webHeaders(req)));
    return { ok: true as const, message: MESSAGES.logoutSuccess };
  });

  app.post("/api/auth/resend-verification", options(okSchema, { body: emailOnlySchema }), async (req) => {
    await authService.resendVerification(req.body.email, req.ip);
    return { ok: true as const, message: MESSAGES.verificationSent };
  });

  // The link in the verification e-mail: verifies, then lands on the login page (works from curl too).
  app.get("/api/auth/verify-email", options(okSchema, { querystring: verifyEmailQuerySchema }), async (req, reply) => {
    const wantsJson = (req.headers.accept ?? "").includes("application/json");
    try {
      await authService.verifyEmail(req.query.token);
    } catch (err) {
      if (wantsJson) throw err;
      return reply.redirect("/login?verify=failed", 302);
    }
    if (wantsJson) return { ok: true as const, message: MESSAGES.emailVerified };
    return reply.redirect("/login?verify=ok", 302);
  });

  app.post("/api/auth/forgot-password", options(okSchema, { body: emailOnlySchema }), async (req) => {
    await authService.forgotPassword(req.body.email, req.ip, `${config.publicUrl}/reset-password`);
    return { ok: true as const, message: MESSAGES.resetSent };
  });

  app.post("/api/auth/reset-password", options(okSchema, { body: resetPasswordSchema }), async (req) => {
    await authService.resetPassword(req.body.token, req.body.newPassword, req.ip);
    return { ok: true as const, message: MESSAGES.passwordUpdated };
  });

  app.post("/api/auth/change-password", options(okSchema, { body: changePasswordSchema }), async (req, reply) => {
    const userId = await requireUserId(req, authService.sessionUserId);
    setCookies(reply, await authService.changePassword(userId, req.body, webHeaders(req)));
    return { ok: true as const, message: MESSAGES.passwordUpdated };
  });
}

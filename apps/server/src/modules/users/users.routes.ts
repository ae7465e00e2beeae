import { errorBodySchema, meSchema, updateProfileSchema } from "@unheard/shared";
import { z } from "zod";
import { AppError } from "../../errors.js";
import { type App, requireUserId, webHeaders } from "../../http.js";

import type { AuthService } from "../auth/auth.service.js";
import type { UsersService } from "./users.service.js";

/** The signed-in user's own profile. */
export function usersRoutes(app: App, deps: { authService: AuthService; usersService: UsersService }) {
  const { authService, usersService } = deps;
  const tags = ["users"];

  app.get("/api/me", { schema: { tags, response: { 200: meSchema, 401: errorBodySchema } } }, async (req) => {
    return usersService.me(await requireUserId(req, authService.sessionUserId));
  });

  // "Who am I" for the web app: a visitor is an answer, not an error, so visitors get { user: null } rather than a
  // 401 and a page load logs no error (issue 38). A session whose account is gone is a visitor too; any other
  // failure is the server's and answers as one (the app then keeps the profile it last knew).
  app.get(
    "/api/session",
    { schema: { tags, response: { 200: z.object({ user: meSchema.nullable() }) } } },
    async (req) => {
      const id = await authService.sessionUserId(webHeaders(req));
      if (!id) return { user: null };
      try {
        return { user: await usersService.me(id) };
      } catch (err) {
        if (err instanceof AppError && err.code === "unauthorized") return { user: null };
        throw err;
      }
    },
  );

  app.patch(
    "/api/me",
    {
      schema: {
        tags,
        body: updateProfileSchema,
        response: {
          200: meSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (req) => {
      const userId = await requireUserId(req, authService.sessionUserId);
      return usersService.updateProfile(userId, req.body);
    },
  );
}

import { errorBodySchema, meSchema, updateProfileSchema } from "@unheard/shared";
import { z } from "zod";
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

  // Visitors get { user: null } rather than a 401, so a page load logs no error.
  app.get(
    "/api/session",
    { schema: { tags, response: { 200: z.object({ user: meSchema.nullable() }) } } },
    async (req) => {
      const id = await authService.sessionUserId(webHeaders(req));
      return { user: id ? await usersService.me(id).catch(() => null) : null };
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

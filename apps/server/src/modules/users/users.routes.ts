import { errorBodySchema, meSchema, updateProfileSchema } from "@unheard/shared";
import { type App, requireUserId } from "../../http.js";
import type { AuthService } from "../auth/auth.service.js";
import type { UsersService } from "./users.service.js";

/** The signed-in user's own profile. */
export function usersRoutes(app: App, deps: { authService: AuthService; usersService: UsersService }) {
  const { authService, usersService } = deps;
  const tags = ["users"];

  app.get("/api/me", { schema: { tags, response: { 200: meSchema, 401: errorBodySchema } } }, async (req) => {
    return usersService.me(await requireUserId(req, authService.sessionUserId));
  });

  app.patch(
    "/api/me",
    {
      schema: {
        tags,
        body: updateProfileSchema,
        response: { 200: meSchema, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => {
      const userId = await requireUserId(req, authService.sessionUserId);
      return usersService.updateProfile(userId, req.body);
    },
  );
}

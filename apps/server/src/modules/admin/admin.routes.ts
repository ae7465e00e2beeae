import { adminUserListSchema, auditListSchema, MESSAGES, okSchema, setRoleSchema } from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { errorResponses, idParams } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { AdminService } from "./admin.service.js";

const errors = errorResponses(400, 401, 403, 404);

/** Users and roles for admins; the audit log for super admins. */
export function adminRoutes(app: App, deps: { admin: AdminService; viewers: ViewerResolver }) {
  const { admin, viewers } = deps;
  const tags = ["admin"];

  app.get(
    "/api/admin/users",
    {
      schema: {
        tags,
        querystring: z.object({ q: z.string().max(100).optional() }),
        response: { 200: adminUserListSchema, ...errors },
      },
    },
    async (req) => {
      await viewers.admin(req);
      return { items: await admin.users(req.query.q) };
    },
  );

  app.put(
    "/api/admin/users/:id/role",
    { schema: { tags, params: idParams, body: setRoleSchema, response: { 200: okSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      await admin.setRole(viewer, req.params.id, req.body.role);
      return { ok: true as const, message: MESSAGES.roleUpdated };
    },
  );

  app.get("/api/admin/audit", { schema: { tags, response: { 200: auditListSchema, ...errors } } }, async (req) => {
    await viewers.superAdmin(req);
    return { items: await admin.auditLog() };
  });
}

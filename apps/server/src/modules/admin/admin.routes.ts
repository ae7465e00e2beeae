import {
  adminUserListSchema,
  auditListSchema,
  MESSAGES,
  okSchema,
  QUEUE_PAGE_SIZE,
  setRoleSchema,
} from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { AdminService } from "./admin.service.js";

const options = routeOptions(["admin"], 400, 401, 403, 404);

/** Users and roles for admins; the audit log for super admins. */
export function adminRoutes(app: App, deps: { admin: AdminService; viewers: ViewerResolver }) {
  const { admin, viewers } = deps;

  app.get(
    "/api/admin/users",
    options(adminUserListSchema, { querystring: z.object({ q: z.string().max(100).optional() }) }),
    async (req) => {
      await viewers.admin(req);
      return { items: await admin.users(req.query.q) };
    },
  );

  app.put("/api/admin/users/:id/role", options(okSchema, { params: idParams, body: setRoleSchema }), async (req) => {
    const viewer = await viewers.permitted(req, "canManageAdmins", MESSAGES.noPermissionAdmins);
    await admin.setRole(viewer, req.params.id, req.body.role);
    return { ok: true as const, message: MESSAGES.roleUpdated };
  });

  app.get(
    "/api/admin/audit",
    options(auditListSchema, { querystring: pageQuery(100, QUEUE_PAGE_SIZE) }),
    async (req) => {
      await viewers.superAdmin(req);
      return admin.auditLog(req.query.cursor, req.query.limit);
    },
  );
}

import {
  importBatchSchema,
  okSchema,
  SYNC_MESSAGES,
  trackerLinkInputSchema,
  trackerLinkListSchema,
  trackerLinkPatchSchema,
  trackerLinkSchema,
} from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import type { App } from "../../http.js";
import { idParams, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { TrackerSyncService } from "./sync.service.js";

const options = routeOptions(["tracker sync"], 400, 401, 403, 404, 409);

/**
 * Trackers linked to published sheets (issue 37): admins who may import link, change, pause, sync now, approve and
 * reject (decision 030); the artist's own account may not (a sheet link lets its holder rewrite the tracker).
 */
export function trackerSyncRoutes(app: App, deps: { sync: TrackerSyncService; viewers: ViewerResolver }) {
  const { sync, viewers } = deps;
  const importer = (req: FastifyRequest) => viewers.permitted(req, "canBulkImport", SYNC_MESSAGES.noPermission);

  app.get("/api/tracker-links", options(trackerLinkListSchema), async (req) => {
    await importer(req);
    return { items: await sync.list() };
  });

  app.post(
    "/api/tracker-links",
    options(trackerLinkSchema, { body: trackerLinkInputSchema }, 201),
    async (req, reply) => {
      const viewer = await importer(req);
      return reply.status(201).send(await sync.create(viewer, req.body));
    },
  );

  app.get("/api/tracker-links/:id", options(trackerLinkSchema, { params: idParams }), async (req) => {
    await importer(req);
    return sync.link(req.params.id);
  });

  app.put(
    "/api/tracker-links/:id",
    options(trackerLinkSchema, { params: idParams, body: trackerLinkInputSchema }),
    async (req) => sync.replace(await importer(req), req.params.id, req.body),
  );

  app.patch(
    "/api/tracker-links/:id",
    options(trackerLinkSchema, { params: idParams, body: trackerLinkPatchSchema }),
    async (req) => sync.patch(await importer(req), req.params.id, req.body),
  );

  app.delete("/api/tracker-links/:id", options(okSchema, { params: idParams }), async (req) => {
    await sync.remove(await importer(req), req.params.id);
    return { ok: true as const, message: "Tracker unlinked" };
  });

  app.post("/api/tracker-links/:id/sync", options(trackerLinkSchema, { params: idParams }), async (req) => {
    await importer(req);
    return sync.syncNow(req.params.id);
  });

  app.post("/api/imports/:id/approve", options(importBatchSchema, { params: idParams }), async (req) =>
    sync.approve(await importer(req), req.params.id),
  );

  app.post("/api/imports/:id/reject", options(importBatchSchema, { params: idParams }), async (req) =>
    sync.reject(await importer(req), req.params.id),
  );
}

import {
  hideSongSchema,
  MESSAGES,
  okSchema,
  processReportSchema,
  QUEUE_PAGE_SIZE,
  reportInputSchema,
  reportListSchema,
} from "@unheard/shared";
import type { App } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { ReportsService } from "./reports.service.js";

const options = routeOptions(["moderation"], 400, 401, 403, 404, 409);

/** Reporting songs, and the admin's report queue. */
export function reportsRoutes(app: App, deps: { reportsService: ReportsService; viewers: ViewerResolver }) {
  const { reportsService, viewers } = deps;

  app.post(
    "/api/songs/:id/reports",
    options(okSchema, { params: idParams, body: reportInputSchema }, 201),
    async (req, reply) => {
      const viewer = await viewers.member(req, MESSAGES.loginToReport);
      await reportsService.create(viewer, req.params.id, req.body);
      return reply.status(201).send({ ok: true as const, message: MESSAGES.reportSent });
    },
  );

  app.get("/api/reports", options(reportListSchema, { querystring: pageQuery(100, QUEUE_PAGE_SIZE) }), async (req) => {
    await viewers.permitted(req, "canManageReports", MESSAGES.noPermissionReports);
    return reportsService.pending(req.query.cursor, req.query.limit);
  });

  app.post(
    "/api/reports/:id/process",
    options(okSchema, { params: idParams, body: processReportSchema }),
    async (req) => {
      const viewer = await viewers.permitted(req, "canManageReports", MESSAGES.noPermissionReports);
      return { ok: true as const, message: await reportsService.process(viewer, req.params.id, req.body.action) };
    },
  );

  // The clip a reporter attached from Identify, for admins who handle reports; never cached.
  app.get(
    "/api/reports/:id/clip",
    {
      schema: { tags: ["moderation"], summary: "The clip a reporter attached from Identify (audio)", params: idParams },
    },
    async (req, reply) => {
      await viewers.permitted(req, "canManageReports", MESSAGES.noPermissionReports);
      const clip = await reportsService.clip(req.params.id);
      return reply
        .header("content-type", clip.mime)
        .header("content-length", String(clip.size))
        .header("cache-control", "private, no-store")
        .header("content-disposition", "inline")
        .send(clip.stream);
    },
  );

  app.put("/api/songs/:id/hidden", options(okSchema, { params: idParams, body: hideSongSchema }), async (req) => {
    const viewer = await viewers.permitted(req, "canManageReports", MESSAGES.noPermissionReports);
    await reportsService.setHidden(viewer, req.params.id, req.body.hidden);
    return { ok: true as const, message: req.body.hidden ? MESSAGES.songHidden : MESSAGES.songUnhidden };
  });
}

import {
  hideSongSchema,
  MESSAGES,
  okSchema,
  processReportSchema,
  reportInputSchema,
  reportListSchema,
} from "@unheard/shared";
import type { App } from "../../http.js";
import { errorResponses, idParams } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { ReportsService } from "./reports.service.js";

const errors = errorResponses(400, 401, 403, 404, 409);

/** Reporting songs, and the admin's report queue. */
export function reportsRoutes(app: App, deps: { reportsService: ReportsService; viewers: ViewerResolver }) {
  const { reportsService, viewers } = deps;
  const tags = ["moderation"];

  app.post(
    "/api/songs/:id/reports",
    { schema: { tags, params: idParams, body: reportInputSchema, response: { 201: okSchema, ...errors } } },
    async (req, reply) => {
      const viewer = await viewers.member(req, MESSAGES.loginToReport);
      await reportsService.create(viewer, req.params.id, req.body);
      return reply.status(201).send({ ok: true as const, message: MESSAGES.reportSent });
    },
  );

  app.get("/api/reports", { schema: { tags, response: { 200: reportListSchema, ...errors } } }, async (req) => {
    await viewers.admin(req);
    return { items: await reportsService.pending() };
  });

  app.post(
    "/api/reports/:id/process",
    { schema: { tags, params: idParams, body: processReportSchema, response: { 200: okSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      return { ok: true as const, message: await reportsService.process(viewer, req.params.id, req.body.action) };
    },
  );

  app.put(
    "/api/songs/:id/hidden",
    { schema: { tags, params: idParams, body: hideSongSchema, response: { 200: okSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      await reportsService.setHidden(viewer, req.params.id, req.body.hidden);
      return { ok: true as const, message: req.body.hidden ? MESSAGES.songHidden : MESSAGES.songUnhidden };
    },
  );
}

import { notificationPageSchema, notificationSettingsSchema } from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { errorResponses, idParams, pageQuery } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { Notifier } from "./notifications.service.js";

const errors = errorResponses(400, 401);

/** The signed-in user's notifications and their settings. */
export function notificationsRoutes(app: App, deps: { notifier: Notifier; viewers: ViewerResolver }) {
  const { notifier, viewers } = deps;
  const tags = ["notifications"];

  app.get(
    "/api/notifications",
    {
      schema: {
        tags,
        querystring: pageQuery(50, 20),
        response: { 200: notificationPageSchema, ...errors },
      },
    },
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return notifier.list(viewer.id, req.query.cursor, req.query.limit);
    },
  );

  app.post(
    "/api/notifications/:id/read",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: z.object({ unread: z.number() }), ...errors },
      },
    },
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return { unread: await notifier.markRead(viewer.id, req.params.id === "all" ? "all" : req.params.id) };
    },
  );

  app.get(
    "/api/me/notification-settings",
    { schema: { tags, response: { 200: notificationSettingsSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return notifier.settings(viewer.id);
    },
  );

  app.put(
    "/api/me/notification-settings",
    { schema: { tags, body: notificationSettingsSchema, response: { 200: notificationSettingsSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return notifier.saveSettings(viewer.id, req.body);
    },
  );
}

import { notificationPageSchema, notificationSettingsSchema } from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { Notifier } from "./notifications.service.js";

const options = routeOptions(["notifications"], 400, 401);

/** The signed-in user's notifications and their settings. */
export function notificationsRoutes(app: App, deps: { notifier: Notifier; viewers: ViewerResolver }) {
  const { notifier, viewers } = deps;

  app.get("/api/notifications", options(notificationPageSchema, { querystring: pageQuery(50, 20) }), async (req) => {
    const viewer = await viewers.signedIn(req);
    return notifier.list(viewer.id, req.query.cursor, req.query.limit);
  });

  app.post(
    "/api/notifications/:id/read",
    options(z.object({ unread: z.number() }), { params: idParams }),
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return { unread: await notifier.markRead(viewer.id, req.params.id === "all" ? "all" : req.params.id) };
    },
  );

  app.get("/api/me/notification-settings", options(notificationSettingsSchema), async (req) => {
    const viewer = await viewers.signedIn(req);
    return notifier.settings(viewer.id);
  });

  app.put(
    "/api/me/notification-settings",
    options(notificationSettingsSchema, { body: notificationSettingsSchema }),
    async (req) => {
      const viewer = await viewers.signedIn(req);
      return notifier.saveSettings(viewer.id, req.body);
    },
  );
}

import {
  MESSAGES,
  okSchema,
  QUEUE_PAGE_SIZE,
  waitlistApproveResultSchema,
  waitlistJoinSchema,
  waitlistListSchema,
} from "@unheard/shared";
import type { App } from "../../http.js";
import { clientKey, type RateLimiter } from "../../lib/rate-limit.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { WaitlistService } from "./waitlist.service.js";

const options = routeOptions(["waitlist"], 400, 401, 403, 404, 429);
const JOIN_LIMIT = { name: "waitlist-ip", limit: 20, windowSec: 60 * 60 };

/** Public waitlist form and its admin screen. */
export function waitlistRoutes(
  app: App,
  deps: { waitlist: WaitlistService; viewers: ViewerResolver; limiter: RateLimiter; limitScale: number },
) {
  const { waitlist, viewers, limiter } = deps;
  const joinLimit = { ...JOIN_LIMIT, limit: Math.ceil(JOIN_LIMIT.limit * deps.limitScale) };

  app.post("/api/waitlist", options(okSchema, { body: waitlistJoinSchema }), async (req) => {
    await limiter.hit(joinLimit, clientKey(req.ip));
    await waitlist.join(req.body.name, req.body.email);
    return { ok: true as const, message: MESSAGES.waitlistJoined };
  });

  app.get(
    "/api/admin/waitlist",
    options(waitlistListSchema, { querystring: pageQuery(100, QUEUE_PAGE_SIZE) }),
    async (req) => {
      await viewers.admin(req);
      return waitlist.list(req.query.cursor, req.query.limit);
    },
  );

  app.post(
    "/api/admin/waitlist/:id/approve",
    options(waitlistApproveResultSchema, { params: idParams }),
    async (req) => {
      const viewer = await viewers.admin(req);
      return { ok: true as const, ...(await waitlist.approve(viewer, req.params.id)) };
    },
  );

  app.post("/api/admin/users/:id/approve", options(okSchema, { params: idParams }), async (req) => {
    const viewer = await viewers.admin(req);
    return { ok: true as const, message: await waitlist.approveUser(viewer, req.params.id) };
  });
}

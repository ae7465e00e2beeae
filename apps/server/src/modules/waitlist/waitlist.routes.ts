import {
  MESSAGES,
  okSchema,
  waitlistApproveResultSchema,
  waitlistJoinSchema,
  waitlistListSchema,
} from "@unheard/shared";
import type { App } from "../../http.js";
import type { RateLimiter } from "../../lib/rate-limit.js";
import { errorResponses, idParams } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { WaitlistService } from "./waitlist.service.js";

const errors = errorResponses(400, 401, 403, 404, 429);
const JOIN_LIMIT = { name: "waitlist-ip", limit: 20, windowSec: 60 * 60 };

/** Public waitlist form and its admin screen. */
export function waitlistRoutes(
  app: App,
  deps: { waitlist: WaitlistService; viewers: ViewerResolver; limiter: RateLimiter; limitScale: number },
) {
  const { waitlist, viewers, limiter } = deps;
  const joinLimit = { ...JOIN_LIMIT, limit: Math.ceil(JOIN_LIMIT.limit * deps.limitScale) };
  const tags = ["waitlist"];

  app.post(
    "/api/waitlist",
    { schema: { tags, body: waitlistJoinSchema, response: { 200: okSchema, ...errors } } },
    async (req) => {
      await limiter.hit(joinLimit, req.ip);
      await waitlist.join(req.body.name, req.body.email);
      return { ok: true as const, message: MESSAGES.waitlistJoined };
    },
  );

  app.get(
    "/api/admin/waitlist",
    { schema: { tags, response: { 200: waitlistListSchema, ...errors } } },
    async (req) => {
      await viewers.admin(req);
      return { items: await waitlist.list() };
    },
  );

  app.post(
    "/api/admin/waitlist/:id/approve",
    { schema: { tags, params: idParams, response: { 200: waitlistApproveResultSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      return { ok: true as const, ...(await waitlist.approve(viewer, req.params.id)) };
    },
  );

  app.post(
    "/api/admin/users/:id/approve",
    { schema: { tags, params: idParams, response: { 200: okSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      return { ok: true as const, message: await waitlist.approveUser(viewer, req.params.id) };
    },
  );
}

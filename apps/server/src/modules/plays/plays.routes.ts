import { MESSAGES, playReportRequestSchema, playReportResponseSchema, playStartResponseSchema } from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import { ipPrefix } from "../../lib/client-origin.js";
import { createMemoryRateLimiter } from "../../lib/memory-rate-limit.js";
import { clientKey } from "../../lib/rate-limit.js";
import { idParams, routeOptions } from "../../lib/route-schemas.js";
import type { Viewer, ViewerResolver } from "../auth/viewer.js";
import type { PlaysService } from "./plays.service.js";

const options = routeOptions(["songs"], 400, 404, 429);

/**
 * Who is listening: a member by account, anyone else by network (/24, /64), so one NAT counts once an hour. An
 * account the waitlist still holds is no member (the rule votes use, viewers.member): it listens as a visitor of
 * its network does, so accounts made by the dozen add no listener a signed-out visitor would not (issue 38).
 */
function listenerKey(req: FastifyRequest, viewer: Viewer | undefined): string {
  return viewer && !viewer.waitlisted ? `user:${viewer.id}` : `net:${ipPrefix(req.ip) ?? clientKey(req.ip)}`;
}

/**
 * A per-address limit counted in memory (as the public reads', decision 017): a start writes nothing, and a
 * database counter would be its only write. Off when `perMinute` is 0.
 */
function addressLimit(perMinute: number): (req: FastifyRequest) => void {
  if (perMinute <= 0) return () => {};
  const limiter = createMemoryRateLimiter({ limit: perMinute, windowMs: 60_000 });
  return (req) => {
    const r = limiter.hit(clientKey(req.ip));
    if (!r.allowed)
      throw new AppError("rate_limited", MESSAGES.tooManyPlays, { headers: { "retry-after": String(r.resetSec) } });
  };
}

/** Listening counts (decision 027): start a play, then report it once the song has been heard. */
export function playsRoutes(
  app: App,
  deps: {
    plays: PlaysService;
    viewers: ViewerResolver;
    limits: { startsPerMinute: number; reportsPerMinute: number };
  },
) {
  const { plays, viewers } = deps;
  const startLimit = addressLimit(deps.limits.startsPerMinute);
  const reportLimit = addressLimit(deps.limits.reportsPerMinute);

  app.post("/api/songs/:id/plays/start", options(playStartResponseSchema, { params: idParams }), async (req) => {
    startLimit(req);
    const viewer = await viewers.viewer(req);
    return plays.start(viewer, listenerKey(req, viewer), req.params.id);
  });

  app.post(
    "/api/songs/:id/plays",
    options(playReportResponseSchema, { params: idParams, body: playReportRequestSchema }),
    async (req) => {
      reportLimit(req);
      const viewer = await viewers.viewer(req);
      return plays.report(viewer, listenerKey(req, viewer), req.params.id, req.body.token);
    },
  );
}

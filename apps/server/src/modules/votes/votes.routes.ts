import {
  discountInputSchema,
  discountResultSchema,
  MESSAGES,
  songPageSchema,
  songVotersSchema,
  verifyAllResultSchema,
  voteInputSchema,
  voteResultSchema,
} from "@unheard/shared";
import type { App } from "../../http.js";
import { deviceOf, ipPrefix } from "../../lib/client-origin.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { VotesService } from "./votes.service.js";

const options = routeOptions(["votes"], 400, 401, 403, 404, 429);

/** Community verification: votes, pending list, direct verify, verify all; the admins' ring view and discounting. */
export function votesRoutes(app: App, deps: { votesService: VotesService; viewers: ViewerResolver }) {
  const { votesService, viewers } = deps;

  app.put(
    "/api/songs/:id/vote",
    options(voteResultSchema, { params: idParams, body: voteInputSchema }),
    async (req, reply) => {
      const viewer = await viewers.member(req, MESSAGES.loginToVerify);
      // Where the vote came from, for the admins' ring view (decision 015).
      return votesService.vote(viewer, req.params.id, req.body, {
        ipPrefix: ipPrefix(req.ip),
        device: deviceOf(req, reply),
      });
    },
  );

  app.get("/api/songs/pending", options(songPageSchema, { querystring: pageQuery() }), async (req) => {
    const viewer = await viewers.member(req, MESSAGES.loginToVerify);
    return votesService.pending(viewer, req.query.cursor, req.query.limit);
  });

  app.post("/api/songs/:id/verify", options(voteResultSchema, { params: idParams }), async (req) => {
    const viewer = await viewers.admin(req);
    return votesService.verify(viewer, req.params.id);
  });

  app.post("/api/songs/verify-all", options(verifyAllResultSchema), async (req) => {
    const viewer = await viewers.superAdmin(req);
    const count = await votesService.verifyAll(viewer);
    return { ok: true as const, message: MESSAGES.allVerified, count };
  });

  app.get("/api/admin/songs/:id/voters", options(songVotersSchema, { params: idParams }), async (req) => {
    await viewers.admin(req);
    return votesService.voters(req.params.id);
  });

  app.put(
    "/api/admin/users/:id/votes-discounted",
    options(discountResultSchema, { params: idParams, body: discountInputSchema }),
    async (req) => {
      const viewer = await viewers.admin(req);
      const { message, moved } = await votesService.discount(viewer, req.params.id, req.body.discounted);
      return { ok: true as const, message, moved };
    },
  );
}

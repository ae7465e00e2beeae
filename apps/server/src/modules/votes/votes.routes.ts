import { MESSAGES, songPageSchema, verifyAllResultSchema, voteInputSchema, voteResultSchema } from "@unheard/shared";
import type { App } from "../../http.js";
import { errorResponses, idParams, pageQuery } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { VotesService } from "./votes.service.js";

const errors = errorResponses(400, 401, 403, 404, 429);

/** Community verification: votes, pending list, direct verify, verify all. */
export function votesRoutes(app: App, deps: { votesService: VotesService; viewers: ViewerResolver }) {
  const { votesService, viewers } = deps;
  const tags = ["votes"];

  app.put(
    "/api/songs/:id/vote",
    { schema: { tags, params: idParams, body: voteInputSchema, response: { 200: voteResultSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.member(req, MESSAGES.loginToVerify);
      return votesService.vote(viewer, req.params.id, req.body);
    },
  );

  app.get(
    "/api/songs/pending",
    {
      schema: {
        tags,
        querystring: pageQuery(),
        response: { 200: songPageSchema, ...errors },
      },
    },
    async (req) => {
      const viewer = await viewers.signedIn(req, MESSAGES.loginToVerify);
      return votesService.pending(viewer, req.query.cursor, req.query.limit);
    },
  );

  app.post(
    "/api/songs/:id/verify",
    { schema: { tags, params: idParams, response: { 200: voteResultSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.admin(req);
      return votesService.verify(viewer, req.params.id);
    },
  );

  app.post(
    "/api/songs/verify-all",
    { schema: { tags, response: { 200: verifyAllResultSchema, ...errors } } },
    async (req) => {
      const viewer = await viewers.superAdmin(req);
      const count = await votesService.verifyAll(viewer);
      return { ok: true as const, message: MESSAGES.allVerified, count };
    },
  );
}

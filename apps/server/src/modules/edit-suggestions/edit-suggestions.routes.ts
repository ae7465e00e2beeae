import {
  editSuggestionListSchema,
  MESSAGES,
  okSchema,
  QUEUE_PAGE_SIZE,
  reviewSuggestionSchema,
  suggestEditSchema,
} from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { EditSuggestionsService } from "./edit-suggestions.service.js";

const options = routeOptions(["moderation"], 400, 401, 403, 404, 409);

/** Suggesting edits, and the admin's review queue. */
export function editSuggestionsRoutes(
  app: App,
  deps: { suggestions: EditSuggestionsService; viewers: ViewerResolver },
) {
  const { suggestions, viewers } = deps;

  app.post(
    "/api/songs/:id/edit-suggestions",
    options(okSchema.extend({ id: z.string() }), { params: idParams, body: suggestEditSchema }, 201),
    async (req, reply) => {
      const viewer = await viewers.member(req, MESSAGES.loginToSuggest);
      const { reason, ...fields } = req.body;
      const id = await suggestions.create(viewer, req.params.id, fields, reason);
      return reply.status(201).send({ ok: true as const, message: MESSAGES.suggestionSent, id });
    },
  );

  app.get(
    "/api/edit-suggestions",
    options(editSuggestionListSchema, { querystring: pageQuery(100, QUEUE_PAGE_SIZE) }),
    async (req) => {
      await viewers.permitted(req, "canEditAllSongs", MESSAGES.noPermissionEditSongs);
      return suggestions.pending(req.query.cursor, req.query.limit);
    },
  );

  app.post(
    "/api/edit-suggestions/:id/review",
    options(okSchema, { params: idParams, body: reviewSuggestionSchema }),
    async (req) => {
      const viewer = await viewers.permitted(req, "canEditAllSongs", MESSAGES.noPermissionEditSongs);
      return { ok: true as const, message: await suggestions.review(viewer, req.params.id, req.body) };
    },
  );
}

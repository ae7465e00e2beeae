import {
  editSuggestionListSchema,
  MESSAGES,
  okSchema,
  reviewSuggestionSchema,
  suggestEditSchema,
} from "@unheard/shared";
import { z } from "zod";
import type { App } from "../../http.js";
import { idParams, routeOptions } from "../../lib/route-schemas.js";
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

  app.get("/api/edit-suggestions", options(editSuggestionListSchema), async (req) => {
    await viewers.admin(req);
    return { items: await suggestions.pending() };
  });

  app.post(
    "/api/edit-suggestions/:id/review",
    options(okSchema, { params: idParams, body: reviewSuggestionSchema }),
    async (req) => {
      const viewer = await viewers.admin(req);
      return { ok: true as const, message: await suggestions.review(viewer, req.params.id, req.body) };
    },
  );
}

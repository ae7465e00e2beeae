import { errorBodySchema, MESSAGES, soundcloudMatchesSchema, soundcloudQuerySchema } from "@unheard/shared";
import type { App } from "../../http.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SoundcloudService } from "./soundcloud.service.js";

/** POST /api/soundcloud/matches: the upload form's 'find match' helper. */
export function soundcloudRoutes(app: App, deps: { soundcloud: SoundcloudService; viewers: ViewerResolver }) {
  app.post(
    "/api/soundcloud/matches",
    {
      schema: {
        tags: ["songs"],
        body: soundcloudQuerySchema,
        response: {
          200: soundcloudMatchesSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (req) => {
      await deps.viewers.member(req);
      const tracks = await deps.soundcloud.matches(req.body.artist, req.body.title);
      return tracks.length === 0 ? { tracks, message: MESSAGES.soundcloudNoMatches } : { tracks };
    },
  );
}

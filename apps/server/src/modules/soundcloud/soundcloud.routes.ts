import { MESSAGES, soundcloudMatchesSchema, soundcloudQuerySchema } from "@unheard/shared";
import type { App } from "../../http.js";
import { routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SoundcloudService } from "./soundcloud.service.js";

const options = routeOptions(["songs"], 400, 401, 502, 503);

/** POST /api/soundcloud/matches: the upload form's 'find match' helper. */
export function soundcloudRoutes(app: App, deps: { soundcloud: SoundcloudService; viewers: ViewerResolver }) {
  app.post(
    "/api/soundcloud/matches",
    options(soundcloudMatchesSchema, { body: soundcloudQuerySchema }),
    async (req) => {
      await deps.viewers.member(req);
      const tracks = await deps.soundcloud.matches(req.body.artist, req.body.title);
      return tracks.length === 0 ? { tracks, message: MESSAGES.soundcloudNoMatches } : { tracks };
    },
  );
}

import { searchQuerySchema, searchResultSchema, suggestQuerySchema, suggestResultSchema } from "@unheard/shared";
import { type App, sendPublic } from "../../http.js";
import type { PublicCache } from "../../lib/public-cache.js";
import { routeOptions } from "../../lib/route-schemas.js";
import { compileSerializer } from "../../lib/serializer.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SongsService } from "../songs/songs.service.js";
import type { SearchService } from "./search.service.js";

const searchResultJson = compileSerializer(searchResultSchema);
const suggestJson = compileSerializer(suggestResultSchema);
const options = routeOptions(["songs"], 400);

/** GET /api/search: matching artists (first page only) and songs; GET /api/search/suggest: the search box's offers. */
export function searchRoutes(
  app: App,
  deps: { search: SearchService; songs: SongsService; viewers: ViewerResolver; publicCache: PublicCache },
) {
  app.get("/api/search", options(searchResultSchema, { querystring: searchQuerySchema }), async (req, reply) => {
    const viewer = await deps.viewers.viewer(req);
    if (viewer?.isAdmin) return deps.search.search(req.query, viewer);
    const cached = await deps.publicCache.through(
      `search:${req.query.limit}:${req.query.cursor ?? ""}:${req.query.q}`,
      () => deps.search.search(req.query, undefined),
      searchResultJson,
    );
    if (!viewer) return sendPublic(reply, cached);
    return { ...cached.value, songs: await deps.songs.personalize(cached.value.songs, viewer) };
  });

  // Suggestions hold nothing personal: one shared answer for everyone.
  app.get(
    "/api/search/suggest",
    options(suggestResultSchema, { querystring: suggestQuerySchema }),
    async (req, reply) => {
      const cached = await deps.publicCache.through(
        `suggest:${req.query.q}`,
        () => deps.search.suggest(req.query.q),
        suggestJson,
      );
      return sendPublic(reply, cached);
    },
  );
}

import { errorBodySchema, searchQuerySchema, searchResultSchema } from "@unheard/shared";
import { type App, sendPublic } from "../../http.js";
import type { PublicCache } from "../../lib/public-cache.js";
import { compileSerializer } from "../../lib/serializer.js";
import { hasSessionCookie, type ViewerResolver } from "../auth/viewer.js";
import type { SearchService } from "./search.service.js";

const searchResultJson = compileSerializer(searchResultSchema);

/** GET /api/search: matching artists (first page only) and songs. */
export function searchRoutes(
  app: App,
  deps: { search: SearchService; viewers: ViewerResolver; publicCache: PublicCache },
) {
  app.get(
    "/api/search",
    {
      schema: {
        tags: ["songs"],
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, 400: errorBodySchema },
      },
    },
    async (req, reply) => {
      if (!hasSessionCookie(req.headers.cookie)) {
        const key = `search:${req.query.limit}:${req.query.cursor ?? ""}:${req.query.q}`;
        const cached = await deps.publicCache.through(key, async () =>
          searchResultJson(await deps.search.search(req.query, undefined)),
        );
        return sendPublic(req, reply, cached);
      }
      return deps.search.search(req.query, await deps.viewers.viewer(req));
    },
  );
}

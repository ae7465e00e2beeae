import { errorBodySchema, searchQuerySchema, searchResultSchema } from "@unheard/shared";
import type { App } from "../../http.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SearchService } from "./search.service.js";

/** GET /api/search: matching artists (first page only) and songs. */
export function searchRoutes(app: App, deps: { search: SearchService; viewers: ViewerResolver }) {
  app.get(
    "/api/search",
    {
      schema: {
        tags: ["songs"],
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, 400: errorBodySchema },
      },
    },
    async (req) => deps.search.search(req.query, await deps.viewers.viewer(req)),
  );
}

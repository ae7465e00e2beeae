import { changePageSchema } from "@unheard/shared";
import { type App, PUBLIC_CACHE_CONTROL } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { ChangelogService } from "./changelog.service.js";

const options = routeOptions(["changelog"], 400, 404);
// Feed readers poll: five minutes in any cache is fresh enough for an Updates tab.
const FEED_CACHE_CONTROL = "public, max-age=300";
const feed = { schema: { tags: ["changelog"], produces: ["application/atom+xml"] } };

/** Artists' changelogs (issue 37): each artist's, everyone's ("Recent changes"), and their Atom feeds. */
export function changelogRoutes(app: App, deps: { changelog: ChangelogService; viewers: ViewerResolver }) {
  const { changelog, viewers } = deps;
  const query = pageQuery(100, 30);

  app.get(
    "/api/artists/:id/changes",
    options(changePageSchema, { params: idParams, querystring: query }),
    async (req, reply) => {
      const viewer = await viewers.viewer(req);
      if (!viewer) reply.header("cache-control", PUBLIC_CACHE_CONTROL);
      return changelog.page({ artistId: req.params.id }, viewer, req.query.cursor, req.query.limit);
    },
  );

  app.get("/api/changes", options(changePageSchema, { querystring: query }), async (req, reply) => {
    const viewer = await viewers.viewer(req);
    if (!viewer) reply.header("cache-control", PUBLIC_CACHE_CONTROL);
    return changelog.page({}, viewer, req.query.cursor, req.query.limit);
  });

  // Feeds are public: the same for every reader, so only public songs' lines.
  app.get("/api/artists/:id/changes.atom", { schema: { ...feed.schema, params: idParams } }, async (req, reply) => {
    const body = await changelog.atom({ artistId: req.params.id });
    return reply.type("application/atom+xml; charset=utf-8").header("cache-control", FEED_CACHE_CONTROL).send(body);
  });

  app.get("/api/changes.atom", feed, async (_req, reply) => {
    const body = await changelog.atom({});
    return reply.type("application/atom+xml; charset=utf-8").header("cache-control", FEED_CACHE_CONTROL).send(body);
  });
}

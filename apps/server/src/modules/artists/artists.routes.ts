import {
  adminArtistSearchResultSchema,
  artistSchema,
  artistTrackerSchema,
  claimArtistSchema,
  eraInputSchema,
  eraSchema,
  followStateSchema,
  MESSAGES,
  mergeArtistsSchema,
  okSchema,
  songPageSchema,
  suggestQuerySchema,
  updateArtistSchema,
  verifyArtistSchema,
} from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import { type App, PUBLIC_CACHE_CONTROL } from "../../http.js";
import { idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { ArtistsService } from "./artists.service.js";
import type { TrackerExport } from "./tracker.service.js";

const options = routeOptions(["artists"], 400, 401, 403, 404);

/** Artist pages, following, artist editing, and the admin tools for artists. */
export function artistsRoutes(
  app: App,
  deps: { artists: ArtistsService; viewers: ViewerResolver; tracker: TrackerExport },
) {
  const { artists, viewers, tracker } = deps;

  // The artist's public songs the way trackers show them (issue 27): the same for every viewer.
  app.get("/api/artists/:id/tracker", options(artistTrackerSchema, { params: idParams }), async (req, reply) => {
    reply.header("cache-control", PUBLIC_CACHE_CONTROL);
    return tracker.tracker(req.params.id);
  });

  // What an era is (issue 27): the artist themself, or an admin who may edit artists (as PATCH /api/artists/:id).
  app.put("/api/artists/:id/eras", options(eraSchema, { params: idParams, body: eraInputSchema }), async (req) => {
    const viewer = await viewers.as(await viewers.signedIn(req), "canVerifyArtists");
    return tracker.saveEra(viewer, req.params.id, req.body);
  });

  // The artist's public songs as a tracker sheet, in the layout the import reads (issue 27): a round trip.
  app.get(
    "/api/artists/:id/tracker.csv",
    { schema: { tags: ["artists"], params: idParams, produces: ["text/csv"] } },
    async (req, reply) => {
      const { name, body } = await tracker.csv(req.params.id);
      const file = `${name.replace(/[^\p{L}\p{N}._-]+/gu, "-").slice(0, 80) || "artist"}-tracker.csv`;
      reply
        .type("text/csv; charset=utf-8")
        .header("cache-control", PUBLIC_CACHE_CONTROL)
        .header(
          "content-disposition",
          `attachment; filename="${file.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        );
      return body;
    },
  );

  // A visitor's answer is the same for every visitor (no follow state, no pending songs): shared caches may keep
  // it, as they may the feeds' (buildApp's onSend hook adds the ETag and Vary).
  app.get("/api/artists/:id", options(artistSchema, { params: idParams }), async (req, reply) => {
    const viewer = await viewers.viewer(req);
    if (!viewer) reply.header("cache-control", PUBLIC_CACHE_CONTROL);
    // canEdit mirrors PATCH: an admin without canVerifyArtists edits only their own page.
    return artists.get(req.params.id, viewer && (await viewers.as(viewer, "canVerifyArtists")));
  });

  app.get(
    "/api/artists/:id/songs",
    options(songPageSchema, { params: idParams, querystring: pageQuery() }),
    async (req, reply) => {
      const viewer = await viewers.viewer(req);
      if (!viewer) reply.header("cache-control", PUBLIC_CACHE_CONTROL);
      return artists.songs(req.params.id, viewer, req.query.cursor, req.query.limit);
    },
  );

  for (const method of ["PUT", "DELETE"] as const) {
    app.route({
      method,
      url: "/api/artists/:id/follow",
      ...options(followStateSchema, { params: idParams }),
      handler: async (req) => {
        const viewer = await viewers.signedIn(req, MESSAGES.loginToFollow);
        return artists.setFollow(viewer, req.params.id, method === "PUT");
      },
    });
  }

  app.patch("/api/artists/:id", options(artistSchema, { params: idParams, body: updateArtistSchema }), async (req) => {
    // Admins edit others' artist pages with canVerifyArtists; without it, only their own.
    const viewer = await viewers.as(await viewers.signedIn(req), "canVerifyArtists");
    return artists.update(viewer, req.params.id, req.body);
  });

  // The merge dialog's search: public search names only artists with a public song (issue 38), and the
  // placeholders merged most are known only from pending uploads.
  // Who asks is checked before what is asked: a visitor is told to sign in, not that the query is malformed.
  const search = {
    ...options(adminArtistSearchResultSchema, { querystring: suggestQuerySchema }),
    preValidation: async (req: FastifyRequest) => {
      await viewers.superAdmin(req);
    },
  };
  app.get("/api/admin/artists/search", search, async (req) => ({ artists: await artists.findForAdmin(req.query.q) }));

  app.post("/api/admin/artists/merge", options(okSchema, { body: mergeArtistsSchema }), async (req) => {
    // Merging and the verified badge stay super-admin actions (super admins hold every permission; decision 022).
    const viewer = await viewers.superAdmin(req);
    await artists.merge(viewer, req.body.keepId, req.body.mergeId, "merge");
    return { ok: true as const, message: MESSAGES.artistsMerged };
  });

  const claim = options(okSchema, { params: idParams, body: claimArtistSchema });
  app.post("/api/admin/artists/:id/claim", claim, async (req) => {
    const viewer = await viewers.permitted(req, "canVerifyArtists", MESSAGES.noPermissionArtists);
    await artists.merge(viewer, req.body.userId, req.params.id, "claim");
    return { ok: true as const, message: MESSAGES.artistClaimed };
  });

  const verify = options(okSchema, { params: idParams, body: verifyArtistSchema });
  app.put("/api/admin/artists/:id/verified", verify, async (req) => {
    const viewer = await viewers.superAdmin(req);
    await artists.setVerified(viewer, req.params.id, req.body.verified);
    return { ok: true as const, message: req.body.verified ? "Artist verified" : "Artist no longer verified" };
  });
}

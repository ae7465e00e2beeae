import { gzipSync } from "node:zlib";
import { MESSAGES } from "@unheard/shared";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import type { ViewerResolver } from "../auth/viewer.js";
import { isPublic, maySee, mediaCacheControl } from "../songs/visibility.js";
import { coverSubject, coverVersion, renderCover } from "./covers.service.js";

const params = z.object({ id: z.string().min(1).max(64) });
const query = z.object({ v: z.string().max(64).optional() });

/** Rendered covers kept in memory (SVG and its gzip), by song and version; the oldest go first. */
const CACHE_ENTRIES = 2000;

/** An SVG may only draw: no script, no fetching, whoever opens it directly. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** GET /api/songs/:id/cover.svg: the song's generated cover art (see covers.service.ts). */
export function coversRoutes(app: App, deps: { database: Database; viewers: ViewerResolver }) {
  const cache = new Map<string, { svg: string; gz: Buffer }>();
  app.get(
    "/api/songs/:id/cover.svg",
    {
      schema: {
        tags: ["songs"],
        summary: "A song's cover art, generated from its title and artists (SVG)",
        params,
        querystring: query,
      },
    },
    async (req, reply) => {
      const subject = await coverSubject(deps.database, req.params.id);
      // Seen by those who may see the song's page (visibility.ts); visitors of a public song are not looked up.
      const seen = subject && (isPublic(subject) || maySee(subject, await deps.viewers.viewer(req)));
      if (!subject || !seen) throw new AppError("not_found", MESSAGES.songNotFound);
      const version = coverVersion(subject.title, subject.artists);
      const key = `${req.params.id}:${version}`;
      let entry = cache.get(key);
      if (!entry) {
        const svg = renderCover(subject.title, subject.artists);
        entry = { svg, gz: gzipSync(svg, { level: 9 }) };
        cache.set(key, entry);
        if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value ?? "");
      }
      const etag = `"cover-${version}"`;
      // The URL with the current version never changes content: cached for good. Any other asks again soon.
      const current = req.query.v === version;
      reply
        .header("etag", etag)
        .header("cache-control", mediaCacheControl(subject, current))
        .header("vary", "accept-encoding")
        .header("content-security-policy", SVG_CSP)
        .header("x-content-type-options", "nosniff");
      if (req.headers["if-none-match"] === etag) return reply.status(304).send();
      reply.type("image/svg+xml; charset=utf-8");
      if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
        return reply.header("content-encoding", "gzip").send(entry.gz);
      }
      return reply.send(Buffer.from(entry.svg));
    },
  );
}

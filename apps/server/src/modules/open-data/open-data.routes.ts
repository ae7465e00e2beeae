import { Readable } from "node:stream";
import { MESSAGES } from "@unheard/shared";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import { createMemoryRateLimiter, type MemoryRateLimiter } from "../../lib/memory-rate-limit.js";
import { clientKey } from "../../lib/rate-limit.js";
import { OPEN_DATA_TAG } from "./open-data.docs.js";
import type { OpenDataService } from "./open-data.service.js";

// The bodies are streams, never serialised: open-data.docs.ts describes them (and the 429) in the OpenAPI document.
const exportOptions = { schema: { tags: [OPEN_DATA_TAG] } };

/** The public reads the API limit covers (GET, URL patterns as registered by their modules). */
const READ_ROUTES = [
  "/api/songs",
  "/api/songs/:id",
  "/api/artists/:id",
  "/api/artists/:id/songs",
  "/api/artists/:id/tracker",
  "/api/search",
  // Changelogs and their feeds (issue 37).
  "/api/artists/:id/changes",
  "/api/artists/:id/changes.atom",
  "/api/changes",
  "/api/changes.atom",
  // The sitemap index counts the songs and artists (issue 28).
  "/sitemap.xml",
];
/**
 * Downloads that read a whole catalogue, or a whole artist's (the tracker sheet, issue 27), or a sitemap file's
 * block of up to 50,000 songs or artists (issue 28).
 */
const EXPORT_ROUTES = [
  "/api/export/songs.csv",
  "/api/export/songs.json",
  "/api/artists/:id/tracker.csv",
  "/sitemaps/:file",
];
/** The search box asks once per pause in typing: its own budget, a few times the reads'. */
const SUGGEST_ROUTE = "/api/search/suggest";
const SUGGESTS_PER_READ = 4;

// A five-minute-old export is as good as a fresh one, and each download reads the whole catalogue: browsers and
// proxies may keep it that long without asking again.
const EXPORT_CACHE_CONTROL = "public, max-age=300";

/** A download's headers: the type, a dated file name to save as, and the caching above. */
function download(reply: { header(k: string, v: string): unknown }, type: string, extension: string): void {
  const date = new Date().toISOString().slice(0, 10);
  reply.header("content-type", type);
  reply.header("content-disposition", `attachment; filename="unheard-songs-${date}.${extension}"`);
  reply.header("cache-control", EXPORT_CACHE_CONTROL);
}

/**
 * Chunks of text as a stream that asks for the next chunk only when the socket has taken the last one: a slow
 * client holds a page in memory, never the export. Strings go to the socket as they are (objectMode), which
 * spares a Buffer copy of every chunk.
 */
function textStream(chunks: AsyncGenerator<string>): Readable {
  return Readable.from(chunks, { objectMode: true, highWaterMark: 1 });
}

/** Per-address limits over the public reads and the exports (decision 017), each off when its setting is 0. */
function publicLimits(app: App, config: Config): void {
  const limiters = new Map<string, { limiter: MemoryRateLimiter; message: string }>();
  const windowMs = 60_000;
  if (config.publicRateLimit > 0) {
    const reads = {
      limiter: createMemoryRateLimiter({ limit: config.publicRateLimit, windowMs }),
      message: MESSAGES.tooManyApiRequests,
    };
    for (const route of READ_ROUTES) limiters.set(route, reads);
    limiters.set(SUGGEST_ROUTE, {
      limiter: createMemoryRateLimiter({ limit: config.publicRateLimit * SUGGESTS_PER_READ, windowMs }),
      message: MESSAGES.tooManyApiRequests,
    });
  }
  if (config.exportRateLimit > 0) {
    const exports = {
      limiter: createMemoryRateLimiter({ limit: config.exportRateLimit, windowMs }),
      message: MESSAGES.tooManyExports,
    };
    for (const route of EXPORT_ROUTES) limiters.set(route, exports);
  }
  if (limiters.size === 0) return;
  // One map lookup for every other request; routing has happened by onRequest, so the pattern is known.
  app.addHook("onRequest", (req, reply, done) => {
    if (req.method !== "GET" && req.method !== "HEAD") return done();
    const rule = limiters.get(req.routeOptions.url ?? "");
    if (!rule) return done();
    const r = rule.limiter.hit(clientKey(req.ip));
    reply
      .header("ratelimit-limit", r.limit)
      .header("ratelimit-remaining", r.remaining)
      .header("ratelimit-reset", r.resetSec);
    if (r.allowed) return done();
    done(new AppError("rate_limited", rule.message, { headers: { "retry-after": String(r.resetSec) } }));
  });
}

/** Open data: the exports of every verified song, and the per-address limits of the public API. */
export function openDataRoutes(app: App, deps: { openData: OpenDataService; config: Config }) {
  const { openData, config } = deps;
  publicLimits(app, config);

  app.get("/api/export/songs.csv", exportOptions, async (_req, reply) => {
    download(reply, "text/csv; charset=utf-8; header=present", "csv");
    return reply.send(textStream(openData.csv()));
  });

  app.get("/api/export/songs.json", exportOptions, async (_req, reply) => {
    download(reply, "application/json; charset=utf-8", "json");
    return reply.send(textStream(openData.json()));
  });
}

import { Readable } from "node:stream";
import { MESSAGES } from "@unheard/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import {
  createMemoryRateLimiter,
  type MemoryLimitResult,
  type MemoryRateLimiter,
} from "../../lib/memory-rate-limit.js";
import { clientKey } from "../../lib/rate-limit.js";
import { OPEN_DATA_TAG } from "./open-data.docs.js";
import type { OpenDataService } from "./open-data.service.js";

// The bodies are streams, never serialised: open-data.docs.ts describes them (and the 429) in the OpenAPI document.
const exportOptions = { schema: { tags: [OPEN_DATA_TAG] } };

/**
 * The public reads the API limit covers (GET, URL patterns as registered by their modules), and every page (the
 * web app's fallback counts them through `PublicLimits.page`): each one a visitor can ask for (issue 38).
 */
export const READ_ROUTES = [
  "/api/songs",
  "/api/songs/recommendations",
  "/api/songs/:id",
  "/api/songs/:id/history",
  "/api/songs/:id/versions",
  // The landing page's demo player (issue 38: it was neither limited nor cached).
  "/api/landing/tracks",
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
export const EXPORT_ROUTES = [
  "/api/export/songs.csv",
  "/api/export/songs.json",
  "/api/artists/:id/tracker.csv",
  "/sitemaps/:file",
];
/** The search box asks once per pause in typing: its own budget, a few times the reads'. */
export const SUGGEST_ROUTE = "/api/search/suggest";
const SUGGESTS_PER_READ = 4;
/**
 * Covers and audio: a page of cards shows dozens of covers (each kept by the browser for good), and a song plays in
 * a few ranged requests. Their own budget, ten times the reads'.
 */
export const MEDIA_ROUTES = ["/api/songs/:id/cover.svg", "/api/songs/:id/audio"];
const MEDIA_PER_READ = 10;
/**
 * What every page load, monitor or crawler asks for and costs little (the settings, who is signed in, the health
 * check, the live-event stream, the e-mail check link, the API's own documentation): their own budget, four times
 * the reads'. robots.txt is not counted: it is a constant, and counting it would cost what answering it does.
 */
export const LIGHT_ROUTES = [
  "/api/config",
  "/api/health",
  "/api/session",
  "/api/me",
  "/api/events",
  "/api/auth/verify-email",
  "/api/openapi.json",
];
/** Public routes no budget counts, and why (the test of every route checks this list). */
export const UNCOUNTED_ROUTES: Record<string, string> = { "/robots.txt": "a constant answer" };
/** The OpenAPI document's UI and its files, counted with the light routes. */
const DOCS_PREFIX = "/api/docs";
const LIGHTS_PER_READ = 4;

/** The per-address budget pages share with the public reads. */
export type PublicLimits = {
  /**
   * Count one page of the asker's address against the reads' budget, with the RateLimit headers on `reply`;
   * undefined when the limit is off.
   */
  page(req: FastifyRequest, reply: FastifyReply): MemoryLimitResult | undefined;
};

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

type Rule = { limiter: MemoryRateLimiter; message: string };

/** Count a hit of the asker's address under `rule`, with the RateLimit headers. */
function hit(rule: Rule, req: FastifyRequest, reply: FastifyReply): MemoryLimitResult {
  const r = rule.limiter.hit(clientKey(req.ip));
  reply
    .header("ratelimit-limit", r.limit)
    .header("ratelimit-remaining", r.remaining)
    .header("ratelimit-reset", r.resetSec);
  return r;
}

/**
 * Per-address limits over every public read, the pages and the exports (decision 017; issue 38), each off when its
 * setting is 0. Returns the reads' budget for the pages.
 */
function publicLimits(app: App, config: Config): PublicLimits {
  const routes = new Map<string, Rule>();
  const windowMs = 60_000;
  let reads: Rule | undefined;
  let light: Rule | undefined;
  const rule = (perMinute: number, message: string): Rule => ({
    limiter: createMemoryRateLimiter({ limit: perMinute, windowMs }),
    message,
  });
  if (config.publicRateLimit > 0) {
    const n = config.publicRateLimit;
    reads = rule(n, MESSAGES.tooManyApiRequests);
    for (const route of READ_ROUTES) routes.set(route, reads);
    routes.set(SUGGEST_ROUTE, rule(n * SUGGESTS_PER_READ, MESSAGES.tooManyApiRequests));
    const media = rule(n * MEDIA_PER_READ, MESSAGES.tooManyApiRequests);
    for (const route of MEDIA_ROUTES) routes.set(route, media);
    light = rule(n * LIGHTS_PER_READ, MESSAGES.tooManyApiRequests);
    for (const route of LIGHT_ROUTES) routes.set(route, light);
  }
  if (config.exportRateLimit > 0) {
    const exports = rule(config.exportRateLimit, MESSAGES.tooManyExports);
    for (const route of EXPORT_ROUTES) routes.set(route, exports);
  }
  if (routes.size > 0) {
    // One map lookup for every other request; routing has happened by onRequest, so the pattern is known.
    app.addHook("onRequest", (req, reply, done) => {
      if (req.method !== "GET" && req.method !== "HEAD") return done();
      const url = req.routeOptions.url ?? "";
      const found = routes.get(url) ?? (light && url.startsWith(DOCS_PREFIX) ? light : undefined);
      if (!found) return done();
      const r = hit(found, req, reply);
      if (r.allowed) return done();
      done(new AppError("rate_limited", found.message, { headers: { "retry-after": String(r.resetSec) } }));
    });
  }
  return { page: (req, reply) => (reads ? hit(reads, req, reply) : undefined) };
}

/**
 * Open data: the exports of every verified song, and the per-address limits of the public API; the budget the
 * pages share with the reads.
 */
export function openDataRoutes(app: App, deps: { openData: OpenDataService; config: Config }): PublicLimits {
  const { openData, config } = deps;
  const limits = publicLimits(app, config);

  app.get("/api/export/songs.csv", exportOptions, async (_req, reply) => {
    download(reply, "text/csv; charset=utf-8; header=present", "csv");
    return reply.send(textStream(openData.csv()));
  });

  app.get("/api/export/songs.json", exportOptions, async (_req, reply) => {
    download(reply, "application/json; charset=utf-8", "json");
    return reply.send(textStream(openData.json()));
  });
  return limits;
}

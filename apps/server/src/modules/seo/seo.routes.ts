import { Readable } from "node:stream";
import { MESSAGES } from "@unheard/shared";
import { z } from "zod";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import type { SeoService } from "./seo.service.js";

/** Crawlers read these now and then; an hour old is fresh enough, and proxies may share them. */
export const SEO_CACHE_CONTROL = "public, max-age=3600";
const XML = "application/xml; charset=utf-8";

/** The documents for crawlers, as registered (not API routes: the permission matrix lists them too). */
export const SEO_ROUTES = ["/robots.txt", "/sitemap.xml", "/sitemaps/:file"] as const;

// Not part of the API: left out of the OpenAPI document.
const hidden = { schema: { hide: true } };
const fileParams = { schema: { hide: true, params: z.object({ file: z.string().max(40) }) } };

/** robots.txt, the sitemap index and its files (issue 28). */
export function seoRoutes(app: App, deps: { seo: SeoService }) {
  const { seo } = deps;

  app.get("/robots.txt", hidden, async (_req, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", SEO_CACHE_CONTROL).send(seo.robots()),
  );

  app.get("/sitemap.xml", hidden, async (_req, reply) => {
    const body = await seo.index();
    return reply.type(XML).header("cache-control", SEO_CACHE_CONTROL).send(body);
  });

  // A file of up to 50,000 URLs is written as it is read: a chunk of rows at a time, each sent when the socket
  // has taken the last (objectMode: strings go out as they are).
  app.get("/sitemaps/:file", fileParams, async (req, reply) => {
    const chunks = await seo.file(req.params.file);
    if (!chunks) throw new AppError("not_found", MESSAGES.notFound);
    return reply
      .type(XML)
      .header("cache-control", SEO_CACHE_CONTROL)
      .send(Readable.from(chunks, { objectMode: true, highWaterMark: 1 }));
  });
}

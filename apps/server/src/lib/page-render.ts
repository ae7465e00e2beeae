import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http.js";
import { type AppEvent, countsOnly } from "./events.js";
import { type Cached, createPublicCache } from "./public-cache.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What the web app's renderer (apps/web/src/entry-server.tsx) gives for a URL. */
export type RenderedPage =
  | { kind: "page"; status: number; html: string; dataScript: string; failed: boolean }
  | { kind: "redirect"; status: number; location: string };

/** How the renderer's API requests are answered (the web app's ApiTransport). */
type Transport = (path: string, init: RequestInit) => Promise<Response>;

/** The web app's renderer: a URL as a visitor sees it, its API requests answered by `transport`. */
export type PageRenderer = (url: string, transport: Transport) => Promise<RenderedPage>;

/** The built renderer's module (vite build --ssr; decision 026). */
export type RendererModule = { createPageRenderer(): PageRenderer };

/** A server-rendered page as sent: the whole document and its compressed copies. */
export type RenderedDocument = { status: number; html: string; gzip: Buffer; br: Buffer };

/** Load the renderer built into `ssrDist`; undefined when there is none (the pages are then rendered by the browser). */
export async function loadBuiltRenderer(ssrDist: string): Promise<RendererModule | undefined> {
  const file = path.join(ssrDist, "entry-server.js");
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as RendererModule;
}

const renderers = new WeakMap<RendererModule, PageRenderer>();

/** The module's renderer, made once (a process may build several apps: the tests). */
function rendererOf(module: RendererModule): PageRenderer {
  let render = renderers.get(module);
  if (!render) {
    render = module.createPageRenderer();
    renderers.set(module, render);
  }
  return render;
}

/**
 * The API as a render reaches it: `app` answers in-process, and the requests count against the address of the
 * visitor whose request caused the render, as the browser's own requests would (the public reads' limits). No
 * AsyncLocalStorage: on Node 20 one instance slows every promise in the process (the feeds ran at half speed).
 */
function transportFor(app: App, address: string): Transport {
  return async (urlPath, init) => {
    if (init.method && init.method !== "GET") throw new Error(`The renderer sent ${init.method} ${urlPath}`);
    const res = await app.inject({
      method: "GET",
      url: urlPath,
      headers: { accept: "application/json" },
      remoteAddress: address,
    });
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, {
      status: res.statusCode,
      headers: { "content-type": String(res.headers["content-type"] ?? "application/json") },
    });
  };
}

/**
 * Visitors' server-rendered pages, shared for a few seconds like the public API answers they are made of, and
 * compressed once per render. Every member gets the same HTML (their own state follows after hydration), so one
 * render serves everyone until a change clears it.
 */
export function createPageRendering(opts: { app: App; module: RendererModule; ttlMs: number; maxEntries: number }) {
  const render = rendererOf(opts.module);
  const cache = createPublicCache({ ttlMs: opts.ttlMs, maxEntries: opts.maxEntries });

  return {
    /**
     * The rendered document of `url` (path and query) inside `template` (index.html with the page's head); throws
     * when the render could not get its data (the caller then sends the plain page).
     */
    async document(url: string, template: string, address: string): Promise<Cached<RenderedDocument>> {
      return cache.through(
        url,
        async () => {
          const page = await render(`http://unheard.local${url}`, transportFor(opts.app, address));
          if (page.kind === "redirect") throw new Error(`The page ${url} redirects to ${page.location}`);
          if (page.failed) throw new Error(`The page ${url} could not load its data`);
          const html = template.replace(
            /<div id="root"><\/div>/,
            () => `<div id="root">${page.html}</div>${page.dataScript}`,
          );
          const [gzip, br] = await Promise.all([
            gz(html, { level: 6 }),
            brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
          ]);
          return { status: page.status, html, gzip, br };
        },
        (doc) => doc.html,
      );
    },
    /** The document of `url` rendered within the last few seconds, if any. */
    peek(url: string): Cached<RenderedDocument> | undefined {
      return cache.peek<RenderedDocument>(url);
    },
    /** Drop what a change makes stale: a favourite or play count only its song's page; any other change everything. */
    onEvent(event: AppEvent): void {
      if (event.type === "song.changed") {
        if (countsOnly(event.data)) cache.forget(`/song/${event.songId}`);
        else cache.clear();
      } else if (event.type === "artist.changed") cache.clear();
    },
  };
}

/** The server-rendered pages. */
export type PageRendering = ReturnType<typeof createPageRendering>;

/** Whether `accept-encoding` accepts `coding` (not refused with q=0). */
function accepts(header: string, coding: string): boolean {
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().split(";");
    if (name?.trim().toLowerCase() !== coding) return false;
    const q = params.find((p) => p.trim().startsWith("q="));
    return !q || Number(q.trim().slice(2)) > 0;
  });
}

/** Send a rendered page: 304 when the browser has it, else compressed as the browser accepts (brotli, gzip). */
export function sendRendered(req: FastifyRequest, reply: FastifyReply, doc: Cached<RenderedDocument>): FastifyReply {
  reply.header("etag", doc.etag).header("vary", "accept-encoding");
  if (req.headers["if-none-match"] === doc.etag) return reply.status(304).send();
  reply.status(doc.value.status);
  const accept = String(req.headers["accept-encoding"] ?? "");
  if (accepts(accept, "br")) return reply.header("content-encoding", "br").send(doc.value.br);
  if (accepts(accept, "gzip")) return reply.header("content-encoding", "gzip").send(doc.value.gzip);
  return reply.send(doc.value.html);
}

import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import {
  AVAILABILITIES,
  GENRES,
  PAGE_ROUTES,
  type PageMatch,
  type PageRoute,
  QUALITIES,
  RELEASE_FILTERS,
  SONG_TAGS,
  TRACKER_AVAILABILITY_ORDER,
} from "@unheard/shared";
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

// ---- Which URL a page is: the query parameters it reads, and nothing else (issue 38) ----

/** A query parameter and its value, in the order a canonical URL writes them. */
type Param = [name: string, value: string];

/** The search term the API takes (searchQuerySchema: trimmed, at most 100 characters). */
const SEARCH_MAX = 100;

/** `value` when it is one of `values`. */
const oneOf = (values: readonly string[], value: string | null): value is string =>
  value !== null && values.includes(value);

/** A search term as the home page reads it (trimmed), cut to what the API takes, never half a character. */
function searchTerm(raw: string | null): string {
  return (raw ?? "")
    .trim()
    .slice(0, SEARCH_MAX)
    .replace(/[\uD800-\uDBFF]$/, "");
}

// The artist page's tracker views and sorts (apps/web/src/features/artists/tracker-model.ts; the test compares).
const TRACKER_VIEWS = ["eras", "table", "cards"];
const SORT_KEYS = ["name", "leak", "availability", "quality"];
const TRACKER_QUALITIES = [...QUALITIES, "unknown"];

/**
 * The query parameters each server-rendered page reads, with the values its screens accept (what the browser's
 * router would make of the URL: apps/web's filtersFromParams, viewFromParams, tableFromParams and the era list).
 * Anything else would render the same page again under another URL.
 */
const PAGE_PARAMS: Partial<Record<PageRoute, (query: URLSearchParams) => Param[]>> = {
  // Search results for `q` (trimmed); without one, the feeds and their filters.
  home(query) {
    const q = searchTerm(query.get("q"));
    if (q) return [["q", q]];
    const out: Param[] = [];
    const genre = query.get("genre");
    if (oneOf(GENRES, genre)) out.push(["genre", genre]);
    const release = query.get("release");
    if (oneOf(RELEASE_FILTERS, release)) out.push(["release", release]);
    if (oneOf(["1", "true"], query.get("next7"))) out.push(["next7", "1"]);
    const availability = query.get("availability");
    if (oneOf(AVAILABILITIES, availability)) out.push(["availability", availability]);
    const quality = query.get("quality");
    if (oneOf(QUALITIES, quality)) out.push(["quality", quality]);
    return out;
  },
  // The tracker's view: its eras (one era's own page with `era`), the table with its sort and filters, or cards.
  artist(query) {
    const view = query.get("view");
    if (!oneOf(TRACKER_VIEWS, view) || view === "eras") {
      const era = query.get("era");
      return era ? [["era", era]] : [];
    }
    if (view === "cards") return [["view", view]];
    const out: Param[] = [["view", view]];
    const sort = query.get("sort");
    if (oneOf(SORT_KEYS, sort)) out.push(["sort", sort]);
    if (query.get("dir") === "desc") out.push(["dir", "desc"]);
    const availability = query.get("availability");
    if (oneOf(TRACKER_AVAILABILITY_ORDER, availability)) out.push(["availability", availability]);
    const quality = query.get("quality");
    if (oneOf(TRACKER_QUALITIES, quality)) out.push(["quality", quality]);
    const tag = query.get("tag");
    if (oneOf(SONG_TAGS, tag)) out.push(["tag", tag]);
    const q = query.get("q");
    if (q) out.push(["q", q]);
    return out;
  },
  song: () => [],
  about: () => [],
  landing: () => [],
};

/** Whether `route` is rendered on the server (decision 026): its URL is then made canonical before anything else. */
export function isServerRendered(route: PageRoute): boolean {
  return PAGE_PARAMS[route] !== undefined;
}

/** A server-rendered page's one URL: its path and the parameters it reads (the render and cache key). */
export type CanonicalPage = { url: string; path: string; params: Param[] };

/** The canonical URL of a server-rendered page, or undefined for a page the browser renders. */
export function canonicalPage(match: PageMatch, query: URLSearchParams): CanonicalPage | undefined {
  const read = PAGE_PARAMS[match.route];
  if (!read) return undefined;
  const pattern: string = PAGE_ROUTES[match.route];
  const path = `/${pattern.replace(/:([\w-]+)/g, (_, name: string) => encodeURIComponent(match.params[name] ?? ""))}`;
  const params = read(query);
  const search = new URLSearchParams(params).toString();
  return { url: search ? `${path}?${search}` : path, path, params };
}

/**
 * Whether a request with `query` asks for exactly the canonical page's parameters, however they are spelt
 * (percent-encoding, `+` for a space, their order). Anything more, less or different (an unknown parameter, a value
 * the page ignores) is redirected to the canonical URL. The path is not compared: another letter case or a trailing
 * slash is the same page to the browser's router, and is answered in place from the canonical page.
 */
export function isCanonicalRequest(query: URLSearchParams, page: CanonicalPage): boolean {
  const asked = [...query].map((p) => JSON.stringify(p)).sort();
  const wanted = page.params.map((p) => JSON.stringify(p)).sort();
  return asked.length === wanted.length && asked.every((p, i) => p === wanted[i]);
}

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

/** A document's weight in the cache: the HTML and its two compressed copies. */
const documentSize = (value: unknown, body: string): number => {
  const doc = value as RenderedDocument;
  return body.length + doc.gzip.length + doc.br.length;
};

/**
 * How much of the server's time making pages may take (issue 38). A render holds the event loop for milliseconds
 * in which nothing else runs, and its compression takes a core, so new pages are what the server gives up first when
 * others wait: time with a page being made while other requests arrive is owed, paid back at `share` of the time
 * passing, and a new page starts only while less than `share` of a second is owed; time nobody waited through (a
 * lone crawler, a quiet server) costs nothing. Refreshes of kept pages that expired have a budget of their own
 * (`refreshesPerSecond`), so a flood of new pages never starves the pages people keep asking for; at most
 * `inFlight` pages are made at once. Past them a page is sent as rendered last (when no change has dropped it and it
 * expired less than STALE_MS ago) or plain (the browser renders it).
 */
export type RenderBudget = { share: number; refreshesPerSecond: number; inFlight: number };
const RENDER_BUDGET: RenderBudget = { share: 0.1, refreshesPerSecond: 10, inFlight: 4 };
/** How long a page past its TTL may still be sent while renders are over their budget. */
const STALE_MS = 60_000;

/** A token bucket of `perSecond` tokens a second, holding at most a second's worth. */
function bucket(perSecond: number, now: () => number) {
  let tokens = perSecond;
  let at = now();
  return (): boolean => {
    const t = now();
    tokens = Math.min(perSecond, tokens + ((t - at) / 1000) * perSecond);
    at = t;
    if (tokens < 1) return false;
    tokens--;
    return true;
  };
}

/**
 * The render budget's bookkeeping: `take` before a render (a refresh or a new page), `done` after it. `arrivals`
 * counts the requests that have reached the server (its own in-process API calls are not requests). Time with a
 * render running is counted once however many run, and only while requests arrive.
 */
function renderBudget(opts: RenderBudget, now: () => number, arrivals: () => number) {
  const refreshes = bucket(opts.refreshesPerSecond, now);
  let owed = 0;
  let at = now();
  let seen = arrivals();
  let running = 0;
  /** Bring the account to now: time paid back at `share`, time spent rendering while others waited owed. */
  const settle = () => {
    const t = now();
    const arrived = arrivals();
    owed = Math.max(0, owed - (t - at) * opts.share) + (running > 0 && arrived !== seen ? t - at : 0);
    at = t;
    seen = arrived;
  };
  return {
    /** Whether a render may start now; when it may, it counts as running until `done`. */
    take(refresh: boolean): boolean {
      settle();
      if (running >= opts.inFlight) return false;
      if (refresh ? !refreshes() : owed >= opts.share * 1000) return false;
      running++;
      return true;
    },
    done(): void {
      settle();
      running--;
    },
  };
}

/** A render refused by the budget: not an error, the page is sent another way. */
const BUSY = new Error("renders are over their budget");

/**
 * Visitors' server-rendered pages, shared for a few seconds like the public API answers they are made of, and
 * compressed once per render. Every member gets the same HTML (their own state follows after hydration), so one
 * render serves everyone until a change clears it. Pages are keyed by their canonical URL (`canonicalPage`), kept
 * within `maxBytes` by the public cache's admission policy, and rendered within the render budget.
 */
export function createPageRendering(opts: {
  app: App;
  module: RendererModule;
  ttlMs: number;
  maxBytes: number;
  budget?: RenderBudget;
  /** The clock of the TTL and the render budget (ms); tests move it. */
  now?: () => number;
  /** Requests that have reached the server so far (default: counted on the app's HTTP server); tests count theirs. */
  arrivals?: () => number;
}) {
  const now = opts.now ?? Date.now;
  let arrived = 0;
  if (!opts.arrivals)
    opts.app.server.on("request", () => {
      arrived++;
    });
  const arrivals = opts.arrivals ?? (() => arrived);
  const render = rendererOf(opts.module);
  const cache = createPublicCache({
    ttlMs: opts.ttlMs,
    maxBytes: opts.maxBytes,
    sizeOf: documentSize,
    keepStaleMs: STALE_MS,
    now,
  });
  const budget = renderBudget(opts.budget ?? RENDER_BUDGET, now, arrivals);

  return {
    /**
     * The rendered document of the canonical page `url` inside `template` (index.html with the page's head), or
     * undefined when renders are over their budget; throws when the render could not get its data (the caller
     * then sends the plain page).
     */
    async document(url: string, template: string, address: string): Promise<Cached<RenderedDocument> | undefined> {
      try {
        return await cache.through(
          url,
          async () => {
            // A page kept before and expired (no change dropped it) is a refresh; any other a new page.
            if (!budget.take(cache.lastKnown(url) !== undefined)) throw BUSY;
            // The whole document counts, its compression too (on the thread pool, but the same CPU cores).
            try {
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
            } finally {
              budget.done();
            }
          },
          (doc) => doc.html,
        );
      } catch (err) {
        if (err === BUSY) return undefined;
        throw err;
      }
    },
    /** The document of `url` rendered within the last few seconds, if any. */
    peek(url: string): Cached<RenderedDocument> | undefined {
      return cache.peek<RenderedDocument>(url);
    },
    /** The document of `url` rendered last, if no change has dropped it and it expired less than a minute ago. */
    lastKnown(url: string): Cached<RenderedDocument> | undefined {
      return cache.lastKnown<RenderedDocument>(url);
    },
    /** Drop what a change makes stale: a favourite or play count only its song's page; any other change everything. */
    onEvent(event: AppEvent): void {
      if (event.type === "song.changed") {
        if (countsOnly(event.data)) cache.forget(`/song/${encodeURIComponent(event.songId)}`);
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

// Said here, not in the API's messages: a page's own words, for whoever opens it in a browser.
const TOO_MANY_PAGES =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  "<title>Too many requests · Unheard</title></head><body><main><h1>Too many requests</h1>" +
  "<p>Too many pages were asked for from your address. Please wait a minute and try again.</p></main></body></html>";

/** Refuse a page over the asker's per-address budget: 429 with Retry-After, before any look-up or render. */
export function sendTooManyPages(reply: FastifyReply, retryAfterSec: number): FastifyReply {
  return reply
    .status(429)
    .header("retry-after", String(retryAfterSec))
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(TOO_MANY_PAGES);
}

// Server rendering (decision 026): the Fastify server imports the build of this file (apps/web/dist-ssr) and renders
// the visitors' pages from the same routes, components and queries as the browser, their API calls answered by the
// server in-process. The browser hydrates the HTML (main.tsx) with the query data embedded beside it.
import { dehydrate, type Query, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { AppFrame } from "./app/app-frame";
import { DataPassContext } from "./app/data-pass";
import { routes } from "./app/router";
import { meKey } from "./features/accounts/me";
import { type ApiTransport, setApiTransport } from "./lib/api/api";
import { QUERIES_ELEMENT_ID } from "./lib/ssr-data";

/** A rendered page: its status, the HTML inside #root, and the script that hands the data to the browser. */
export type RenderedPage =
  | { kind: "page"; status: number; html: string; dataScript: string; failed: boolean }
  | { kind: "redirect"; status: number; location: string };

/** Renders one URL as a visitor sees it, its API requests answered by `transport`. */
export type PageRenderer = (url: string, transport: ApiTransport) => Promise<RenderedPage>;

/** Between renders' fetches no request may leave: a query started at another moment would use the wrong asker. */
const outsideFetches: ApiTransport = (path) =>
  Promise.reject(new Error(`The API request ${path} was not started by a render's fetches`));

// Queries a page starts in the render are fetched and the page rendered again, until none is left waiting (a song
// page's history waits for the song: two rounds); more would mean a render loop.
const MAX_PASSES = 4;

/** Rounds of queries each route took last time (see the render loop). */
const roundsByRoute = new Map<string, number>();

/** Who is signed in is never part of the shared HTML: members get the visitor's page, then their own state. */
const isPerViewer = (q: Query) => q.queryKey[0] === meKey[0];

/** Whether a query the render built would run in the browser (not `enabled: false`). */
function isEnabled(q: Query): boolean {
  const enabled = (q.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === "function" ? enabled(q) : enabled !== false;
}

/** The JSON of `value` safe inside a <script>: no "</script>" or "<!--" can end it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The renderer; each render's `transport` answers its API requests (the server's own routes, as a visitor). */
export function createPageRenderer(): PageRenderer {
  setApiTransport(outsideFetches);
  const handler = createStaticHandler(routes);
  return async (url, transport) => {
    const context = await handler.query(new Request(url));
    if (context instanceof Response) {
      return { kind: "redirect", status: context.status, location: context.headers.get("location") ?? "/" };
    }
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const tree = (dataPass: boolean) => (
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <DataPassContext value={dataPass}>
            <AppFrame>
              {/* No hydration script: the routes have no loaders, and the page's CSP allows no inline script. */}
              <StaticRouterProvider
                router={createStaticRouter(handler.dataRoutes, context)}
                context={context}
                hydrate={false}
              />
            </AppFrame>
          </DataPassContext>
        </QueryClientProvider>
      </StrictMode>
    );
    const renderPage = (dataPass: boolean): string => renderToString(tree(dataPass));
    // Data passes render the page without its frame, to learn which queries it starts; the last pass renders it
    // whole. How many rounds of queries a route needs is remembered, so its last round is rendered whole at once
    // (a guess too low costs one more pass; too high, one more whole render).
    const route = context.matches.map((m) => m.route.id).join(" ");
    const expected = roundsByRoute.get(route) ?? 0;
    let html = "";
    for (let round = 0; ; round++) {
      const whole = round >= expected || round === MAX_PASSES;
      const out = renderPage(!whole);
      const waiting = queryClient
        .getQueryCache()
        .getAll()
        .filter(
          (q) => q.state.status === "pending" && q.state.fetchStatus === "idle" && !isPerViewer(q) && isEnabled(q),
        );
      if (waiting.length === 0 || round === MAX_PASSES) {
        html = whole ? out : renderPage(false);
        roundsByRoute.set(route, round);
        break;
      }
      // The app's API client has one transport; this render's is in place only while its fetches start. A query
      // calls its function, and the request leaves, synchronously within fetch() (TanStack's retryer starts at
      // once), so concurrent renders never share one; a request started later fails and the page is sent plain.
      setApiTransport(transport);
      let fetches: Promise<unknown>[];
      try {
        fetches = waiting.map((q) => q.fetch().catch(() => undefined));
      } finally {
        setApiTransport(outsideFetches);
      }
      await Promise.all(fetches);
      // A page whose data could not be read (an API refusal or failure, e.g. the asker's per-address limit) is not
      // worth sharing or rendering further: the server sends the plain page, and the browser asks again.
      if (
        queryClient
          .getQueryCache()
          .getAll()
          .some((q) => q.state.status === "error" && !isPerViewer(q))
      ) {
        queryClient.clear();
        return { kind: "page", status: context.statusCode, html: "", dataScript: "", failed: true };
      }
    }
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (q) => q.state.status === "success" && !isPerViewer(q),
    });
    queryClient.clear();
    return {
      kind: "page",
      status: context.statusCode,
      html,
      failed: false,
      // A data block, not a script: the CSP (script-src 'self') lets it be, and main.tsx reads it.
      dataScript: `<script type="application/json" id="${QUERIES_ELEMENT_ID}">${scriptJson(state)}</script>`,
    };
  };
}

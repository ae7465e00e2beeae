import { type DehydratedState, hydrate, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { matchRoutes } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppFrame } from "./app/app-frame";
import { queryClient } from "./app/query-client";
import { createAppRouter, routes } from "./app/router";
import { meKey } from "./features/accounts/me";
import { renderedQueries } from "./lib/ssr-data";
import { preloadToastsWhenIdle } from "./lib/toast";
import "./index.css";

/**
 * Load the screens of the current URL before hydrating: a lazy route still loading would render the fallback
 * instead of the server's HTML.
 */
async function loadInitialScreens(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== "function") return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

/**
 * The server renders every page as a visitor sees it. Once the session is known to be a member's, the lists and
 * songs it rendered are fetched again with their own state (favourites, votes).
 */
function refetchForMembers(state: DehydratedState): void {
  const rendered = new Set(state.queries.map((q) => q.queryHash));
  const cache = queryClient.getQueryCache();
  const stop = cache.subscribe((event) => {
    const q = event.query;
    if (q.queryKey[0] !== meKey[0] || q.state.status !== "success") return;
    stop();
    if (q.state.data) void queryClient.invalidateQueries({ predicate: (other) => rendered.has(other.queryHash) });
  });
}

async function start(root: HTMLElement): Promise<void> {
  const state = renderedQueries();
  if (state) {
    hydrate(queryClient, state);
    refetchForMembers(state);
    await loadInitialScreens();
  }
  const app = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppFrame>
          <RouterProvider router={createAppRouter()} />
        </AppFrame>
      </QueryClientProvider>
    </StrictMode>
  );
  if (state) hydrateRoot(root, app);
  else createRoot(root).render(app);
  preloadToastsWhenIdle();
}

const root = document.getElementById("root");
if (root) void start(root);

import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { meKey } from "../features/accounts/me";
import { isApiError } from "../lib/api/api";

/** A 401 'unauthorized' from any call means the session ended (expired, or signed out elsewhere). */
function onSessionMaybeEnded(err: unknown): void {
  if (isApiError(err) && err.status === 401 && err.code === "unauthorized") {
    void queryClient.invalidateQueries({ queryKey: meKey });
  }
}

/** The app's one query cache. */
export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (query.queryKey[0] !== meKey[0]) onSessionMaybeEnded(err);
    },
  }),
  mutationCache: new MutationCache({ onError: onSessionMaybeEnded }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A refusal (4xx) will not change on retry; network and server errors may.
      retry: (count, err) => !(isApiError(err) && err.status >= 400 && err.status < 500) && count < 2,
    },
    mutations: {
      // Actions fail at once while offline (and say so) instead of waiting silently for the network.
      networkMode: "always",
      retry: false,
    },
  },
});

import { type QueryClient, type QueryKey, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, isApiError } from "./api";

/** A list the API answers as `{ items }` (GET `path`), cached as the bare items under `queryKey`. */
export function itemsQuery<T>(queryKey: QueryKey, path: string) {
  return queryOptions({ queryKey, queryFn: async () => (await api.get<{ items: T[] }>(path)).items });
}

/** Drop one row (by id) from a cached list of items, as when it left a queue. */
function removeItem<T extends { id: string }>(queryClient: QueryClient, queryKey: QueryKey, id: string): void {
  queryClient.setQueryData<T[]>(queryKey, (list) => list?.filter((item) => item.id !== id));
}

/** True when a refusal means the list on screen is out of date (someone else acted first). */
function listIsStale(err: unknown): boolean {
  return isApiError(err) && (err.status === 404 || err.status === 409);
}

/**
 * An action that settles one row of an admin queue (the list under `queue`): on success the row, `idOf(input)`,
 * leaves the list and `after` runs; with `reloadWhenStale`, a refusal saying the list is out of date reloads it.
 */
export function useQueueAction<I, R>(
  queue: QueryKey,
  mutationFn: (input: I) => Promise<R>,
  idOf: (input: I) => string,
  {
    after,
    reloadWhenStale = false,
  }: { after?: (queryClient: QueryClient, input: I) => void; reloadWhenStale?: boolean },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_res, input) => {
      removeItem(queryClient, queue, idOf(input));
      after?.(queryClient, input);
    },
    onError: (err) => {
      if (reloadWhenStale && listIsStale(err)) void queryClient.invalidateQueries({ queryKey: queue });
    },
  });
}

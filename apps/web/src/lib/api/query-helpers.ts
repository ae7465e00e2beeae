import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  type QueryKey,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { api, isApiError } from "./api";

/** A list the API answers as `{ items }` (GET `path`), cached as the bare items under `queryKey`. */
export function itemsQuery<T>(queryKey: QueryKey, path: string) {
  return queryOptions({ queryKey, queryFn: async () => (await api.get<{ items: T[] }>(path)).items });
}

/**
 * A page of an admin list as the API answers it (queues and the waitlist oldest first, the audit log newest first):
 * the cursor of the next page, and the count of all.
 */
export type QueuePage<T> = { items: T[]; nextCursor: string | null; total: number };

/**
 * An admin list (a queue, the waitlist, the audit log) read a page at a time (`useInfiniteQuery`; "Load more"
 * fetches the next): `select` gives the loaded rows as one list and the list's total, so none is ever cut at its
 * first page.
 */
export function queuePagesQuery<T>(queryKey: QueryKey, path: string) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) =>
      api.get<QueuePage<T>>(pageParam ? `${path}?cursor=${encodeURIComponent(pageParam)}` : path),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => ({
      items: data.pages.flatMap((p) => p.items),
      total: data.pages.at(-1)?.total ?? 0,
    }),
  });
}

/** Change every cached row of a list, whether cached as plain items or as a queue's pages. */
export function updateItems<T>(queryClient: QueryClient, queryKey: QueryKey, change: (items: T[]) => T[]): void {
  queryClient.setQueryData<T[] | InfiniteData<QueuePage<T>, string | null>>(queryKey, (data) => {
    if (!data) return data;
    if (Array.isArray(data)) return change(data);
    // One row fewer in the queue: its total too (approximately, until the next fetch).
    return {
      ...data,
      pages: data.pages.map((p) => {
        const items = change(p.items);
        return { ...p, items, total: Math.max(0, p.total - (p.items.length - items.length)) };
      }),
    };
  });
}

/** Drop one row (by id) from a cached list of items, as when it left a queue. */
function removeItem<T extends { id: string }>(queryClient: QueryClient, queryKey: QueryKey, id: string): void {
  updateItems<T>(queryClient, queryKey, (list) => list.filter((item) => item.id !== id));
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

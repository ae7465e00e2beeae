import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ImportBatch, TrackerLink, TrackerLinkInput } from "@unheard/shared";
import { api, type OkResponse } from "../../lib/api/api";
import { refreshSongLists } from "../../lib/api/live";
import { itemsQuery, updateItems } from "../../lib/api/query-helpers";
import { importsKey, trackerLinksKey as linksKey } from "./imports";

/** How often a link that is syncing (or applying an approved sync) is asked how it is doing. */
export const SYNC_POLL_MS = 2000;

const linkPath = (id: string) => `/api/tracker-links/${encodeURIComponent(id)}`;

/** A link is busy while a sync of it is queued or running, or the batch it applies is still running. */
export const isBusy = (link: TrackerLink) => link.syncing || link.lastBatch?.status === "running";

/** Put a link as the server answered it into the cached list (a new one goes in by artist name). */
function store(queryClient: QueryClient, link: TrackerLink): void {
  updateItems<TrackerLink>(queryClient, linksKey, (items) =>
    items.some((l) => l.id === link.id)
      ? items.map((l) => (l.id === link.id ? link : l))
      : [...items, link].sort((a, b) => a.artist.name.localeCompare(b.artist.name)),
  );
}

/** Batches and songs a sync may have changed: the past imports and the song lists load again. */
function refreshAfterSync(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: importsKey });
  void refreshSongLists(queryClient);
}

/** A link list on screen is read again this often: syncs on schedule show without a reload. */
const LIST_REFRESH_MS = 60_000;

/** The linked trackers. */
export function useTrackerLinks() {
  return useQuery({ ...itemsQuery<TrackerLink>(linksKey, "/api/tracker-links"), refetchInterval: LIST_REFRESH_MS });
}

/**
 * While `link` is busy, ask for it every 2 s and put each answer in the list; once it settles, the batches and song
 * lists it may have changed load again.
 */
export function useLinkWhileBusy(link: TrackerLink) {
  const queryClient = useQueryClient();
  const busy = isBusy(link);
  return useQuery({
    queryKey: [...linksKey, link.id],
    queryFn: async () => {
      const next = await api.get<TrackerLink>(linkPath(link.id));
      store(queryClient, next);
      if (!isBusy(next)) refreshAfterSync(queryClient);
      return next;
    },
    enabled: busy,
    refetchInterval: (query) => (query.state.data && !isBusy(query.state.data) ? false : SYNC_POLL_MS),
    // Each busy spell asks afresh: an answer from the last one says nothing about this one.
    gcTime: 0,
    staleTime: 0,
  });
}

/** The fields of the link form: which artist's tracker, the sheet's link, the schedule. */
export type LinkFields = Pick<TrackerLinkInput, "artist" | "url" | "intervalMinutes" | "asVerified">;

/** Link an artist's tracker to a sheet; its first sync is queued at once and waits for approval. */
export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LinkFields) => api.post<TrackerLink>("/api/tracker-links", input),
    onSuccess: (link) => store(queryClient, link),
  });
}

/**
 * Change a link: a new sheet link or "import as verified" replaces it (the sheet is read afresh); a new schedule
 * alone is a patch (nothing is fetched).
 */
export function useChangeLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ link, input }: { link: TrackerLink; input: LinkFields }) =>
      input.url.trim() === link.sourceUrl && input.asVerified === link.asVerified
        ? api.patch<TrackerLink>(linkPath(link.id), { intervalMinutes: input.intervalMinutes })
        : api.put<TrackerLink>(linkPath(link.id), input),
    onSuccess: (link) => store(queryClient, link),
  });
}

/** Pause a link, or resume it (resuming syncs now). */
export function usePauseLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) => api.patch<TrackerLink>(linkPath(id), { paused }),
    onSuccess: (link) => store(queryClient, link),
  });
}

/** "Sync now": queued at once. */
export function useSyncNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TrackerLink>(`${linkPath(id)}/sync`),
    onSuccess: (link) => store(queryClient, link),
  });
}

/** Unlink: the songs stay as they are, a sync waiting for approval is rejected. */
export function useUnlink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkResponse>(linkPath(id)),
    onSuccess: (_res, id) => {
      updateItems<TrackerLink>(queryClient, linksKey, (items) => items.filter((l) => l.id !== id));
      void queryClient.invalidateQueries({ queryKey: importsKey });
    },
  });
}

/** Approve or reject a sync waiting for approval: the links and batches load again. */
export function useDecideSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ batchId, approve }: { batchId: string; approve: boolean }) =>
      api.post<ImportBatch>(`/api/imports/${encodeURIComponent(batchId)}/${approve ? "approve" : "reject"}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: linksKey });
      refreshAfterSync(queryClient);
    },
  });
}

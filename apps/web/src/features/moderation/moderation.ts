import { type QueryClient, queryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditSuggestion, Report, Song, SuggestEditInput } from "@unheard/shared";
import { api, type OkResponse } from "../../lib/api/api";
import { queuePagesQuery, updateItems, useQueueAction } from "../../lib/api/query-helpers";
import { meKey } from "../accounts/me";

/** Every cached answer that may show a song: after a moderation change they are refetched. */
export function invalidateSongViews(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
}

// ---------------------------------------------------------------------------------------------------
// Reports

/** Query key of the pending reports list. */
export const reportsKey = ["moderation", "reports"] as const;

/** The admin's report queue: GET /api/reports, pending reports oldest first, a page at a time (admins). */
export function useReports() {
  return useInfiniteQuery(queuePagesQuery<Report>(reportsKey, "/api/reports"));
}

/** Resolve or reject a report; the row leaves the queue on success. */
export function useProcessReport() {
  return useQueueAction(
    reportsKey,
    (input: { id: string; action: "resolve" | "reject" }) =>
      api.post<OkResponse>(`/api/reports/${encodeURIComponent(input.id)}/process`, { action: input.action }),
    (input) => input.id,
    { reloadWhenStale: true },
  );
}

/** Hide a song from every list (or show it again). */
export function useSetSongHidden() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { songId: string; hidden: boolean }) =>
      api.put<OkResponse>(`/api/songs/${encodeURIComponent(input.songId)}/hidden`, { hidden: input.hidden }),
    onSuccess: (_res, { songId, hidden }) => {
      updateItems<Report>(queryClient, reportsKey, (list) =>
        list.map((r) => (r.songId === songId ? { ...r, songHidden: hidden } : r)),
      );
      void invalidateSongViews(queryClient);
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Edit suggestions

/** The song a suggestion form starts from; kept apart from the song page's own cache entries. */
export function suggestEditSongQuery(id: string) {
  return queryOptions({
    queryKey: ["moderation", "song", id] as const,
    queryFn: () => api.get<Song>(`/api/songs/${encodeURIComponent(id)}`),
    // The form must start from the values as they are now.
    staleTime: 0,
  });
}

/** Answer of POST /api/songs/:id/edit-suggestions. */
export type SuggestEditResponse = OkResponse & { id: string };

/** Propose an edit to a song. */
export function useSuggestEdit(songId: string) {
  return useMutation({
    mutationFn: (input: SuggestEditInput) =>
      api.post<SuggestEditResponse>(`/api/songs/${encodeURIComponent(songId)}/edit-suggestions`, input),
  });
}

/** Query key of the pending edit suggestions. */
export const editSuggestionsKey = ["moderation", "edit-suggestions"] as const;

/**
 * The admin's edit suggestion queue: GET /api/edit-suggestions, oldest first, a page at a time, with each song's
 * current values (admins).
 */
export function useEditSuggestions() {
  return useInfiniteQuery(queuePagesQuery<EditSuggestion>(editSuggestionsKey, "/api/edit-suggestions"));
}

/** What an admin decides about a suggestion. */
export type ReviewInput = {
  id: string;
  songId: string;
  action: "approve" | "reject";
  notes?: string;
  /** Set once the admin has seen that the song changed since the suggestion. */
  overrideNewerEdits?: boolean;
};

/** Approve (applied to the song) or reject a suggestion. */
export function useReviewSuggestion() {
  return useQueueAction(
    editSuggestionsKey,
    ({ id, action, notes, overrideNewerEdits }: ReviewInput) =>
      api.post<OkResponse>(`/api/edit-suggestions/${encodeURIComponent(id)}/review`, {
        action,
        ...(notes ? { notes } : {}),
        ...(overrideNewerEdits ? { overrideNewerEdits: true } : {}),
      }),
    (input) => input.id,
    {
      reloadWhenStale: true,
      after: (queryClient, { action }) => {
        // Approved, the song changed: its page, its history and other suggestions' "current" values.
        if (action === "approve") void invalidateSongViews(queryClient);
      },
    },
  );
}

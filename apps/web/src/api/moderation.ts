import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EditSuggestion, Report, Song, SuggestEditInput } from "@unheard/shared";
import { api, isApiError } from "./api";
import type { OkResponse } from "./auth";
import { meKey } from "./me";

/** Every cached answer that may show a song: after a moderation change they are refetched. */
export function invalidateSongViews(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
}

/** True when a refusal means the list on screen is out of date (someone else acted first). */
function listIsStale(err: unknown): boolean {
  return isApiError(err) && (err.status === 404 || err.status === 409);
}

// ---------------------------------------------------------------------------------------------------
// Reports

/** Query key of the pending reports list. */
export const reportsKey = ["moderation", "reports"] as const;

/** GET /api/reports: pending reports, oldest first (admins). */
export const reportsQuery = queryOptions({
  queryKey: reportsKey,
  queryFn: async () => (await api.get<{ items: Report[] }>("/api/reports")).items,
});

/** The admin's report queue. */
export function useReports() {
  return useQuery(reportsQuery);
}

/** Resolve or reject a report; the row leaves the queue on success. */
export function useProcessReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; action: "resolve" | "reject" }) =>
      api.post<OkResponse>(`/api/reports/${encodeURIComponent(input.id)}/process`, { action: input.action }),
    onSuccess: (_res, { id }) => {
      queryClient.setQueryData<Report[]>(reportsKey, (list) => list?.filter((r) => r.id !== id));
    },
    onError: (err) => {
      if (listIsStale(err)) void queryClient.invalidateQueries({ queryKey: reportsKey });
    },
  });
}

/** Hide a song from every list (or show it again). */
export function useSetSongHidden() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { songId: string; hidden: boolean }) =>
      api.put<OkResponse>(`/api/songs/${encodeURIComponent(input.songId)}/hidden`, { hidden: input.hidden }),
    onSuccess: (_res, { songId, hidden }) => {
      queryClient.setQueryData<Report[]>(reportsKey, (list) =>
        list?.map((r) => (r.songId === songId ? { ...r, songHidden: hidden } : r)),
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

/** GET /api/edit-suggestions: pending suggestions with the song's current values (admins). */
export const editSuggestionsQuery = queryOptions({
  queryKey: editSuggestionsKey,
  queryFn: async () => (await api.get<{ items: EditSuggestion[] }>("/api/edit-suggestions")).items,
});

/** The admin's edit suggestion queue. */
export function useEditSuggestions() {
  return useQuery(editSuggestionsQuery);
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, notes, overrideNewerEdits }: ReviewInput) =>
      api.post<OkResponse>(`/api/edit-suggestions/${encodeURIComponent(id)}/review`, {
        action,
        ...(notes ? { notes } : {}),
        ...(overrideNewerEdits ? { overrideNewerEdits: true } : {}),
      }),
    onSuccess: (_res, { id, action }) => {
      queryClient.setQueryData<EditSuggestion[]>(editSuggestionsKey, (list) => list?.filter((s) => s.id !== id));
      if (action === "approve") {
        // The song changed: its page, its history and other suggestions' "current" values.
        void invalidateSongViews(queryClient);
      }
    },
    onError: (err) => {
      if (listIsStale(err)) void queryClient.invalidateQueries({ queryKey: editSuggestionsKey });
    },
  });
}

import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Artist, ArtistHit, ArtistTracker, Era, EraInput, FollowState, UpdateArtistInput } from "@unheard/shared";
import { api, type OkResponse } from "../../lib/api/api";
import { SONG_LISTS_KEY } from "../../lib/api/live";
import { useSongPages } from "../songs/songs";

const enc = encodeURIComponent;

/** Query key of an artist's profile. */
export const artistKey = (id: string) => ["artist", id] as const;

/** Query key of an artist's tracks; under ["songs"] so live `song` events patch its cards like any list. */
export const artistSongsKey = (id: string) => [...SONG_LISTS_KEY, "artist", id] as const;

/** The artist profile shown on /artists/:artistId (GET /api/artists/:id). */
export function useArtist(id: string) {
  return useQuery({ queryKey: artistKey(id), queryFn: () => api.get<Artist>(`/api/artists/${enc(id)}`) });
}

/**
 * Query key of an artist's tracker. Not under the profile's key: following cancels and patches that one, and must
 * not cancel the tracker's first load.
 */
export const artistTrackerKey = (id: string) => ["artist-tracker", id] as const;

/** GET /api/artists/:id/tracker: the artist's public songs by era, newest first, with counts (issue 27). */
export function useArtistTracker(id: string) {
  return useQuery({
    queryKey: artistTrackerKey(id),
    queryFn: () => api.get<ArtistTracker>(`/api/artists/${enc(id)}/tracker`),
  });
}

/** Where an artist's tracker downloads as a CSV sheet (every public song, in the layout the import reads). */
export const artistTrackerCsvUrl = (id: string) => `/api/artists/${enc(id)}/tracker.csv`;

/** GET /api/artists/:id/songs: verified tracks (plus pending ones for the artist and admins), newest first. */
export function useArtistSongs(id: string) {
  return useSongPages(artistSongsKey(id), `/api/artists/${enc(id)}/songs`);
}

/**
 * Follow or unfollow (PUT / DELETE, both idempotent). The button and the count change at once; a failure
 * puts the previous state back, and the server's answer is the final word on the count.
 */
export function useFollowArtist(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? api.put<FollowState>(`/api/artists/${enc(id)}/follow`, {})
        : api.delete<FollowState>(`/api/artists/${enc(id)}/follow`),
    onMutate: async (follow) => {
      await queryClient.cancelQueries({ queryKey: artistKey(id) });
      const previous = queryClient.getQueryData<Artist>(artistKey(id));
      if (previous && previous.isFollowing !== follow) {
        queryClient.setQueryData<Artist>(artistKey(id), {
          ...previous,
          isFollowing: follow,
          followerCount: Math.max(0, previous.followerCount + (follow ? 1 : -1)),
        });
      }
      return { previous };
    },
    onError: (_err, _follow, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(artistKey(id), ctx.previous);
    },
    onSuccess: (state) => {
      queryClient.setQueryData<Artist>(artistKey(id), (a) =>
        a ? { ...a, isFollowing: state.following, followerCount: state.followerCount } : a,
      );
      // Recommendations on home draw on followed artists.
      void queryClient.invalidateQueries({ queryKey: [...SONG_LISTS_KEY, "recommendations"] });
    },
  });
}

/** PATCH /api/artists/:id: bio and social links (the artist themself or an admin). */
export function useUpdateArtist(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateArtistInput) => api.patch<Artist>(`/api/artists/${enc(id)}`, input),
    onSuccess: (artist) => queryClient.setQueryData(artistKey(id), artist),
  });
}

/**
 * PUT /api/artists/:id/eras: what one of the artist's eras is (description, cover, dates), by its name (the artist
 * themself or an admin who may edit artists). Settles once the tracker has been read again, so the era's heading
 * shows what was saved when the dialog closes.
 */
export function useSaveEra(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EraInput) => api.put<Era>(`/api/artists/${enc(id)}/eras`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistTrackerKey(id) }),
  });
}

/** PUT /api/admin/artists/:id/verified (super admins). */
export function useSetArtistVerified(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (verified: boolean) => api.put<OkResponse>(`/api/admin/artists/${enc(id)}/verified`, { verified }),
    onSuccess: (_res, verified) => {
      queryClient.setQueryData<Artist>(artistKey(id), (a) => (a ? { ...a, isVerified: verified } : a));
      void queryClient.invalidateQueries({ queryKey: ["admin", "audit"] });
    },
  });
}

/**
 * After a merge or claim the placeholder is gone and its songs carry another artist: reload what shows them.
 * The gone profile is only marked stale, not refetched: the page is leaving it, and a refetch would toast
 * 'Artist not found' (which is right only if someone comes Back to it).
 */
export function refreshAfterFold(queryClient: QueryClient, goneId: string, keptId: string): void {
  const isGone = (key: readonly unknown[]) =>
    ((key[0] === "artist" || key[0] === "artist-tracker") && key[1] === goneId) ||
    (key[0] === SONG_LISTS_KEY[0] && key[1] === "artist" && key[2] === goneId);
  void queryClient.invalidateQueries({ predicate: (q) => isGone(q.queryKey), refetchType: "none" });
  void queryClient.invalidateQueries({ queryKey: artistKey(keptId) });
  void queryClient.invalidateQueries({ queryKey: artistTrackerKey(keptId) });
  void queryClient.invalidateQueries({ queryKey: ["song"] });
  void queryClient.invalidateQueries({ queryKey: ["admin"] });
  void queryClient.invalidateQueries({ queryKey: SONG_LISTS_KEY, predicate: (q) => !isGone(q.queryKey) });
}

/** POST /api/admin/artists/merge: fold this placeholder (`mergeId`) into `keepId` (super admins); see refreshAfterFold. */
export function useMergeArtist(mergeId: string) {
  return useMutation({
    mutationFn: (keepId: string) => api.post<OkResponse>("/api/admin/artists/merge", { keepId, mergeId }),
  });
}

/** POST /api/admin/artists/:id/claim: link this placeholder's songs to a real account (admins); see refreshAfterFold. */
export function useClaimArtist(placeholderId: string) {
  return useMutation({
    mutationFn: (userId: string) => api.post<OkResponse>(`/api/admin/artists/${enc(placeholderId)}/claim`, { userId }),
  });
}

/** Artists matching a name for the merge dialog, from GET /api/admin/artists/search (super admins). */
export function useArtistSearch(q: string) {
  const term = q.trim();
  return useQuery({
    queryKey: ["artist-search", term],
    // The admins' search: public search leaves out artists with no public song, the placeholders merged most.
    queryFn: async () => (await api.get<{ artists: ArtistHit[] }>(`/api/admin/artists/search?q=${enc(term)}`)).artists,
    enabled: term.length > 0,
    placeholderData: keepPreviousData,
  });
}

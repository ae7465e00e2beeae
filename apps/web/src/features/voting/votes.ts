import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Song, SongVoters, VoteInput, VoteResult } from "@unheard/shared";
import { api } from "../../lib/api/api";
import { patchSong, refreshSongLists, songDetailKey } from "../../lib/api/live";

/** Answer of POST /api/songs/verify-all. */
export type VerifyAllResult = { ok: true; message: string; count: number };

/** Put a vote's outcome into every cached copy of the song; lists reload when the status moved. */
function applyVoteResult(queryClient: QueryClient, result: VoteResult, statusBefore: Song["status"]): void {
  patchSong(queryClient, result.songId, {
    upvotes: result.upvotes,
    downvotes: result.downvotes,
    net: result.net,
    status: result.status,
    verifiedAt: result.verifiedAt,
    myVote: result.myVote,
    myVoteNote: result.myVote ? result.note : null,
    verifiableAt: result.verifiableAt,
  });
  if (result.status !== statusBefore) void refreshSongLists(queryClient);
}

/** Set the viewer's vote to the wanted state (spec §4 toggle flow: the page decides the state). */
export function useVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ song, ...input }: VoteInput & { song: Song }) =>
      api.put<VoteResult>(`/api/songs/${encodeURIComponent(song.id)}/vote`, input),
    onSuccess: (result, { song }) => applyVoteResult(queryClient, result, song.status),
  });
}

/** Admin: verify a song directly. */
export function useVerifySong() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (song: Song) => api.post<VoteResult>(`/api/songs/${encodeURIComponent(song.id)}/verify`),
    onSuccess: (result, song) => applyVoteResult(queryClient, result, song.status),
  });
}

/** Super admin: verify every pending song. */
export function useVerifyAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<VerifyAllResult>("/api/songs/verify-all"),
    onSuccess: () => {
      void refreshSongLists(queryClient);
      // Open song pages show the new status too.
      void queryClient.invalidateQueries({ queryKey: ["song"] });
    },
  });
}

/** Query key of a song's voters as admins see them. */
export const songVotersKey = (songId: string) => ["admin", "song-voters", songId] as const;

/** Admin: who voted on a song, their age and trust, and the ring signals among them. */
export function useSongVoters(songId: string, counts: string) {
  return useQuery({
    // Live vote counts are in the key, so a vote elsewhere reloads the list.
    queryKey: [...songVotersKey(songId), counts],
    queryFn: () => api.get<SongVoters>(`/api/admin/songs/${encodeURIComponent(songId)}/voters`),
  });
}

/** Admin: set a member's votes not to count, or to count again; the song's counts are reloaded. */
export function useDiscountVoter(songId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; discounted: boolean }) =>
      api.put<{ ok: true; message: string; moved: number }>(
        `/api/admin/users/${encodeURIComponent(input.userId)}/votes-discounted`,
        { discounted: input.discounted },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: songVotersKey(songId) });
      void queryClient.invalidateQueries({ queryKey: songDetailKey(songId) });
      void refreshSongLists(queryClient);
      void queryClient.invalidateQueries({ queryKey: ["admin", "audit"] });
    },
  });
}

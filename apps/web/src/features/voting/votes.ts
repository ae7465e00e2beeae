import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Song, VoteInput, VoteResult } from "@unheard/shared";
import { api } from "../../lib/api/api";
import { patchSong, refreshSongLists } from "../../lib/api/live";

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

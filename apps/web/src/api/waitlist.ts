import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Song, WaitlistJoinInput } from "@unheard/shared";
import { api } from "./api";
import type { OkResponse } from "./auth";

/** One person waiting to get in (GET /api/admin/waitlist). */
export type WaitlistEntry = { id: string; name: string; email: string; createdAt: string; hasAccount: boolean };

/** Answer of approving an entry: `userFound` false means the e-mail is remembered for a later sign-up. */
export type WaitlistApproveResponse = { ok: true; message: string; userFound: boolean };

/** Join the waitlist (public; joining twice with one e-mail is fine). */
export function useJoinWaitlist() {
  return useMutation({
    mutationFn: (input: WaitlistJoinInput) => api.post<OkResponse>("/api/waitlist", input),
  });
}

/** Query key of the admin's waitlist table. */
export const waitlistKey = ["admin", "waitlist"] as const;

/** GET /api/admin/waitlist: entries, oldest first (admins). */
export const waitlistQuery = queryOptions({
  queryKey: waitlistKey,
  queryFn: async () => (await api.get<{ items: WaitlistEntry[] }>("/api/admin/waitlist")).items,
});

/** The waitlist for its admin screen. */
export function useWaitlist() {
  return useQuery(waitlistQuery);
}

/** Let an entry's e-mail in; the entry leaves the table. */
export function useApproveWaitlistEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<WaitlistApproveResponse>(`/api/admin/waitlist/${encodeURIComponent(id)}/approve`),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<WaitlistEntry[]>(waitlistKey, (list) => list?.filter((e) => e.id !== id));
      // The users table shows the same person's waitlist status.
      void queryClient.invalidateQueries({ queryKey: ["admin", "users"] });
    },
  });
}

/** GET /api/landing/tracks: the landing page's demo player (verified songs with audio). */
export const landingTracksQuery = queryOptions({
  queryKey: ["landing", "tracks"] as const,
  queryFn: async () => (await api.get<{ items: Song[] }>("/api/landing/tracks")).items,
  staleTime: 5 * 60_000,
});

/** The demo tracks of the landing page. */
export function useLandingTracks() {
  return useQuery(landingTracksQuery);
}

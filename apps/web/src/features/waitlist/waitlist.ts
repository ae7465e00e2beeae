import { useInfiniteQuery } from "@tanstack/react-query";
import type { WaitlistEntry, WaitlistJoinInput } from "@unheard/shared";
import { api } from "../../lib/api/api";
import { queuePagesQuery, useQueueAction } from "../../lib/api/query-helpers";
import { usePostMutation } from "../../lib/api/use-post-mutation";

/** One person waiting to get in (GET /api/admin/waitlist), as the shared schema defines it. */
export type { WaitlistEntry } from "@unheard/shared";

/** Answer of approving an entry: `userFound` false means the e-mail is remembered for a later sign-up. */
export type WaitlistApproveResponse = { ok: true; message: string; userFound: boolean };

/** Join the waitlist (public; joining twice with one e-mail is fine). */
export function useJoinWaitlist() {
  return usePostMutation<WaitlistJoinInput>("/api/waitlist");
}

/** Query key of the admin's waitlist table. */
export const waitlistKey = ["admin", "waitlist"] as const;

/**
 * The waitlist for its admin screen: GET /api/admin/waitlist, entries oldest first, a page at a time (admins): anyone
 * may join, so a flood must not hide the entries after it.
 */
export function useWaitlist() {
  return useInfiniteQuery(queuePagesQuery<WaitlistEntry>(waitlistKey, "/api/admin/waitlist"));
}

/** Let an entry's e-mail in; the entry leaves the table. */
export function useApproveWaitlistEntry() {
  return useQueueAction(
    waitlistKey,
    (id: string) => api.post<WaitlistApproveResponse>(`/api/admin/waitlist/${encodeURIComponent(id)}/approve`),
    (id) => id,
    // The users table shows the same person's waitlist status.
    { after: (queryClient) => void queryClient.invalidateQueries({ queryKey: ["admin", "users"] }) },
  );
}

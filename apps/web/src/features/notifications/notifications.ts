import { type InfiniteData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { AppNotification } from "@unheard/shared";
import { api } from "../../lib/api/api";

/** A page of GET /api/notifications. */
export type NotificationPage = { items: AppNotification[]; unread: number; nextCursor: string | null };

/** Query keys of the notification screens; everything sits under ["notifications"]. */
export const notificationKeys = {
  all: ["notifications"] as const,
  unread: ["notifications", "unread"] as const,
  list: ["notifications", "list"] as const,
  settings: ["notifications", "settings"] as const,
};

/** The cached pages of the bell's list. */
export type ListData = InfiniteData<NotificationPage, string | undefined>;

/** The unread count on the bell: the smallest page of the list, read for its count only. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: async () => (await api.get<NotificationPage>("/api/notifications?limit=1")).unread,
    enabled,
    // The events stream pushes every change; a refetch on focus covers a stream that was down.
    staleTime: 60_000,
  });
}

/**
 * Apply the `notification` event of /api/events ({unread}): the badge takes the count, and the list
 * reloads (only if it is open) so a new notification shows up in it.
 */
export function applyNotificationEvent(queryClient: QueryClient, raw: unknown): void {
  if (!raw || typeof raw !== "object") return;
  const unread = (raw as { unread?: unknown }).unread;
  if (typeof unread !== "number" || !Number.isFinite(unread)) return;
  const before = queryClient.getQueryData<number>(notificationKeys.unread);
  queryClient.setQueryData(notificationKeys.unread, unread);
  // Marking read here also sends an event; only a change the list does not show yet needs a reload.
  if (before === undefined || unread > before) {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
  }
}

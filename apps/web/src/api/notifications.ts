import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { AppNotification, NotificationSettings } from "@unheard/shared";
import { api } from "./api";

/** A page of GET /api/notifications. */
export type NotificationPage = { items: AppNotification[]; unread: number; nextCursor: string | null };

/** Query keys of the notification screens; everything sits under ["notifications"]. */
export const notificationKeys = {
  all: ["notifications"] as const,
  unread: ["notifications", "unread"] as const,
  list: ["notifications", "list"] as const,
  settings: ["notifications", "settings"] as const,
};

type ListData = InfiniteData<NotificationPage, string | undefined>;

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

/** The newest notifications, 20 a page; loaded while the bell's list is open. */
export function useNotifications(enabled: boolean) {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: async ({ pageParam }) => {
      const page = await api.get<NotificationPage>(
        `/api/notifications?limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
      );
      // Every page carries the current count: keep the badge in step with the list.
      queryClient.setQueryData(notificationKeys.unread, page.unread);
      return page;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    staleTime: 0,
  });
}

function markInList(data: ListData | undefined, id: string | "all"): ListData | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      items: p.items.map((n) => (id === "all" || n.id === id ? (n.read ? n : { ...n, read: true }) : n)),
    })),
  };
}

/** POST /api/notifications/:id/read (or `all`): shown read at once; the answer sets the count. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "all") =>
      api.post<{ unread: number }>(`/api/notifications/${encodeURIComponent(id)}/read`),
    onMutate: (id) => {
      const list = queryClient.getQueryData<ListData>(notificationKeys.list);
      const unread = queryClient.getQueryData<number>(notificationKeys.unread);
      queryClient.setQueryData<ListData>(notificationKeys.list, (data) => markInList(data, id));
      if (id === "all") queryClient.setQueryData(notificationKeys.unread, 0);
      else {
        const wasUnread = list?.pages.some((p) => p.items.some((n) => n.id === id && !n.read));
        if (wasUnread && unread) queryClient.setQueryData(notificationKeys.unread, Math.max(0, unread - 1));
      }
      return { list, unread };
    },
    onError: (_err, _id, ctx) => {
      queryClient.setQueryData(notificationKeys.list, ctx?.list);
      queryClient.setQueryData(notificationKeys.unread, ctx?.unread);
    },
    onSuccess: (res) => queryClient.setQueryData(notificationKeys.unread, res.unread),
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

/** GET /api/me/notification-settings. */
export function useNotificationSettings(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: () => api.get<NotificationSettings>("/api/me/notification-settings"),
    enabled,
  });
}

const SETTINGS_MUTATION = ["notifications", "settings", "save"] as const;

/**
 * PUT /api/me/notification-settings with the whole shape. Each switch saves at once; the saves run one
 * after another (one mutation scope), so the last click is the one the server keeps.
 */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: SETTINGS_MUTATION,
    scope: { id: "notification-settings" },
    mutationFn: (settings: NotificationSettings) =>
      api.put<NotificationSettings>("/api/me/notification-settings", settings),
    onMutate: (settings) => {
      const previous = queryClient.getQueryData<NotificationSettings>(notificationKeys.settings);
      queryClient.setQueryData(notificationKeys.settings, settings);
      return { previous };
    },
    onError: (_err, _settings, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(notificationKeys.settings, ctx.previous);
    },
    onSuccess: (saved) => {
      // A later click still on its way already shows its state; an earlier answer must not undo it.
      if (queryClient.isMutating({ mutationKey: SETTINGS_MUTATION }) <= 1) {
        queryClient.setQueryData(notificationKeys.settings, saved);
      }
    },
  });
}

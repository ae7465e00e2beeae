import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { type ListData, type NotificationPage, notificationKeys } from "./notifications";

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

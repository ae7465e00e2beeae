import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationSettings } from "@unheard/shared";
import { api } from "../../lib/api/api";
import { notificationKeys } from "./notifications";

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

import { MESSAGES, NOTIFICATION_KINDS, type NotificationSettings } from "@unheard/shared";
import { Bell } from "lucide-react";
import { useEffect } from "react";
import { useLocation } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { SwitchRow } from "../../ui/switch-row";
import { NOTIFICATION_KIND_LABELS } from "./notification-item";
import { useNotificationSettings, useSaveNotificationSettings } from "./notification-settings-queries";

const SAVE_FAILED = "Failed to save notification settings";

/** The profile's 'Notifications' section: a switch per kind and the daily e-mail digest; each change saves at once. */
export function NotificationSettingsPanel() {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const { hash } = useLocation();
  const loaded = Boolean(settings.data);

  // The bell links to /profile#notifications; the router does not scroll to an anchor by itself.
  useEffect(() => {
    if (hash === "#notifications" && loaded) document.getElementById("notifications")?.scrollIntoView();
  }, [hash, loaded]);

  const change = async (next: NotificationSettings) => {
    try {
      await save.mutateAsync(next);
      toast.success(MESSAGES.notificationSettingsSaved, { id: "notification-settings-saved" });
    } catch (err) {
      handleError(err, SAVE_FAILED);
    }
  };

  const data = settings.data;
  return (
    // A named region (Panel is not), so the section can be found by its heading.
    <section
      aria-labelledby="notifications"
      className="rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-5 md:p-6"
    >
      <h2 id="notifications" className="flex scroll-mt-24 items-center gap-2 text-lg font-semibold text-white">
        <Bell aria-hidden className="size-5 text-fuchsia-300" />
        Notifications
      </h2>
      <p className="mt-1 mb-5 text-sm text-zinc-400">Choose what shows up under the bell. Changes save right away.</p>
      {data ? (
        <div className="flex max-w-2xl flex-col gap-6">
          <fieldset className="flex flex-col gap-4">
            <legend className="sr-only">In-app notifications</legend>
            {NOTIFICATION_KINDS.map((kind) => (
              <SwitchRow
                key={kind}
                label={NOTIFICATION_KIND_LABELS[kind].label}
                description={NOTIFICATION_KIND_LABELS[kind].description}
                checked={data.kinds[kind]}
                onCheckedChange={(on) => void change({ ...data, kinds: { ...data.kinds, [kind]: on } })}
              />
            ))}
          </fieldset>
          <div className="border-t border-white/[0.06] pt-5">
            <SwitchRow
              label="Daily e-mail digest"
              description="One e-mail a day with your unread notifications. Off by default."
              checked={data.emailDigest}
              onCheckedChange={(on) => void change({ ...data, emailDigest: on })}
            />
          </div>
        </div>
      ) : settings.isError ? (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-sm text-rose-200">
            The notification settings could not be loaded.
          </p>
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <p role="status" className="text-sm text-zinc-500">
          Loading settings…
        </p>
      )}
    </section>
  );
}

import { MESSAGES } from "@unheard/shared";
import { Bell, CheckCheck, LoaderCircle, Settings } from "lucide-react";
import { Popover } from "radix-ui";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { NotificationItem } from "./notification-item";
import { useMarkNotificationsRead, useNotifications } from "./notification-list";

/**
 * The bell as a Radix popover with the newest notifications. Loaded on the first press of the bell (see
 * notification-bell.tsx), so Radix's popper and date-fns stay out of the first load of every page.
 */
export function NotificationPopover({
  open,
  onOpenChange,
  align,
  unread,
  label,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  align: "start" | "end";
  unread: number;
  label: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger aria-label={label} className={className}>
        {children}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align={align}
          sideOffset={8}
          collisionPadding={12}
          aria-label="Notifications"
          className="z-50 flex max-h-[min(32rem,calc(100dvh-6rem))] w-[min(24rem,calc(100vw-1.5rem))] flex-col overflow-hidden rounded-2xl border border-white/10 bg-zinc-900 shadow-2xl shadow-black/60 focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out]"
        >
          <NotificationPanel unread={unread} onNavigate={() => onOpenChange(false)} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The open list: header with 'Mark all read', the notifications, 'Load more', and a link to the settings. */
function NotificationPanel({ unread, onNavigate }: { unread: number; onNavigate: () => void }) {
  const list = useNotifications(true);
  const markRead = useMarkNotificationsRead();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  const markAll = async () => {
    try {
      await markRead.mutateAsync("all");
      toast.success(MESSAGES.notificationsMarkedRead);
    } catch (err) {
      handleError(err, "Failed to mark notifications as read");
    }
  };

  return (
    <>
      <div className="flex items-center justify-between gap-3 border-b border-white/[0.06] px-4 py-3">
        <h2 className="text-sm font-semibold text-white">Notifications</h2>
        <Button
          variant="ghost"
          size="sm"
          className="-mr-2"
          icon={<CheckCheck aria-hidden className="size-4" />}
          disabled={unread === 0 || (markRead.isPending && markRead.variables === "all")}
          onClick={() => void markAll()}
        >
          Mark all read
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        {list.isPending ? (
          <p role="status" className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-zinc-400">
            <LoaderCircle aria-hidden className="size-4 animate-spin text-violet-300" />
            Loading notifications…
          </p>
        ) : list.isError && items.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-4 py-8 text-center">
            <p role="alert" className="text-sm text-rose-200">
              Notifications could not be loaded.
            </p>
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center gap-1.5 px-6 py-10 text-center">
            <span className="mb-1 grid size-10 place-items-center rounded-full bg-violet-500/15 text-violet-300">
              <Bell aria-hidden className="size-5" />
            </span>
            <p className="text-sm font-medium text-zinc-200">No notifications yet</p>
            <p className="text-xs text-zinc-500">Follow artists to hear about their new songs here.</p>
          </div>
        ) : (
          <ul aria-label="Recent notifications" className="divide-y divide-white/[0.04]">
            {items.map((n) => (
              <NotificationItem
                key={n.id}
                notification={n}
                onOpen={() => {
                  if (!n.read) markRead.mutate(n.id);
                  onNavigate();
                }}
              />
            ))}
          </ul>
        )}
        {list.hasNextPage ? (
          <div className="flex justify-center border-t border-white/[0.04] p-3">
            <Button
              variant="secondary"
              size="sm"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {list.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          </div>
        ) : null}
      </div>
      <div className="border-t border-white/[0.06] px-4 py-2.5">
        <Link
          to="/profile#notifications"
          onClick={onNavigate}
          className="inline-flex items-center gap-1.5 rounded text-xs font-medium text-zinc-400 hover:text-zinc-100 focus-visible:outline-2 focus-visible:outline-violet-400"
        >
          <Settings aria-hidden className="size-3.5" />
          Notification settings
        </Link>
      </div>
    </>
  );
}

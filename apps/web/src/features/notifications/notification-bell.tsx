import { clsx } from "clsx";
import { Bell } from "lucide-react";
import { lazy, Suspense } from "react";
import { useDeferredPopup } from "../../ui/use-deferred-popup";
import { useMe } from "../accounts/me";
import { useUnreadCount } from "./notifications";

const loadPopover = () => import("./notification-popover");
const NotificationPopover = lazy(() => loadPopover().then((m) => ({ default: m.NotificationPopover })));

/**
 * The bell with the unread count (signed in only); it opens the newest notifications. Live over /api/events.
 * Until the first press it is a plain button: the popover (Radix popper, the list, date-fns) loads then, and is
 * fetched ahead on hover or focus.
 */
export function NotificationBell({ align = "end", className }: { align?: "start" | "end"; className?: string }) {
  const { me } = useMe();
  const { open, setOpen, wanted, triggerProps } = useDeferredPopup(loadPopover);
  const unread = useUnreadCount(Boolean(me?.id));
  if (!me?.id) return null;
  const count = unread.data ?? 0;
  const label = count > 0 ? `Notifications, ${count} unread` : "Notifications";
  const classes = clsx(
    "relative grid size-10 shrink-0 place-items-center rounded-full text-zinc-300 transition-colors hover:bg-white/10 hover:text-white",
    "focus-visible:outline-2 focus-visible:outline-violet-400 data-[state=open]:bg-white/10 data-[state=open]:text-white",
    className,
  );
  const icon = (
    <>
      <Bell aria-hidden className="size-5" />
      {count > 0 ? (
        <span
          aria-hidden
          data-testid="notification-count"
          className="absolute top-1 right-0.5 grid h-[18px] min-w-[18px] place-items-center rounded-full bg-fuchsia-500 px-1 text-[10px] leading-none font-bold text-white ring-2 ring-zinc-950"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </>
  );
  const plain = (
    <button {...triggerProps} aria-label={label} data-state={open ? "open" : "closed"} className={classes}>
      {icon}
    </button>
  );
  if (!wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <NotificationPopover
        open={open}
        onOpenChange={setOpen}
        align={align}
        unread={count}
        label={label}
        className={classes}
      >
        {icon}
      </NotificationPopover>
    </Suspense>
  );
}

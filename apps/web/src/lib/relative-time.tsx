import { useSyncExternalStore } from "react";
import { formatDateTime, formatTimeAgo } from "./format";

// "5 min ago" depends on when and where it is read: the server's render and the browser's first (hydrating) render
// show no time at all, so they agree; the browser then fills it in and keeps it current.

/** How often the shown times move on. */
const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** Now, rounded to the tick: the same value between ticks, as useSyncExternalStore needs. */
const currentTick = () => Math.floor(Date.now() / TICK_MS) * TICK_MS;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time now (to 15 s), or null while the page renders on the server or hydrates. */
export function useNow(): number | null {
  return useSyncExternalStore(subscribe, currentTick, () => null);
}

/**
 * A timestamp as a <time> element: how long ago ('5 min ago'), the exact date and time in its title. Empty until
 * the page is in the browser (see above).
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={now === null ? undefined : formatDateTime(iso)} className={className}>
      {now === null ? "" : formatTimeAgo(iso, now)}
    </time>
  );
}

import { formatDateTime, formatTimeAgo, plural } from "../../lib/format";
import { useNow } from "../../lib/relative-time";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When something is due, as of `now`: 'in 25 min', 'in 2 hours', 'in 3 days'; 'due now' within 45 seconds or when
 * the time has passed (the scheduler picks it up on its next round).
 */
export function dueWords(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const ahead = at - now;
  if (ahead < 45_000) return "due now";
  if (ahead < HOUR) return `in ${Math.max(1, Math.round(ahead / MINUTE))} min`;
  if (ahead < DAY) return `in ${plural(Math.round(ahead / HOUR), "hour")}`;
  return `in ${plural(Math.round(ahead / DAY), "day")}`;
}

/**
 * A time past (a link's last check: '5 min ago', as the rest of the app says it) or to come (`due`: its next sync,
 * 'in 25 min') as a <time> element, the exact date and time in its title. Empty until the page is in the browser
 * (lib/relative-time.tsx), then kept current.
 */
export function SyncTime({ iso, due = false }: { iso: string; due?: boolean }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={now === null ? undefined : formatDateTime(iso)}>
      {now === null ? "" : due ? dueWords(iso, now) : formatTimeAgo(iso, now)}
    </time>
  );
}

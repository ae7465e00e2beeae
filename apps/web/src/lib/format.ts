import { MESSAGES } from "@unheard/shared";

/** The spec §9 display format, e.g. 'Mar 5, 2025' (date-fns notation, for the pages that use date-fns). */
export const DATE_FORMAT = "MMM d, yyyy";

// Song cards show dates on the first screen: this file formats them without date-fns, which then loads only
// with the pages that need more (relative times, other formats).
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date as 'MMM d, yyyy' in local time, like date-fns `format(date, DATE_FORMAT)`. */
export function formatDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${String(date.getFullYear()).padStart(4, "0")}`;
}

/** 'YYYY-MM-DD' as a local calendar date; undefined unless it names a real day. */
function parseCalendarDate(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(year, month - 1, day);
  date.setFullYear(year); // years 0-99 would otherwise map to 1900-1999
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : undefined;
}

/**
 * A 'YYYY-MM-DD' release date as 'MMM d, yyyy'. Parsed as a local calendar date: `new Date("2025-03-05")`
 * would be UTC midnight and show the previous day west of Greenwich.
 */
export function formatReleaseDate(value: string | null | undefined, fallback: string = MESSAGES.releaseDateUnknown) {
  if (!value) return fallback;
  const date = parseCalendarDate(value);
  return date ? formatDate(date) : fallback;
}

/**
 * A date as precise as it is known (issue 37: trackers keep "??/??/2019" as the year): 'YYYY' as '2019', 'YYYY-MM'
 * as 'Jun 2019', 'YYYY-MM-DD' as 'Jun 5, 2019'; the fallback for anything else.
 */
export function formatPartialDate(value: string | null | undefined, fallback: string = MESSAGES.releaseDateUnknown) {
  if (!value) return fallback;
  if (/^\d{4}$/.test(value)) return value;
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (month) {
    const name = MONTHS[Number(month[2]) - 1];
    return name ? `${name} ${month[1]}` : fallback;
  }
  return formatReleaseDate(value, fallback);
}

/**
 * A partial date as a number that sorts by time: '2019' < '2019-06' < '2019-06-05' < '2019-07'. A date known only
 * to its year (or month) comes first within it: it is all that can be said, and nothing is made up.
 */
export function partialDateOrder(value: string | null | undefined): number | null {
  const m = value ? /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value) : null;
  if (!m) return null;
  return Number(m[1]) * 10_000 + Number(m[2] ?? 0) * 100 + Number(m[3] ?? 0);
}

/** An ISO timestamp as 'MMM d, yyyy' (a bare 'YYYY-MM-DD' counts as that local day, as date-fns parseISO has it). */
export function formatTimestamp(value: string | null | undefined, fallback: string = MESSAGES.dateNotSet): string {
  if (!value) return fallback;
  const day = parseCalendarDate(value);
  if (day) return formatDate(day);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : formatDate(date);
}

/** An ISO timestamp as 'Mar 5, 2025, 4:07 PM' in local time (a title beside a relative time); the fallback when unreadable. */
export function formatDateTime(value: string, fallback = ""): string {
  const date = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return fallback;
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, "0");
  return `${formatDate(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago an ISO timestamp was, as of `now`: 'just now', '5 min ago', '1 hour ago', '3 days ago'; from 30 days
 * on, the day ('Mar 5, 2025'). A time ahead of `now` (another clock) is 'just now'; '' when unreadable.
 */
export function formatTimeAgo(value: string, now: number): string {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return "";
  const ago = now - at;
  if (ago < 45_000) return "just now";
  if (ago < HOUR) return `${Math.max(1, Math.floor(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${plural(Math.floor(ago / HOUR), "hour")} ago`;
  if (ago < 30 * DAY) return `${plural(Math.floor(ago / DAY), "day")} ago`;
  return formatDate(new Date(at));
}

/** A link's host ('pixeldrain.com') and the rest of it ('/u/abc'), for showing; null when it is no web address. */
export function linkParts(href: string): { host: string; rest: string } | null {
  try {
    const url = new URL(href);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    const rest = `${url.pathname === "/" ? "" : url.pathname}${url.search}${url.hash}`;
    return { host: url.host.replace(/^www\./, ""), rest };
  } catch {
    return null;
  }
}

/** Seconds as m:ss (h:mm:ss past an hour); unknown or negative shows 0:00. */
export function formatDuration(seconds: number | null | undefined): string {
  const total = Number.isFinite(seconds) && (seconds ?? 0) > 0 ? Math.floor(seconds ?? 0) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A byte count as 'B', 'KB' or 'MB' with one decimal where it helps. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A count with the word in singular or plural ('1 favorite', '3 favorites'). */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? word : pluralWord}`;
}

/** Readable labels of the report and downvote reasons. */
export const REASON_LABELS: Record<string, string> = {
  wrong_artist: "Wrong artist",
  fake_leak: "Fake leak",
  duplicate: "Duplicate",
  wrong_title: "Wrong title",
  low_quality: "Low quality",
  copyright: "Copyright",
  other: "Other",
};

/** Readable labels of the release filter values. */
export const RELEASE_LABELS: Record<string, string> = {
  all: "All",
  all_unreleased: "Unreleased",
  dated: "Dated",
  undated: "Undated",
  released: "Released",
};

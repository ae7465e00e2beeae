import {
  AVAILABILITY_LABELS,
  type Availability,
  formatTrackLength,
  LEAK_FIELDS,
  MESSAGES,
  QUALITY_LABELS,
  type Quality,
  type REPORT_REASONS,
  SONG_TAG_LABELS,
  type SongTag,
  type SuggestionValues,
} from "@unheard/shared";
import { format, isValid, parseISO } from "date-fns";
import { formatPartialDate } from "../../lib/format";

/** Spec §9 date display, e.g. 'Mar 5, 2025'; 'Not set' when missing or unreadable. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return MESSAGES.dateNotSet;
  const date = parseISO(iso);
  return isValid(date) ? format(date, "MMM d, yyyy") : MESSAGES.dateNotSet;
}

/** Date and time for logs, e.g. 'Mar 5, 2025, 4:07 PM'. */
export function formatDateTime(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, "MMM d, yyyy, h:mm a") : iso;
}

/** Readable labels of the report reasons (spec §9). */
export const REPORT_REASON_LABELS: Record<(typeof REPORT_REASONS)[number], string> = {
  wrong_artist: "Wrong artist",
  fake_leak: "Fake leak",
  duplicate: "Duplicate",
  wrong_title: "Wrong title",
  copyright: "Copyright",
  other: "Other",
};

/** The song fields an edit suggestion compares, in display order, with their labels. */
export const SUGGESTION_FIELDS = [
  { key: "title", label: "Title" },
  { key: "artist", label: "Artist" },
  { key: "genre", label: "Genre" },
  { key: "releaseDate", label: "Release Date" },
  { key: "soundcloudUrl", label: "SoundCloud URL" },
  // Leak details (issue 16): shown when set on either side or changed.
  { key: "era", label: "Era" },
  { key: "producers", label: "Producers" },
  { key: "features", label: "Featuring" },
  // Tracker details (issue 27).
  { key: "references", label: "Reference By" },
  { key: "aliases", label: "Also Known As" },
  { key: "versionLabel", label: "Version Label" },
  { key: "tags", label: "Tags" },
  { key: "leakDate", label: "Leak Date" },
  { key: "fileDate", label: "File Date" },
  { key: "trackLength", label: "Track Length" },
  { key: "availability", label: "Availability" },
  { key: "quality", label: "Audio Quality" },
  { key: "notes", label: "Notes" },
  // Issue 37.
  { key: "links", label: "Links" },
] as const satisfies readonly { key: keyof SuggestionValues; label: string }[];
export type SuggestionFieldKey = (typeof SUGGESTION_FIELDS)[number]["key"];

/** The suggestion fields that are shown only when they hold something. */
export const OPTIONAL_SUGGESTION_FIELDS: ReadonlySet<string> = new Set(LEAK_FIELDS);

/**
 * A field's recorded value as text to compare by: lists joined with ", ", numbers as digits; an empty list or
 * a missing value (entries from before a field existed) is no value.
 */
export function suggestionValue(values: SuggestionValues, key: SuggestionFieldKey): string | null {
  const value = values[key];
  if (Array.isArray(value)) return value.length > 0 ? value.join(", ") : null;
  if (typeof value === "number") return String(value);
  return value || null;
}

/**
 * A field's recorded value as people read it: dates as 'Mar 5, 2025' (leak and file dates as precise as they are
 * known: '2019', 'Jun 2019'), choices and tags by their labels, the track length as m:ss, lists (links too) joined
 * with ", "; null when it has none. Unknown values show as recorded.
 */
export function formatSuggestionValue(values: SuggestionValues, key: SuggestionFieldKey): string | null {
  const value = values[key];
  if (key === "tags" && Array.isArray(value)) {
    return value.length > 0 ? value.map((t) => SONG_TAG_LABELS[t as SongTag] ?? t).join(", ") : null;
  }
  if (key === "trackLength" && typeof value === "number") return formatTrackLength(value);
  const text = suggestionValue(values, key);
  if (text === null) return null;
  switch (key) {
    case "releaseDate":
      return formatDate(text);
    case "leakDate":
    case "fileDate":
      return formatPartialDate(text, text);
    case "availability":
      return AVAILABILITY_LABELS[text as Availability] ?? text;
    case "quality":
      return QUALITY_LABELS[text as Quality] ?? text;
    default:
      return text;
  }
}

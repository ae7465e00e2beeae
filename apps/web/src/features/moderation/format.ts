import { LEAK_FIELDS, MESSAGES, type REPORT_REASONS } from "@unheard/shared";
import { format, isValid, parseISO } from "date-fns";

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
  { key: "leakDate", label: "Leak Date" },
  { key: "availability", label: "Availability" },
  { key: "quality", label: "Audio Quality" },
  { key: "notes", label: "Notes" },
] as const;

/** The suggestion fields that are shown only when they hold something. */
export const OPTIONAL_SUGGESTION_FIELDS: ReadonlySet<string> = new Set(LEAK_FIELDS);

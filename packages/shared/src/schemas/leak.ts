import { z } from "zod";
import {
  AVAILABILITIES,
  LEAK_LIMITS,
  parseTrackLength,
  QUALITIES,
  SONG_TAGS,
  uniqueNames,
  VERSION_KINDS,
} from "../leak-values.js";
import { MESSAGES } from "../messages.js";

const blankToNull = (v: string | null | undefined) => (v ? v : null);

/** Optional free text: trimmed, blank (or absent) means none. */
const optionalText = (max: number, message: string) =>
  z
    .union([z.string().trim().max(max, message), z.null()])
    .optional()
    .transform(blankToNull);

/**
 * A list of names: an array, or one comma-separated string (a form field, a multipart value). Trimmed, blank
 * ones dropped, duplicates (case-insensitive) removed.
 */
export const leakNamesSchema = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((v) => uniqueNames(v == null ? [] : typeof v === "string" ? v.split(",") : v))
  .refine((list) => list.length <= LEAK_LIMITS.names, MESSAGES.leakNamesTooMany)
  .refine((list) => list.every((n) => n.length <= LEAK_LIMITS.name), MESSAGES.leakNameTooLong);

const isCalendarDate = (v: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/**
 * A date as precise as it is known (issue 37): YYYY-MM-DD, YYYY-MM or YYYY. Trackers write "??/??/2019" or
 * "Summer 2021": the year (or year and month) is kept and its length says how precise it is.
 */
export const isPartialDate = (v: string): boolean =>
  /^\d{4}$/.test(v) || (/^\d{4}-(0[1-9]|1[0-2])$/.test(v) && v >= "1000") || isCalendarDate(v);

/** Not after today at the date's own precision (UTC, with a day's grace for time zones ahead of it). */
const notFuture = (v: string) => v <= new Date(Date.now() + 864e5).toISOString().slice(0, v.length);

/** A partial date (isPartialDate) not after today. */
const pastDateSchema = (invalid: string, future: string) =>
  z
    .union([
      z
        .string()
        .trim()
        .refine((v) => v === "" || isPartialDate(v), invalid)
        .refine((v) => !isPartialDate(v) || notFuture(v), future),
      z.null(),
    ])
    .optional()
    .transform(blankToNull);

/**
 * Where a leak can be found: http(s) addresses, an array or one string split by new lines, commas or spaces (a form
 * field); repeats dropped, order kept.
 */
export const leakLinksSchema = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((v, ctx) => {
    const list = (v == null ? [] : typeof v === "string" ? v.split(/[\s,]+/) : v).map((l) => l.trim()).filter(Boolean);
    const unique = [...new Set(list)];
    if (unique.some((l) => l.length > LEAK_LIMITS.link || !isWebAddress(l))) {
      ctx.addIssue({ code: "custom", message: MESSAGES.invalidLeakLink });
      return z.NEVER;
    }
    if (unique.length > LEAK_LIMITS.links) {
      ctx.addIssue({ code: "custom", message: MESSAGES.tooManyLinks });
      return z.NEVER;
    }
    return unique;
  });

/** An absolute http(s) address with a host. */
function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "" && !url.username;
  } catch {
    return false;
  }
}

/** When a song leaked. */
export const leakDateSchema = pastDateSchema(MESSAGES.invalidLeakDate, MESSAGES.futureLeakDate);

/** A track length in seconds, "m:ss" as typed; blank means none. */
export const trackLengthSchema = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v == null || (typeof v === "string" && v.trim() === "")) return null;
    const sec = parseTrackLength(v);
    if (sec === null || sec > LEAK_LIMITS.trackLengthSec) {
      ctx.addIssue({ code: "custom", message: MESSAGES.invalidTrackLength });
      return z.NEVER;
    }
    return sec;
  });

/** Tags: an array, or one comma-separated string (a form field); repeats dropped, in SONG_TAGS order. */
export const songTagsSchema = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((v, ctx) => {
    const list = (v == null ? [] : typeof v === "string" ? v.split(",") : v).map((t) => t.trim()).filter(Boolean);
    if (list.some((t) => !(SONG_TAGS as readonly string[]).includes(t))) {
      ctx.addIssue({ code: "custom", message: MESSAGES.invalidTag });
      return z.NEVER;
    }
    return SONG_TAGS.filter((t) => list.includes(t));
  });

/** An optional choice: one of `values`, or blank/absent for none. */
const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .union([z.enum(values, { error: message }), z.literal(""), z.null()], { error: message })
    .optional()
    .transform((v) => (v ? v : null));

/** Leak details of a song (issue 16): every field optional, blank means none. */
export const leakDetailsSchema = z.object({
  era: optionalText(LEAK_LIMITS.era, MESSAGES.eraTooLong),
  producers: leakNamesSchema,
  features: leakNamesSchema,
  /** Artists whose reference track the song is ("(ref. X)" in trackers). */
  references: leakNamesSchema,
  /** Other names the song goes by ("(Alt: X)", "[aka X]"); search finds them. */
  aliases: leakNamesSchema,
  /** A tracker's version marker, e.g. "V2". */
  versionLabel: optionalText(LEAK_LIMITS.versionLabel, MESSAGES.versionLabelTooLong),
  tags: songTagsSchema,
  leakDate: leakDateSchema,
  /** The date of the leaked file itself (when it was made), as trackers note it. */
  fileDate: pastDateSchema(MESSAGES.invalidFileDate, MESSAGES.futureFileDate),
  /** Seconds. */
  trackLength: trackLengthSchema,
  availability: optionalChoice(AVAILABILITIES, MESSAGES.invalidAvailability),
  quality: optionalChoice(QUALITIES, MESSAGES.invalidQuality),
  notes: optionalText(LEAK_LIMITS.notes, MESSAGES.leakNotesTooLong),
  /** Where the leak can be found (a tracker's "Link(s)" cell). */
  links: leakLinksSchema,
});
export type LeakDetailsInput = z.input<typeof leakDetailsSchema>;
export type LeakDetails = z.output<typeof leakDetailsSchema>;

/** A song without leak details: what an empty form gives. */
export const NO_LEAK_DETAILS: LeakDetails = {
  era: null,
  producers: [],
  features: [],
  references: [],
  aliases: [],
  versionLabel: null,
  tags: [],
  leakDate: null,
  fileDate: null,
  trackLength: null,
  availability: null,
  quality: null,
  notes: null,
  links: [],
};

/** Leak details as history entries and edit suggestions record them: loosely typed, absent before issue 16. */
export const recordedLeakDetailsSchema = z
  .object({
    era: z.string().nullable(),
    producers: z.array(z.string()),
    features: z.array(z.string()),
    references: z.array(z.string()),
    aliases: z.array(z.string()),
    versionLabel: z.string().nullable(),
    tags: z.array(z.string()),
    leakDate: z.string().nullable(),
    fileDate: z.string().nullable(),
    trackLength: z.number().nullable(),
    availability: z.string().nullable(),
    quality: z.string().nullable(),
    notes: z.string().nullable(),
    links: z.array(z.string()),
  })
  .partial();

/** The leak detail fields, in the order forms and comparisons show them. */
export const LEAK_FIELDS = [
  "era",
  "producers",
  "features",
  "references",
  "aliases",
  "versionLabel",
  "tags",
  "leakDate",
  "fileDate",
  "trackLength",
  "availability",
  "quality",
  "notes",
  "links",
] as const;
export type LeakField = (typeof LEAK_FIELDS)[number];

/** Link a song as a version of another (`songId` and `kind`). */
export const versionLinkSchema = z.object({
  songId: z.string({ error: MESSAGES.versionTargetNotFound }).trim().min(1, MESSAGES.versionTargetNotFound).max(100),
  kind: z.enum(VERSION_KINDS, { error: MESSAGES.invalidVersionKind }),
});
export type VersionLinkInput = z.input<typeof versionLinkSchema>;

/** The song a song is a version of, as its page shows it. */
export const versionOfSchema = z.object({ id: z.string(), title: z.string(), kind: z.enum(VERSION_KINDS) });

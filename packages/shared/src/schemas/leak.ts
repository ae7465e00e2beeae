import { z } from "zod";
import { MESSAGES } from "../messages.js";

/** The values of a label map, in its order, as the tuple zod's enums take. */
const valuesOf = <V extends string>(labels: Readonly<Record<V, string>>) => Object.keys(labels) as [V, ...V[]];

/** The closed choices of leak details (issue 16) and version links: each value, in order, with its label. */
const CHOICE_LABELS = {
  /** How much of a leaked song circulates, from least to most. */
  availability: { snippet: "Snippet", partial: "Partial", full: "Full", og_file: "OG file" },
  /** The quality of the best circulating copy. */
  quality: { low: "Low quality", high: "High quality", lossless: "Lossless", recording: "Recording" },
  /** How one song relates to the song it is a version of. */
  versionKind: {
    snippet: "Snippet of",
    remix: "Remix of",
    alternate: "Alternate version of",
    official: "Official release of",
  },
} as const;

export const AVAILABILITIES = valuesOf(CHOICE_LABELS.availability);
export const QUALITIES = valuesOf(CHOICE_LABELS.quality);
export const VERSION_KINDS = valuesOf(CHOICE_LABELS.versionKind);
export type Availability = (typeof AVAILABILITIES)[number];
export type Quality = (typeof QUALITIES)[number];
export type VersionKind = (typeof VERSION_KINDS)[number];
export const AVAILABILITY_LABELS: Readonly<Record<Availability, string>> = CHOICE_LABELS.availability;
export const QUALITY_LABELS: Readonly<Record<Quality, string>> = CHOICE_LABELS.quality;
export const VERSION_KIND_LABELS: Readonly<Record<VersionKind, string>> = CHOICE_LABELS.versionKind;

export const LEAK_LIMITS = { era: 100, name: 100, names: 10, notes: 2000 } as const;

const blankToNull = (v: string | null | undefined) => (v ? v : null);

/** Optional free text: trimmed, blank (or absent) means none. */
const optionalText = (max: number, message: string) =>
  z
    .union([z.string().trim().max(max, message), z.null()])
    .optional()
    .transform(blankToNull);

/** Names NFKC-normalised and trimmed, blank ones dropped, duplicates (case-insensitive) removed. */
export function uniqueNames(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const name = raw.normalize("NFKC").trim().replace(/\s+/g, " ");
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

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

/** YYYY-MM-DD on the calendar and not after today (UTC, with a day's grace for time zones ahead of it). */
export const leakDateSchema = z
  .union([
    z
      .string()
      .trim()
      .refine((v) => v === "" || isCalendarDate(v), MESSAGES.invalidLeakDate)
      .refine(
        (v) => !isCalendarDate(v) || v <= new Date(Date.now() + 864e5).toISOString().slice(0, 10),
        MESSAGES.futureLeakDate,
      ),
    z.null(),
  ])
  .optional()
  .transform(blankToNull);

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
  leakDate: leakDateSchema,
  availability: optionalChoice(AVAILABILITIES, MESSAGES.invalidAvailability),
  quality: optionalChoice(QUALITIES, MESSAGES.invalidQuality),
  notes: optionalText(LEAK_LIMITS.notes, MESSAGES.leakNotesTooLong),
});
export type LeakDetailsInput = z.input<typeof leakDetailsSchema>;
export type LeakDetails = z.output<typeof leakDetailsSchema>;

/** A song without leak details: what an empty form gives. */
export const NO_LEAK_DETAILS: LeakDetails = {
  era: null,
  producers: [],
  features: [],
  leakDate: null,
  availability: null,
  quality: null,
  notes: null,
};

/** Leak details as history entries and edit suggestions record them: loosely typed, absent before issue 16. */
export const recordedLeakDetailsSchema = z
  .object({
    era: z.string().nullable(),
    producers: z.array(z.string()),
    features: z.array(z.string()),
    leakDate: z.string().nullable(),
    availability: z.string().nullable(),
    quality: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .partial();

/** The leak detail fields, in the order forms and comparisons show them. */
export const LEAK_FIELDS = ["era", "producers", "features", "leakDate", "availability", "quality", "notes"] as const;
export type LeakField = (typeof LEAK_FIELDS)[number];

/** Link a song as a version of another (`songId` and `kind`). */
export const versionLinkSchema = z.object({
  songId: z.string({ error: MESSAGES.versionTargetNotFound }).trim().min(1, MESSAGES.versionTargetNotFound).max(100),
  kind: z.enum(VERSION_KINDS, { error: MESSAGES.invalidVersionKind }),
});
export type VersionLinkInput = z.input<typeof versionLinkSchema>;

/** The song a song is a version of, as its page shows it. */
export const versionOfSchema = z.object({ id: z.string(), title: z.string(), kind: z.enum(VERSION_KINDS) });

import { z } from "zod";
import { MESSAGES } from "../messages.js";

/** The values of a label map, in its order, as the tuple zod's enums take. */
const valuesOf = <V extends string>(labels: Readonly<Record<V, string>>) => Object.keys(labels) as [V, ...V[]];

/** The closed choices of leak details (issue 16) and version links: each value, in order, with its label. */
const CHOICE_LABELS = {
  /**
   * How much of a leaked song circulates, from least to most (issue 27 added the values community trackers use:
   * a song only rumoured or confirmed to exist, its beat alone, a full song with tags over it).
   */
  availability: {
    rumored: "Rumored",
    confirmed: "Confirmed",
    snippet: "Snippet",
    partial: "Partial",
    beat_only: "Beat only",
    tagged: "Tagged",
    full: "Full",
    og_file: "OG file",
  },
  /** The quality of the best circulating copy ("Not available": nothing of it circulates). */
  quality: {
    not_available: "Not available",
    recording: "Recording",
    low: "Low quality",
    high: "High quality",
    cd_quality: "CD quality",
    lossless: "Lossless",
  },
  /** What a tracker's marks before a title say of a song (its legend maps its own marks to these). */
  tag: { best: "Best of", grail: "Grail", special: "Special", wanted: "Wanted", worst: "Worst of" },
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
export const SONG_TAGS = valuesOf(CHOICE_LABELS.tag);
export type SongTag = (typeof SONG_TAGS)[number];
export const SONG_TAG_LABELS: Readonly<Record<SongTag, string>> = CHOICE_LABELS.tag;
/** The mark each tag is shown with. */
export const SONG_TAG_MARKS: Readonly<Record<SongTag, string>> = {
  best: "⭐",
  grail: "🏆",
  special: "✨",
  wanted: "🙏",
  worst: "🗑️",
};
/**
 * The marks trackers put before titles and the tag each means when a sheet's own legend says nothing else
 * (an import's legend step can change them).
 */
export const DEFAULT_TAG_LEGEND: Readonly<Record<string, SongTag>> = {
  "⭐": "best",
  "🌟": "best",
  "🏆": "grail",
  "👑": "grail",
  "✨": "special",
  "💎": "special",
  "🙏": "wanted",
  "🔍": "wanted",
  "🔎": "wanted",
  "🗑️": "worst",
  "🗑": "worst",
  "🚮": "worst",
};
export type Availability = (typeof AVAILABILITIES)[number];
export type Quality = (typeof QUALITIES)[number];
export type VersionKind = (typeof VERSION_KINDS)[number];
export const AVAILABILITY_LABELS: Readonly<Record<Availability, string>> = CHOICE_LABELS.availability;
export const QUALITY_LABELS: Readonly<Record<Quality, string>> = CHOICE_LABELS.quality;
export const VERSION_KIND_LABELS: Readonly<Record<VersionKind, string>> = CHOICE_LABELS.versionKind;

export const LEAK_LIMITS = {
  era: 100,
  name: 100,
  names: 10,
  notes: 2000,
  versionLabel: 30,
  /** Longest track length, in seconds (a whole session tape is hours, not days). */
  trackLengthSec: 24 * 3600,
} as const;

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
const pastDateSchema = (invalid: string, future: string) =>
  z
    .union([
      z
        .string()
        .trim()
        .refine((v) => v === "" || isCalendarDate(v), invalid)
        .refine((v) => !isCalendarDate(v) || v <= new Date(Date.now() + 864e5).toISOString().slice(0, 10), future),
      z.null(),
    ])
    .optional()
    .transform(blankToNull);

/** When a song leaked. */
export const leakDateSchema = pastDateSchema(MESSAGES.invalidLeakDate, MESSAGES.futureLeakDate);

/** A length as seconds, from "3:45", "1:02:03", "225" (seconds) or a number; blank means none. */
export function parseTrackLength(raw: string | number): number | null {
  if (typeof raw === "number") return Number.isInteger(raw) && raw > 0 ? raw : null;
  const s = raw.trim();
  const m = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})$/.exec(s);
  if (m) {
    const [h = "0", min = "0", sec = "0"] = [m[1] ?? "0", m[2], m[3]];
    if (Number(sec) > 59 || (m[1] !== undefined && Number(min) > 59)) return null;
    const total = Number(h) * 3600 + Number(min) * 60 + Number(sec);
    return total > 0 ? total : null;
  }
  if (/^\d{1,5}$/.test(s)) return Number(s) > 0 ? Number(s) : null;
  return null;
}

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

/** Seconds as "m:ss" (or "h:mm:ss"). */
export function formatTrackLength(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = String(sec % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

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

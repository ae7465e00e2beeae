// The closed choices of leak details and their labels, limits and the pure helpers around them, without zod: the
// web app's pages import these, and only its forms load the schemas (leak.ts) and zod.

/** The values of a label map, in its order, as the tuple zod's enums take. */
const valuesOf = <V extends string>(labels: Readonly<Record<V, string>>) => Object.keys(labels) as [V, ...V[]];

/** The closed choices of leak details (issue 16) and version links: each value, in order, with its label. */
const CHOICE_LABELS = {
  /**
   * How much of a leaked song circulates, from least to most (issue 27 added the values community trackers use:
   * a song only rumoured or confirmed to exist, its beat alone, a full song with tags over it; issue 37: a stem
   * bounce, the song mixed down again from its session's stems).
   */
  availability: {
    rumored: "Rumored",
    confirmed: "Confirmed",
    snippet: "Snippet",
    partial: "Partial",
    beat_only: "Beat only",
    tagged: "Tagged",
    full: "Full",
    stem_bounce: "Stem bounce",
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
  // Issue 37: trackers mark their most wanted songs with a gold medal (the Ye tracker's legend: "🥇 Wanted"), and
  // the other medals with it.
  "🥇": "wanted",
  "🥈": "wanted",
  "🥉": "wanted",
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
  /** Most links kept per song (a tracker's Link(s) cell lists a few mirrors, not a catalogue). */
  links: 10,
  /** Longest link, in characters. */
  link: 500,
} as const;

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

/** Seconds as "m:ss" (or "h:mm:ss"). */
export function formatTrackLength(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = String(sec % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Issue 27: how much of each availability, with "unknown" for songs that say nothing, most circulating first. */
export const TRACKER_AVAILABILITY_ORDER = [
  "og_file",
  "stem_bounce",
  "full",
  "tagged",
  "beat_only",
  "partial",
  "snippet",
  "confirmed",
  "rumored",
  "unknown",
] as const;

/** The most songs the tracker page answers with. */
export const TRACKER_MAX_SONGS = 3000;

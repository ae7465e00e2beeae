import {
  AVAILABILITIES,
  AVAILABILITY_LABELS,
  type Availability,
  type ChangeKind,
  QUALITIES,
  type Quality,
} from "@unheard/shared";

/** What a changelog line says of a song: its availability and quality, and which other details changed. */
export type SongFacts = { availability: string | null; quality: string | null };

/** Quality as trackers abbreviate it in their Updates tab ("snippet, LQ"). */
const QUALITY_SHORT: Readonly<Record<Quality, string>> = {
  not_available: "not available",
  recording: "recording",
  low: "LQ",
  high: "HQ",
  cd_quality: "CD quality",
  lossless: "lossless",
};

// Lower-cased as a line reads ("snippet → full"), but for OG, which trackers always write in capitals.
const availabilityWord = (v: string | null) =>
  v && (AVAILABILITIES as readonly string[]).includes(v)
    ? AVAILABILITY_LABELS[v as Availability].toLowerCase().replace(/\bog\b/, "OG")
    : null;
const qualityWord = (v: string | null) =>
  v && (QUALITIES as readonly string[]).includes(v) ? QUALITY_SHORT[v as Quality] : null;
const rank = (list: readonly string[], v: string | null) => (v ? list.indexOf(v) : -1);

/** A changelog line: its kind and the words shown. */
export type ChangeLine = { kind: ChangeKind; summary: string };

/** "New: Night Ferry (snippet, LQ)". */
export function describeNew(title: string, facts: SongFacts): ChangeLine {
  const words = [availabilityWord(facts.availability), qualityWord(facts.quality)].filter(Boolean);
  return { kind: "new", summary: words.length > 0 ? `New: ${title} (${words.join(", ")})` : `New: ${title}` };
}

/**
 * "Undertow: snippet → full, CD quality" when more of it circulates or in better quality (an upgrade), else what
 * changed ("Undertow: notes, leak date updated"); null when nothing a reader cares about changed.
 */
export function describeUpdate(
  title: string,
  before: SongFacts,
  after: SongFacts,
  otherFields: readonly string[] = [],
): ChangeLine | null {
  const parts: string[] = [];
  const availabilityMoved = before.availability !== after.availability && after.availability !== null;
  const qualityMoved = before.quality !== after.quality && after.quality !== null;
  if (availabilityMoved) {
    const from = availabilityWord(before.availability);
    const to = availabilityWord(after.availability) ?? "";
    parts.push(from ? `${from} → ${to}` : to);
  }
  if (qualityMoved) {
    const from = qualityWord(before.quality);
    const to = qualityWord(after.quality) ?? "";
    // After an availability move the new quality reads on its own ("snippet → full, CD quality").
    parts.push(from && !availabilityMoved ? `${from} → ${to}` : to);
  }
  const up =
    (availabilityMoved && rank(AVAILABILITIES, after.availability) > rank(AVAILABILITIES, before.availability)) ||
    (qualityMoved && rank(QUALITIES, after.quality) > rank(QUALITIES, before.quality));
  const down =
    (availabilityMoved && rank(AVAILABILITIES, after.availability) < rank(AVAILABILITIES, before.availability)) ||
    (qualityMoved && rank(QUALITIES, after.quality) < rank(QUALITIES, before.quality));
  const others = otherFields.filter((f) => f !== "availability" && f !== "quality");
  if (others.length > 0) parts.push(`${others.join(", ")} updated`);
  if (parts.length === 0) return null;
  return { kind: up && !down ? "upgraded" : "changed", summary: `${title}: ${parts.join(", ")}` };
}

/** "Removed from the tracker: Glass Tide". */
export const describeRemoved = (title: string): ChangeLine => ({
  kind: "removed",
  summary: `Removed from the tracker: ${title}`,
});

/** "Back on the tracker: Glass Tide". */
export const describeReturned = (title: string): ChangeLine => ({
  kind: "returned",
  summary: `Back on the tracker: ${title}`,
});

/** "Renamed: Glass Tide → Glass Coast". */
export const describeRenamed = (from: string, to: string): ChangeLine => ({
  kind: "renamed",
  summary: `Renamed: ${from} → ${to}`,
});

/** Whether a line is worth a follower's notification: a new song or an upgrade (more of it, or better quality). */
export const mattersToFollowers = (line: ChangeLine): boolean => line.kind === "new" || line.kind === "upgraded";

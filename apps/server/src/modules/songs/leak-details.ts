import {
  AVAILABILITIES,
  type Availability,
  type LeakDetails,
  QUALITIES,
  type Quality,
  SONG_TAGS,
  type SongTag,
  VERSION_KINDS,
  type VersionKind,
} from "@unheard/shared";
import type { SongRow } from "./songs.repo.js";

/** A stored list of names (JSON text); anything unreadable reads as none. */
export function names(value: string | null): string[] {
  if (!value) return [];
  try {
    const list = JSON.parse(value) as unknown;
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/** A song row's leak details (issue 16); values outside the known choices read as unknown. */
export function leakOf(
  r: Pick<
    SongRow,
    | "era"
    | "producers"
    | "features"
    | "leak_date"
    | "availability"
    | "quality"
    | "notes"
    | "reference_names"
    | "aliases"
    | "version_label"
    | "tags"
    | "file_date"
    | "track_length"
    | "links"
  >,
): LeakDetails {
  return {
    era: r.era,
    producers: names(r.producers),
    features: names(r.features),
    references: names(r.reference_names),
    aliases: names(r.aliases),
    versionLabel: r.version_label,
    tags: names(r.tags).filter((t): t is SongTag => (SONG_TAGS as readonly string[]).includes(t)),
    leakDate: r.leak_date,
    fileDate: r.file_date,
    trackLength: r.track_length === null || r.track_length === undefined ? null : Number(r.track_length),
    availability: (AVAILABILITIES as readonly string[]).includes(r.availability ?? "")
      ? (r.availability as Availability)
      : null,
    quality: (QUALITIES as readonly string[]).includes(r.quality ?? "") ? (r.quality as Quality) : null,
    notes: r.notes,
    links: names(r.links),
  };
}

const list = (values: readonly string[]) => (values.length > 0 ? JSON.stringify(values) : null);

/** Leak details as song columns: name lists as JSON text, an empty list as null. */
export function leakColumns(f: LeakDetails) {
  return {
    era: f.era,
    producers: list(f.producers),
    features: list(f.features),
    reference_names: list(f.references),
    aliases: list(f.aliases),
    version_label: f.versionLabel,
    tags: list(f.tags),
    leak_date: f.leakDate,
    file_date: f.fileDate,
    track_length: f.trackLength,
    availability: f.availability,
    quality: f.quality,
    notes: f.notes,
    links: list(f.links),
  };
}

/** A stored version kind; an unknown one reads as an alternate version. */
export function versionKindOf(value: string | null): VersionKind {
  return (VERSION_KINDS as readonly string[]).includes(value ?? "") ? (value as VersionKind) : "alternate";
}

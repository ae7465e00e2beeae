import {
  AVAILABILITIES,
  type Availability,
  type LeakDetails,
  QUALITIES,
  type Quality,
  VERSION_KINDS,
  type VersionKind,
} from "@unheard/shared";
import type { SongRow } from "./songs.repo.js";

/** A stored list of names (JSON text); anything unreadable reads as none. */
function names(value: string | null): string[] {
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
  r: Pick<SongRow, "era" | "producers" | "features" | "leak_date" | "availability" | "quality" | "notes">,
): LeakDetails {
  return {
    era: r.era,
    producers: names(r.producers),
    features: names(r.features),
    leakDate: r.leak_date,
    availability: (AVAILABILITIES as readonly string[]).includes(r.availability ?? "")
      ? (r.availability as Availability)
      : null,
    quality: (QUALITIES as readonly string[]).includes(r.quality ?? "") ? (r.quality as Quality) : null,
    notes: r.notes,
  };
}

/** Leak details as song columns: name lists as JSON text, an empty list as null. */
export function leakColumns(f: LeakDetails) {
  return {
    era: f.era,
    producers: f.producers.length > 0 ? JSON.stringify(f.producers) : null,
    features: f.features.length > 0 ? JSON.stringify(f.features) : null,
    leak_date: f.leakDate,
    availability: f.availability,
    quality: f.quality,
    notes: f.notes,
  };
}

/** A stored version kind; an unknown one reads as an alternate version. */
export function versionKindOf(value: string | null): VersionKind {
  return (VERSION_KINDS as readonly string[]).includes(value ?? "") ? (value as VersionKind) : "alternate";
}

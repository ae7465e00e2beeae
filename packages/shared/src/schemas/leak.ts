import { z } from "zod";

/** How much of a leaked song circulates (issue 16), from least to most. */
export const AVAILABILITIES = ["snippet", "partial", "full", "og_file"] as const;
export type Availability = (typeof AVAILABILITIES)[number];
export const AVAILABILITY_LABELS: Record<Availability, string> = {
  snippet: "Snippet",
  partial: "Partial",
  full: "Full",
  og_file: "OG file",
};

/** The quality of the best circulating copy. */
export const QUALITIES = ["low", "high", "lossless", "recording"] as const;
export type Quality = (typeof QUALITIES)[number];
export const QUALITY_LABELS: Record<Quality, string> = {
  low: "Low quality",
  high: "High quality",
  lossless: "Lossless",
  recording: "Recording",
};

/** How one song relates to the song it is a version of. */
export const VERSION_KINDS = ["snippet", "remix", "alternate", "official"] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];
export const VERSION_KIND_LABELS: Record<VersionKind, string> = {
  snippet: "Snippet of",
  remix: "Remix of",
  alternate: "Alternate version of",
  official: "Official release of",
};

export const LEAK_LIMITS = { era: 100, name: 100, names: 10, notes: 2000 } as const;

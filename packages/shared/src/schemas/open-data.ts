import { z } from "zod";
import { songSchema } from "./song.js";

const song = songSchema.shape;

/**
 * One verified song in the open data export (GET /api/export/songs.json; the CSV has the same columns): the
 * song's own fields where the export shows them as the API does. The genre and leak details are plain strings
 * here rather than the edit form's enums: the export must never fail on a row an older or newer version of the
 * app wrote.
 */
export const exportSongSchema = z.object({
  id: song.id,
  title: song.title,
  artists: song.artists,
  genre: z.string(),
  releaseDate: song.releaseDate,
  soundcloudUrl: song.soundcloudUrl,
  verifiedAt: song.verifiedAt,
  upvotes: song.upvotes,
  downvotes: song.downvotes,
  favoriteCount: song.favoriteCount,
  era: song.era,
  producers: song.producers,
  features: song.features,
  leakDate: song.leakDate,
  availability: z.string().nullable(),
  quality: z.string().nullable(),
  notes: song.notes,
  /** The id of the song this one is a version of, and how (snippet, remix, alternate, official). */
  versionOf: z.string().nullable(),
  versionKind: z.string().nullable(),
  /** The song's page on the site. */
  url: z.string(),
  createdAt: song.createdAt,
});
export type ExportSong = z.infer<typeof exportSongSchema>;

/** The CSV export's header row, in column order; list values (artists, producers, features) are joined by "; ". */
export const EXPORT_CSV_COLUMNS = [
  "id",
  "title",
  "artists",
  "genre",
  "release_date",
  "soundcloud_url",
  "verified_at",
  "upvotes",
  "downvotes",
  "favorites",
  "era",
  "producers",
  "features",
  "leak_date",
  "availability",
  "quality",
  "notes",
  "version_of",
  "version_kind",
  "url",
  "created_at",
] as const;

/** The public API's limits per client address and minute (PUBLIC_RATE_LIMIT, EXPORT_RATE_LIMIT defaults). */
export const PUBLIC_API_LIMITS = { readsPerMinute: 120, exportsPerMinute: 10 } as const;

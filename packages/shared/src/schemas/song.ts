import { z } from "zod";
import { GENRES, RELEASE_FILTERS } from "../constants.js";
import { AVAILABILITIES, QUALITIES, SONG_TAGS, uniqueNames } from "../leak-values.js";
import { isAllowedSoundcloudUrl } from "../links.js";
import { MESSAGES } from "../messages.js";
import { leakDetailsSchema, recordedLeakDetailsSchema, versionOfSchema } from "./leak.js";

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, MESSAGES.invalidReleaseDate)
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    MESSAGES.invalidReleaseDate,
  );

/** Optional date: '' and null mean "unknown". */
export const releaseDateSchema = z
  .union([isoDate, z.literal(""), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

export const soundcloudUrlSchema = z
  .union([
    z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === "" || isAllowedSoundcloudUrl(v), MESSAGES.invalidSoundcloudUrl),
    z.null(),
  ])
  .optional()
  .transform((v) => (v ? v : null));

const titleSchema = z
  .string({ error: MESSAGES.uploadRequiredFields })
  .trim()
  .min(1, MESSAGES.uploadRequiredFields)
  .max(200, "Title must be at most 200 characters");

/** Primary artist required; blank additional artists dropped; duplicates (case-insensitive) removed. */
export const artistsSchema = z
  .array(z.string().max(100, "Artist names must be at most 100 characters"), { error: MESSAGES.uploadRequiredFields })
  .max(10, "At most 10 artists")
  .transform(uniqueNames)
  .refine((list) => list.length > 0, MESSAGES.uploadRequiredFields);

export const genreSchema = z.enum(GENRES, { error: MESSAGES.invalidGenre });

/** Upload form fields (the audio file travels beside them in the multipart body). */
export const uploadSongSchema = z.object({
  title: titleSchema,
  artists: artistsSchema,
  genre: genreSchema,
  releaseDate: releaseDateSchema,
  soundcloudUrl: soundcloudUrlSchema,
  ...leakDetailsSchema.shape,
});
export type UploadSongInput = z.input<typeof uploadSongSchema>;

/** Edit form: the same fields plus the required comment. */
export const editSongSchema = uploadSongSchema.extend({
  comment: z.string({ error: MESSAGES.editCommentRequired }).trim().min(1, MESSAGES.editCommentRequired).max(1000),
});
export type EditSongInput = z.input<typeof editSongSchema>;

export const artistRefSchema = z.object({ id: z.string(), name: z.string() });
export const userRefSchema = z.object({ id: z.string(), username: z.string() });

export const songAudioSchema = z.object({
  url: z.string(),
  mime: z.string(),
  size: z.number(),
  durationSec: z.number(),
  sampleRate: z.number(),
  channels: z.number(),
  stats: z.object({ min: z.number(), max: z.number(), mean: z.number(), silenceRatio: z.number() }),
});

/** A song as the API shows it to one viewer (the viewer-specific flags are last). */
export const songSchema = z.object({
  id: z.string(),
  title: z.string(),
  artists: z.array(artistRefSchema),
  genre: z.enum(GENRES),
  releaseDate: z.string().nullable(),
  soundcloudUrl: z.string().nullable(),
  status: z.enum(["pending", "verified"]),
  verifiedAt: z.string().nullable(),
  upvotes: z.number(),
  downvotes: z.number(),
  net: z.number(),
  favoriteCount: z.number(),
  /** Counted plays (decision 027): 30 s heard, or half a shorter song, once per listener and song an hour. */
  playCount: z.number(),
  reportCount: z.number(),
  version: z.number(),
  isHidden: z.boolean(),
  submittedBy: userRefSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastEditedAt: z.string().nullable(),
  lastEditedBy: userRefSchema.nullable(),
  audio: songAudioSchema.nullable(),
  /** The song's generated cover art (SVG); the URL changes when the title or the credited artists do. */
  coverUrl: z.string(),
  /** Leak details (issue 16): each null (or empty) when unknown. */
  era: z.string().nullable(),
  producers: z.array(z.string()),
  features: z.array(z.string()),
  /** Tracker details (issue 27): reference credits, other names, a version label ("V2"), tags from marks. */
  references: z.array(z.string()),
  aliases: z.array(z.string()),
  versionLabel: z.string().nullable(),
  tags: z.array(z.enum(SONG_TAGS)),
  /** YYYY-MM-DD, or YYYY-MM or YYYY when only that much is known (issue 37). */
  leakDate: z.string().nullable(),
  /** The leaked file's own date, as precise as leakDate. */
  fileDate: z.string().nullable(),
  /** Seconds. */
  trackLength: z.number().nullable(),
  availability: z.enum(AVAILABILITIES).nullable(),
  quality: z.enum(QUALITIES).nullable(),
  notes: z.string().nullable(),
  /** Where the leak can be found (http(s) addresses). */
  links: z.array(z.string()),
  /** When the artist's linked tracker sheet stopped listing the song (issue 37), or null. */
  removedFromTrackerAt: z.string().nullable(),
  /** The song this one is a version of (a snippet, a remix...), or null. */
  versionOf: versionOfSchema.nullable(),
  /** How many visible songs are versions of this one. */
  versionCount: z.number(),
  /** Admins only: the existing song this upload's audio matched (the uploader confirmed it anyway). */
  audioMatch: z.object({ songId: z.string(), title: z.string(), confidence: z.number() }).nullable(),
  /** The owner and admins: the song this upload's audio matched, offered as the song it may be a version of. */
  versionSuggestion: z.object({ songId: z.string(), title: z.string() }).nullable(),
  isFavorite: z.boolean(),
  myVote: z.enum(["up", "down"]).nullable(),
  /** Why the viewer's vote does not count toward verification yet (decision 014), or null. */
  myVoteNote: z.string().nullable(),
  /** A contested pending song: the earliest time it can verify (decision 014), or null. */
  verifiableAt: z.string().nullable(),
  isOwner: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
});
export type Song = z.infer<typeof songSchema>;

/** The versions of a song (snippets, remixes...), oldest first. */
export const songVersionsSchema = z.object({ items: z.array(songSchema) });
export type SongVersions = z.infer<typeof songVersionsSchema>;

export const songPageSchema = z.object({ items: z.array(songSchema), nextCursor: z.string().nullable() });
export type SongPage = z.infer<typeof songPageSchema>;

/** Home feed query; filters live in the page URL with the same names. */
export const feedQuerySchema = z.object({
  feed: z.enum(["trending", "newest"]).default("newest"),
  genre: z.enum(["All", ...GENRES]).default("All"),
  release: z.enum(["all", ...RELEASE_FILTERS]).default("all"),
  availability: z.enum(["all", ...AVAILABILITIES], { error: MESSAGES.invalidAvailability }).default("all"),
  quality: z.enum(["all", ...QUALITIES], { error: MESSAGES.invalidQuality }).default("all"),
  next7: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(48).default(24),
});
export type FeedQuery = z.input<typeof feedQuerySchema>;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1).max(100),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(48).default(24),
});

export const searchResultSchema = z.object({
  artists: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      initial: z.string(),
      trackCount: z.number(),
      isVerified: z.boolean(),
    }),
  ),
  songs: z.array(songSchema),

  nextCursor: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** GET /api/search/suggest: what the search box offers while typing (the last word is a prefix; typos allowed). */
export const suggestQuerySchema = z.object({ q: z.string().trim().min(1).max(100) });
/** A song the search box suggests: enough for one line with its cover. */
export const songSuggestionSchema = z.object({
  id: z.string(),
  title: z.string(),
  artists: z.array(artistRefSchema),
  coverUrl: z.string(),
});
export type SongSuggestion = z.infer<typeof songSuggestionSchema>;
/** Suggestions: up to SUGGEST_SONGS songs and SUGGEST_ARTISTS artists, best first. */
export const suggestResultSchema = z.object({
  songs: z.array(songSuggestionSchema),
  artists: searchResultSchema.shape.artists,
});
export type SuggestResult = z.infer<typeof suggestResultSchema>;

export const favoriteStateSchema = z.object({ isFavorite: z.boolean(), favoriteCount: z.number() });
export type FavoriteState = z.infer<typeof favoriteStateSchema>;

/** Either the edit was applied, or (verified contributors) it went to admin review. */
export const editResultSchema = z.discriminatedUnion("applied", [
  z.object({ applied: z.literal(true), message: z.string(), song: songSchema }),
  z.object({ applied: z.literal(false), message: z.string(), suggestionId: z.string() }),
]);
export type EditResult = z.infer<typeof editResultSchema>;

/** A song's fields as history entries and edit suggestions record them; leak details only since issue 16. */
export const recordedSongSchema = z.object({
  title: z.string(),
  artists: z.array(z.string()),
  genre: z.string(),
  releaseDate: z.string().nullable(),
  soundcloudUrl: z.string().nullable(),
  ...recordedLeakDetailsSchema.shape,
});

export const songHistoryEntrySchema = z.object({
  version: z.number(),
  previous: recordedSongSchema.extend({
    // The version link, in entries recorded since issue 16.
    versionOf: z.object({ id: z.string(), title: z.string(), kind: z.string() }).nullable().optional(),
  }),
  comment: z.string().nullable(),
  editedBy: userRefSchema.nullable(),
  editedAt: z.string(),
});
export const songHistorySchema = z.object({ items: z.array(songHistoryEntrySchema) });
export type SongHistoryEntry = z.infer<typeof songHistoryEntrySchema>;

export const soundcloudQuerySchema = z.object({
  title: z
    .string({ error: MESSAGES.soundcloudNeedsTitleArtist })
    .trim()
    .min(1, MESSAGES.soundcloudNeedsTitleArtist)
    .max(200),
  artist: z
    .string({ error: MESSAGES.soundcloudNeedsTitleArtist })
    .trim()
    .min(1, MESSAGES.soundcloudNeedsTitleArtist)
    .max(200),
});
export const soundcloudTrackSchema = z.object({
  id: z.number(),
  title: z.string(),
  permalink_url: z.string(),
  artwork_url: z.string().nullable(),
  user: z.object({ username: z.string() }),
  duration: z.number(),
});
export const soundcloudMatchesSchema = z.object({
  tracks: z.array(soundcloudTrackSchema),
  message: z.string().optional(),
});
export type SoundcloudTrack = z.infer<typeof soundcloudTrackSchema>;

import { z } from "zod";
import { TRACKER_AVAILABILITY_ORDER } from "../leak-values.js";
import { MESSAGES } from "../messages.js";
import { socialLinksSchema } from "./common.js";
import { isPartialDate } from "./leak.js";
import { songSchema } from "./song.js";

/** An http(s) link or nothing; anything else (javascript:, data:) is refused. */
export const socialLinkSchema = z
  .union([
    z
      .string()
      .trim()
      .max(300)
      .refine((v) => {
        if (v === "") return true;
        try {
          const u = new URL(v);
          return u.protocol === "https:" || u.protocol === "http:";
        } catch {
          return false;
        }
      }, MESSAGES.invalidLink),
    z.null(),
  ])
  .optional()
  .transform((v) => (v ? v : null));

export const artistSchema = z.object({
  id: z.string(),
  name: z.string(),
  bio: z.string(),
  isVerified: z.boolean(),
  isPlaceholder: z.boolean(),
  trackCount: z.number(),
  followerCount: z.number(),
  socialLinks: socialLinksSchema,
  isFollowing: z.boolean(),
  isSelf: z.boolean(),
  canEdit: z.boolean(),
});
export type Artist = z.infer<typeof artistSchema>;

export const updateArtistSchema = z.object({
  bio: z.string().trim().max(1000, "Bio must be at most 1000 characters"),
  instagram: socialLinkSchema,
  twitter: socialLinkSchema,
  website: socialLinkSchema,
});
export type UpdateArtistInput = z.input<typeof updateArtistSchema>;

export const followStateSchema = z.object({ following: z.boolean(), followerCount: z.number() });
export type FollowState = z.infer<typeof followStateSchema>;

export const artistHitSchema = z.object({
  id: z.string(),
  name: z.string(),
  initial: z.string(),
  trackCount: z.number(),
  isVerified: z.boolean(),
});
export type ArtistHit = z.infer<typeof artistHitSchema>;
/** The super admin's artist search (merge dialog): artists with no public song included (issue 38). */
export const adminArtistSearchResultSchema = z.object({ artists: z.array(artistHitSchema) });

export const mergeArtistsSchema = z.object({ keepId: z.string().min(1), mergeId: z.string().min(1) });
export const claimArtistSchema = z.object({ userId: z.string().min(1) });
export const verifyArtistSchema = z.object({ verified: z.boolean() });

export const NOTIFICATION_KINDS = [
  "new_song",
  "song_verified",
  "song_unverified",
  "report_processed",
  "suggestion_processed",
  "tracker_update",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  payload: z.record(z.string(), z.unknown()),
  read: z.boolean(),
  createdAt: z.string(),
});
export type AppNotification = z.infer<typeof notificationSchema>;
export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number(),
  nextCursor: z.string().nullable(),
});

export const notificationSettingsSchema = z.object({
  kinds: z.object(
    Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.boolean()])) as Record<NotificationKind, z.ZodBoolean>,
  ),
  emailDigest: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export type TrackerAvailability = (typeof TRACKER_AVAILABILITY_ORDER)[number];

/** Counts per availability, in TRACKER_AVAILABILITY_ORDER, only those above zero. */
export const trackerCountsSchema = z.array(
  z.object({ availability: z.enum(TRACKER_AVAILABILITY_ORDER), count: z.number().int() }),
);
export type TrackerCounts = z.infer<typeof trackerCountsSchema>;

/** One song as a row of an artist's tracker: the song's own fields, and the other artists credited. */
export const trackerSongSchema = songSchema
  .pick({
    id: true,
    title: true,
    versionLabel: true,
    tags: true,
    aliases: true,
    features: true,
    producers: true,
    leakDate: true,
    fileDate: true,
    trackLength: true,
    availability: true,
    quality: true,
    notes: true,
    coverUrl: true,
  })
  .extend({
    with: z.array(z.string()),
    hasAudio: z.boolean(),
    links: z.array(z.string()),
    /** The linked tracker sheet no longer lists the song (issue 37); it stays on Unheard. */
    removedFromTracker: z.boolean(),
  });
export type TrackerSong = z.infer<typeof trackerSongSchema>;

/** An era of an artist's tracker: its name (null: songs with no era), the span of its leaks, counts and songs. */
export const trackerEraSchema = z.object({
  name: z.string().nullable(),
  /** The era's span as its page says (YYYY-MM or YYYY-MM-DD), else the first and last leak date of its songs. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  description: z.string().nullable(),
  coverUrl: z.string().nullable(),
  /** The span the era's page gives (null: none; `from`/`to` are then the span of its songs' leaks). */
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  counts: trackerCountsSchema,
  /** The era's counts as its tracker sheet states them ("1 OG File(s)", "2 Full"), in the sheet's order. */
  sheetCounts: z.array(z.object({ count: z.number().int(), label: z.string() })),
  songs: z.array(trackerSongSchema),
});
export type TrackerEra = z.infer<typeof trackerEraSchema>;

/** An artist's public songs the way trackers show them (GET /api/artists/:id/tracker): eras newest first. */
export const artistTrackerSchema = z.object({
  total: z.number().int(),
  counts: trackerCountsSchema,
  eras: z.array(trackerEraSchema),
  /** More songs than a tracker page shows (TRACKER_MAX_SONGS): the CSV has them all. */
  truncated: z.boolean(),
  /** The tracker is kept in step with a published sheet (issue 37): when it was last checked and last changed. */
  sync: z.object({ lastCheckedAt: z.string().nullable(), lastChangedAt: z.string().nullable() }).nullable(),
});
export type ArtistTracker = z.infer<typeof artistTrackerSchema>;

const eraDate = z
  .union([z.string().trim(), z.null()])
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isPartialDate(v), MESSAGES.invalidEraDate);

/** What an artist (or an admin) says of one of the artist's eras: PUT /api/artists/:id/eras, by name. */
export const eraInputSchema = z
  .object({
    name: z.string({ error: MESSAGES.eraNameRequired }).trim().min(1, MESSAGES.eraNameRequired).max(100),
    description: z
      .union([z.string().trim().max(2000, MESSAGES.eraDescriptionTooLong), z.null()])
      .optional()
      .transform((v) => (v ? v : null)),
    coverUrl: socialLinkSchema,
    startsOn: eraDate,
    endsOn: eraDate,
  })
  // Compared at the coarser of the two precisions: "2019" may end in "2019-03".
  .refine(
    (e) => !e.startsOn || !e.endsOn || e.startsOn.slice(0, e.endsOn.length) <= e.endsOn.slice(0, e.startsOn.length),
    {
      message: MESSAGES.eraDatesOrder,
      path: ["endsOn"],
    },
  );
export type EraInput = z.input<typeof eraInputSchema>;

/** An era as saved. */
export const eraSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  coverUrl: z.string().nullable(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
});
export type Era = z.infer<typeof eraSchema>;

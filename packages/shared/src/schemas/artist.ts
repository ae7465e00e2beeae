import { z } from "zod";
import { MESSAGES } from "../messages.js";
import { socialLinksSchema } from "./common.js";

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

/** True when a stored link may be rendered as a link. */
export function isSafeLink(v: string | null | undefined): v is string {
  if (!v) return false;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

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

export const mergeArtistsSchema = z.object({ keepId: z.string().min(1), mergeId: z.string().min(1) });
export const claimArtistSchema = z.object({ userId: z.string().min(1) });
export const verifyArtistSchema = z.object({ verified: z.boolean() });

export const NOTIFICATION_KINDS = [
  "new_song",
  "song_verified",
  "song_unverified",
  "report_processed",
  "suggestion_processed",
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

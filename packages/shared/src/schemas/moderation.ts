import { z } from "zod";
import { REPORT_REASONS, ROLES } from "../constants.js";
import { MESSAGES } from "../messages.js";
import { leakDetailsSchema } from "./leak.js";
import {
  artistsSchema,
  genreSchema,
  recordedSongSchema,
  releaseDateSchema,
  soundcloudUrlSchema,
  userRefSchema,
} from "./song.js";

/** 'User {email} is now off the waitlist!' (spec §8). */
export const offWaitlistMessage = (email: string) => `User ${email} is now off the waitlist!`;

export const reportInputSchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: MESSAGES.reportReasonRequired }),
  details: z.string().trim().max(1000, "Details must be at most 1000 characters").optional().default(""),
});
export type ReportInput = z.input<typeof reportInputSchema>;

export const reportSchema = z.object({
  id: z.string(),
  songId: z.string(),
  songTitle: z.string(),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  status: z.enum(["pending", "resolved", "rejected"]),
  reporter: userRefSchema,
  createdAt: z.string(),
  processedAt: z.string().nullable(),
  processedBy: z.string().nullable(),
  songHidden: z.boolean(),
  /** The reporter attached the clip they identified the song from (GET /api/reports/:id/clip). */
  hasClip: z.boolean(),
});
export type Report = z.infer<typeof reportSchema>;
/**
 * A page of an admin list (the queues and the waitlist oldest first, the audit log newest first): `nextCursor` (as
 * `cursor`) fetches the next; `total` counts them all.
 */
const queuePage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable(), total: z.number().int() });
/** Items of an admin list page, unless asked for fewer (`limit`). */
export const QUEUE_PAGE_SIZE = 50;

export const reportListSchema = queuePage(reportSchema);

export const processReportSchema = z.object({ action: z.enum(["resolve", "reject"]) });
export const hideSongSchema = z.object({ hidden: z.boolean() });

/** The fields an edit suggestion can change (spec §3 Edit suggestion). */
export const suggestionValuesSchema = recordedSongSchema.extend({ artist: z.string() });
export type SuggestionValues = z.infer<typeof suggestionValuesSchema>;

export const suggestEditSchema = z.object({
  title: z.string({ error: MESSAGES.uploadRequiredFields }).trim().min(1, MESSAGES.uploadRequiredFields).max(200),
  artists: artistsSchema,
  genre: genreSchema,
  releaseDate: releaseDateSchema,
  soundcloudUrl: soundcloudUrlSchema,
  ...leakDetailsSchema.shape,
  reason: z
    .string({ error: MESSAGES.suggestionReasonRequired })
    .trim()
    .min(1, MESSAGES.suggestionReasonRequired)
    .max(1000),
});
export type SuggestEditInput = z.input<typeof suggestEditSchema>;

export const editSuggestionSchema = z.object({
  id: z.string(),
  songId: z.string(),
  original: suggestionValuesSchema,
  suggested: suggestionValuesSchema,
  /** Current values of the song (differ from `original` when it was edited since). */
  current: suggestionValuesSchema.nullable(),
  changedFields: z.array(z.string()),
  stale: z.boolean(),
  reason: z.string(),
  status: z.enum(["pending", "approved", "rejected"]),
  submittedBy: userRefSchema,
  submittedAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewNotes: z.string().nullable(),
});
export type EditSuggestion = z.infer<typeof editSuggestionSchema>;
export const editSuggestionListSchema = queuePage(editSuggestionSchema);

export const reviewSuggestionSchema = z.object({
  action: z.enum(["approve", "reject"]),
  notes: z.string().trim().max(1000).optional(),
  /** Approve even though the song changed since the suggestion (the admin has seen the current values). */
  overrideNewerEdits: z.boolean().optional(),
});

export const waitlistJoinSchema = z.object({
  name: z.string({ error: MESSAGES.waitlistNameRequired }).trim().min(1, MESSAGES.waitlistNameRequired).max(100),
  email: z
    .string({ error: MESSAGES.waitlistEmailRequired })
    .trim()
    .min(1, MESSAGES.waitlistEmailRequired)
    .max(254, MESSAGES.invalidEmail)
    .pipe(z.email(MESSAGES.invalidEmail))
    .transform((e) => e.toLowerCase()),
});
export type WaitlistJoinInput = z.input<typeof waitlistJoinSchema>;

/**
 * One person waiting: a join-form entry, or an account not yet let in (its id is then the account's); Approve takes
 * either id. `emailVerified` is false without an account.
 */
export const waitlistEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  createdAt: z.string(),
  hasAccount: z.boolean(),
  emailVerified: z.boolean(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
/** The waitlist, oldest first, a page at a time. */
export const waitlistListSchema = queuePage(waitlistEntrySchema);
export const waitlistApproveResultSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  userFound: z.boolean(),
});

export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  points: z.number(),
  offWaitlist: z.boolean(),
  isArtist: z.boolean(),
  createdAt: z.string(),
});
export const adminUserListSchema = z.object({ items: z.array(adminUserSchema) });
export const setRoleSchema = z.object({ role: z.enum(["user", "verified_contributor", "admin"]) });

export const auditEntrySchema = z.object({
  id: z.string(),
  actor: userRefSchema.nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** What the entry acted on, readable: a song title, a username, an e-mail. */
  targetLabel: z.string().nullable(),
  /** The target is an account with an artist page (so the log links it there). */
  targetIsArtist: z.boolean(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** The audit log, newest first, a page at a time. */
export const auditListSchema = queuePage(auditEntrySchema);

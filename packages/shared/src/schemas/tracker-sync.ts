import { z } from "zod";
import { importBatchSchema, importLegendSchema, sheetReadingSchema } from "./import.js";

/** Sync links (issue 37): limits of the schedule and of what a sync may do without an admin's approval. */
export const SYNC_LIMITS = {
  /** Minutes between syncs: the default, and the bounds an admin may set. */
  defaultIntervalMinutes: 30,
  minIntervalMinutes: 5,
  maxIntervalMinutes: 7 * 24 * 60,
  /** A sync that would mark more than this share of the sheet's rows removed waits for approval. */
  removalShareForApproval: 0.2,
  /** The longest a failing sheet waits between attempts (back-off doubles up to this). */
  maxBackoffMinutes: 24 * 60,
} as const;

/** What sync links refuse and report, worded for the admin. */
export const SYNC_MESSAGES = {
  noPermission: "You do not have permission to link tracker sheets.",
  notFound: "Tracker link not found",
  artistRequired: "Please enter the artist whose tracker this is.",
  urlRequired: "Please paste the sheet's published link (CSV or XLSX).",
  intervalRange: `Sync every ${SYNC_LIMITS.minIntervalMinutes} minutes at least and once a week at most.`,
  artistLinked: "This artist's tracker is already linked to a sheet. Edit that link instead.",
  notAwaiting: "This sync is not waiting for approval.",
  firstSync: "The first sync of a linked sheet waits for an admin's approval.",
  largeRemoval: (removed: number, rows: number) =>
    `It would mark ${removed.toLocaleString("en-US")} of ${rows.toLocaleString("en-US")} rows removed from the tracker (more than a fifth).`,
  syncQueued: "Sync queued.",
  paused: "This link is paused. Resume it to sync.",
} as const;

/** Create or change a sync link: which artist's tracker, the sheet's link and the schedule, and how it is read. */
export const trackerLinkInputSchema = sheetReadingSchema.omit({ defaultArtist: true }).extend({
  /** The artist's name (their profile is made if there is none, as imports do). */
  artist: z.string({ error: SYNC_MESSAGES.artistRequired }).trim().min(1, SYNC_MESSAGES.artistRequired).max(100),
  url: z.string({ error: SYNC_MESSAGES.urlRequired }).trim().min(1, SYNC_MESSAGES.urlRequired).max(2000),
  intervalMinutes: z
    .number({ error: SYNC_MESSAGES.intervalRange })
    .int(SYNC_MESSAGES.intervalRange)
    .min(SYNC_LIMITS.minIntervalMinutes, SYNC_MESSAGES.intervalRange)
    .max(SYNC_LIMITS.maxIntervalMinutes, SYNC_MESSAGES.intervalRange)
    .default(SYNC_LIMITS.defaultIntervalMinutes),
  /** New songs start verified (they skip the community vote); otherwise pending. */
  asVerified: z.boolean().default(false),
  legend: importLegendSchema.optional(),
});
export type TrackerLinkInput = z.input<typeof trackerLinkInputSchema>;

/** Pause or resume a link, change its schedule. */
export const trackerLinkPatchSchema = z.object({
  paused: z.boolean().optional(),
  intervalMinutes: trackerLinkInputSchema.shape.intervalMinutes.optional(),
});

/** A link's state: awaiting its first approval, syncing on schedule, or paused by an admin (or by an undo). */
export const TRACKER_LINK_STATES = ["awaiting_approval", "active", "paused"] as const;

/** A sync link as admins see it. */
export const trackerLinkSchema = z.object({
  id: z.string(),
  artist: z.object({ id: z.string(), name: z.string() }),
  /** What the admin pasted, and the address fetched (a Google Sheets link becomes its XLSX export). */
  sourceUrl: z.string(),
  url: z.string(),
  intervalMinutes: z.number().int(),
  asVerified: z.boolean(),
  /** How the sheet is read (tabs, header rows, mappings, legend): a PUT replaces it, so clients send it back. */
  reading: sheetReadingSchema.omit({ defaultArtist: true }),
  state: z.enum(TRACKER_LINK_STATES),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  lastCheckedAt: z.string().nullable(),
  /** The last sync that changed something. */
  lastChangedAt: z.string().nullable(),
  /** The last failure in words (the sheet keeps its last good state), cleared by a good fetch. */
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  failures: z.number().int(),
  nextSyncAt: z.string().nullable(),
  /** A sync of this link is queued or running. */
  syncing: z.boolean(),
  /** The sync waiting for approval, if any. */
  pendingBatch: importBatchSchema.nullable(),
  /** The newest applied sync. */
  lastBatch: importBatchSchema.nullable(),
});
export type TrackerLink = z.infer<typeof trackerLinkSchema>;
export const trackerLinkListSchema = z.object({ items: z.array(trackerLinkSchema) });

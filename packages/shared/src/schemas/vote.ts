import { z } from "zod";
import { DOWNVOTE_REASONS } from "../constants.js";
import { MESSAGES } from "../messages.js";

/** The vote state the page wants (spec §4 toggle flow, sent as the wanted state so repeats are harmless). */
export const voteInputSchema = z
  .object({
    value: z.enum(["up", "down", "none"]),
    reason: z.enum(DOWNVOTE_REASONS, { error: MESSAGES.downvoteReasonRequired }).optional(),
    details: z.string().trim().max(500, "Details must be at most 500 characters").optional(),
  })
  .refine((v) => v.value !== "down" || v.reason !== undefined, {
    message: MESSAGES.downvoteReasonRequired,
    path: ["reason"],
  });
export type VoteInput = z.input<typeof voteInputSchema>;

export const voteResultSchema = z.object({
  songId: z.string(),
  upvotes: z.number(),
  downvotes: z.number(),
  net: z.number(),
  status: z.enum(["pending", "verified"]),
  verifiedAt: z.string().nullable(),
  myVote: z.enum(["up", "down"]).nullable(),
  /** True when this vote is the one that verified the song ('Song has been verified!'). */
  verifiedNow: z.boolean(),
  /** Whether the viewer's vote counts toward verification (decision 014). */
  counted: z.boolean(),
  /** Why it does not count yet (the voter's eligibility), or null. */
  note: z.string().nullable(),
  /** A contested song: the earliest time it can verify, or null. */
  verifiableAt: z.string().nullable(),
});
export type VoteResult = z.infer<typeof voteResultSchema>;

export const verifyAllResultSchema = z.object({ ok: z.literal(true), message: z.string(), count: z.number() });

/** One voter on a song, as admins see it when looking for rings (decision 015). */
export const songVoterSchema = z.object({
  user: z.object({ id: z.string(), username: z.string() }),
  value: z.enum(["up", "down"]),
  counted: z.boolean(),
  votedAt: z.string(),
  accountCreatedAt: z.string(),
  accountAgeDays: z.number(),
  trust: z.object({ level: z.number().int(), name: z.string() }),
  discounted: z.boolean(),
  /** IP prefix (/24 or /64) the account signed up from, and the one the vote came from. */
  signupPrefix: z.string().nullable(),
  votePrefix: z.string().nullable(),
  /** A short, stable tag of the device cookie (the same tag is the same browser). */
  device: z.string().nullable(),
  /** How many other songs by this song's uploader this voter upvoted. */
  uploaderUpvotes: z.number().int(),
  /** The ring signals this voter is part of. */
  flags: z.array(z.string()),
});
export type SongVoter = z.infer<typeof songVoterSchema>;

export const songVotersSchema = z.object({
  songId: z.string(),
  uploader: z.object({ id: z.string(), username: z.string() }).nullable(),
  /** True when any signal below holds. */
  ringSuspected: z.boolean(),
  signals: z.array(z.string()),
  voters: z.array(songVoterSchema),
});
export type SongVoters = z.infer<typeof songVotersSchema>;

export const discountInputSchema = z.object({ discounted: z.boolean() });
export const discountResultSchema = z.object({ ok: z.literal(true), message: z.string(), moved: z.number().int() });

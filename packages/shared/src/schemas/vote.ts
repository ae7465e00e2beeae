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

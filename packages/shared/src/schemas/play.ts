import { z } from "zod";

/** POST /api/songs/:id/plays/start: a signed start token, and the listening (seconds) after which a report counts. */
export const playStartResponseSchema = z.object({ token: z.string(), countAfterSec: z.number() });
export type PlayStartResponse = z.infer<typeof playStartResponseSchema>;

/** POST /api/songs/:id/plays: the token the start gave. */
export const playReportRequestSchema = z.object({ token: z.string().min(1).max(512) });
export type PlayReportRequest = z.infer<typeof playReportRequestSchema>;

/** Whether this report counted a play (decision 027), and the song's play count after it. */
export const playReportResponseSchema = z.object({ counted: z.boolean(), playCount: z.number() });
export type PlayReportResponse = z.infer<typeof playReportResponseSchema>;

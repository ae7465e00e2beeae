import { z } from "zod";

/** Every error answer of the API. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A profile's links as the API shows them: each an http(s) URL or null. */
export const socialLinksSchema = z.object({
  instagram: z.string().nullable(),
  twitter: z.string().nullable(),
  website: z.string().nullable(),
});

export const okSchema = z.object({ ok: z.literal(true), message: z.string().optional() });
export type Ok = z.infer<typeof okSchema>;

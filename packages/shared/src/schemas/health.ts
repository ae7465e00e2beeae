import { z } from "zod";

/** Demo audio still being rendered in the background: `done` of `total` songs have their audio so far. */
export const demoAudioStatusSchema = z.object({ done: z.number().int().min(0), total: z.number().int().min(0) });
export type DemoAudioStatus = z.infer<typeof demoAudioStatusSchema>;

export const healthSchema = z.object({
  status: z.literal("ok"),
  db: z.enum(["sqlite", "postgres"]),
  /** Null unless this server is rendering demo audio (a first start): songs without audio get it soon. */
  demoAudio: demoAudioStatusSchema.nullable(),
});
export type Health = z.infer<typeof healthSchema>;

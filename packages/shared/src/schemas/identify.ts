import { z } from "zod";
import { AVAILABILITIES, QUALITIES } from "../leak-values.js";
import { audioTransformSchema } from "./audio-match.js";

/** How sure an answer is, in words (decision 028); the recogniser's own list, which the server checks it equals. */
export const IDENTIFY_CERTAINTIES = ["sure", "likely", "weak"] as const;
/** One of IDENTIFY_CERTAINTIES. */
export type IdentifyCertainty = (typeof IDENTIFY_CERTAINTIES)[number];

/** POST /api/identify/pcm's query: the rate of the body's 16-bit little-endian mono PCM. */
export const identifyPcmQuerySchema = z.object({ sampleRate: z.coerce.number().int().min(4000).max(48000) });

/** The song's entry on its artist's tracker: whose tracker, the era, and how much of it circulates, how well. */
export const identifyTrackerSchema = z.object({
  /** The first credited artist: the tracker the song sits on (its page, `?era=` for the era). */
  artistId: z.string().nullable(),
  era: z.string().nullable(),
  availability: z.enum(AVAILABILITIES).nullable(),
  quality: z.enum(QUALITIES).nullable(),
  versionLabel: z.string().nullable(),
  leakDate: z.string().nullable(),
});

/** The song a clip was found in, as far as the member who asked may see it. */
export const identifyMatchSchema = z.object({
  song: z.object({
    id: z.string(),
    title: z.string(),
    artists: z.array(z.object({ id: z.string(), name: z.string() })),
    coverUrl: z.string(),
    status: z.enum(["verified", "pending"]),
  }),
  certainty: z.enum(IDENTIFY_CERTAINTIES),
  /** Where in the song the clip starts, in the song's own time (the page says "from 1:12"). */
  offsetSeconds: z.number(),
  /** How the clip was sped up, slowed, pitch-shifted or stretched from the song ("sped up 12%"); null: as stored. */
  transform: audioTransformSchema.nullable(),
  tracker: identifyTrackerSchema,
});
export type IdentifyMatch = z.infer<typeof identifyMatchSchema>;

/** POST /api/identify/pcm and /api/identify/file: the song, or "Not on Unheard yet". Nothing of the clip is kept. */
export const identifyAnswerSchema = z.object({
  /** Seconds of audio listened to. */
  seconds: z.number(),
  /** False when the clip held too little sound to fingerprint (silence, a muted microphone): no verdict. */
  heard: z.boolean(),
  match: identifyMatchSchema.nullable(),
  /** The answer in words: 'It's "Title" by Artist', "Not on Unheard yet", or that hardly any music came through. */
  message: z.string(),
});
export type IdentifyAnswer = z.infer<typeof identifyAnswerSchema>;

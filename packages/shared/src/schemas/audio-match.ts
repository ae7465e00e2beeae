import { z } from "zod";

/**
 * How audio differs from the song it matched (decision 020): its frequencies are the song's times `pitch`, its
 * durations the song's divided by `tempo`. `kind` names the transform; `label` says it for people.
 */
export const audioTransformSchema = z.object({
  kind: z.enum(["speed", "pitch", "tempo", "both", "reencoded", "same"]),
  tempo: z.number(),
  pitch: z.number(),
  label: z.string(),
});

/** A transform, as the API reports it. */
export type AudioTransform = z.infer<typeof audioTransformSchema>;

/** Within this of 1 a factor counts as unchanged (under the matcher's 0.25% verification step). */
const SAME = 0.004;

const percent = (f: number) => `${Math.round(Math.abs(f - 1) * 100)}%`;
const signed = (x: number, digits: number) => `${x > 0 ? "+" : "\u2212"}${Math.abs(x).toFixed(digits)}`;

/**
 * Name a transform from its factors: "sped up 8%", "slowed down 12%", "pitch-shifted +2.0 semitones",
 * "time-stretched to 90% speed". With both factors 1, `reencoded` tells a re-encoded copy from the very same file.
 */
export function describeAudioTransform(tempo: number, pitch: number, reencoded = true): AudioTransform {
  const t = Math.abs(tempo - 1) > SAME;
  const p = Math.abs(pitch - 1) > SAME;
  const semis = 12 * Math.log2(pitch);
  if (!t && !p)
    return reencoded
      ? { kind: "reencoded", tempo, pitch, label: "a re-encoded copy" }
      : { kind: "same", tempo, pitch, label: "the same file" };
  if (t && p && Math.abs(tempo - pitch) <= SAME)
    return { kind: "speed", tempo, pitch, label: `${tempo > 1 ? "sped up" : "slowed down"} ${percent(tempo)}` };
  if (p && !t) return { kind: "pitch", tempo, pitch, label: `pitch-shifted ${signed(semis, 1)} semitones` };
  if (t && !p) return { kind: "tempo", tempo, pitch, label: `time-stretched to ${Math.round(tempo * 100)}% speed` };
  return {
    kind: "both",
    tempo,
    pitch,
    label: `at ${Math.round(tempo * 100)}% speed, pitch ${signed(semis, 1)} semitones`,
  };
}

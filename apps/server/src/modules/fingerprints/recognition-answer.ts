// A recognition as the API answers it (super admins' recognition, members' Identify): songs named only when the
// asker may see them, the transform in words, and where the time went in a Server-Timing header.
import { describeAudioTransform, foundMatchesMessage, MESSAGES } from "@unheard/shared";
import type { Viewer } from "../auth/viewer.js";
import type { SongsService } from "../songs/songs.service.js";
import type { Recognition } from "./fingerprints.service.js";

/** The transform of a warped match, or null when the clip plays as stored. */
export function transformOf(warp: Recognition["candidates"][number]["warp"]) {
  if (!warp) return null;
  const t = describeAudioTransform(warp.tempo, warp.pitch);
  return t.kind === "reencoded" || t.kind === "same" ? null : t;
}

/** Attach song titles and artists to a recognition, dropping songs deleted since they were indexed. */
export async function present(
  songs: Pick<SongsService, "visibleRow" | "hydrate">,
  result: Recognition,
  seconds: number,
  viewer: Viewer | undefined,
  reply: { header: (name: string, value: string) => unknown },
) {
  const t = result.timings;
  reply.header(
    "Server-Timing",
    `fingerprint;dur=${t.fingerprintMs.toFixed(1)}, lookup;dur=${t.lookupMs.toFixed(1)};desc="${t.rows} rows", match;dur=${t.matchMs.toFixed(1)}, invariant;dur=${t.invariantMs.toFixed(1)};desc="${t.invariantRows} rows", warp;dur=${t.warpMs.toFixed(1)};desc="${t.warpRows} rows"`,
  );
  const ids = [...new Set(result.candidates.map((c) => c.songId))];
  const rows = (await Promise.all(ids.map((id) => songs.visibleRow(id, viewer).catch(() => undefined)))).filter(
    (r) => r !== undefined,
  );
  const hydrated = new Map((await songs.hydrate(rows, viewer)).map((s) => [s.id, s]));
  const withSong = (c: Recognition["candidates"][number]) => {
    const s = hydrated.get(c.songId);
    return s
      ? {
          song: { id: s.id, title: s.title, artists: s.artists },
          aligned: c.aligned,
          confidence: c.confidence,
          offsetSeconds: c.offsetSeconds,
          transform: transformOf(c.warp),
        }
      : undefined;
  };
  const candidates = result.candidates.map(withSong).filter((c) => c !== undefined);
  const found = result.match ? withSong(result.match) : undefined;
  const matched =
    found && result.certainty
      ? {
          ...found,
          certainty: result.certainty,
          runnerUpAligned: result.runnerUpAligned,
          evidence: result.evidence ?? "plain",
        }
      : null;
  return {
    hashes: result.hashes,
    seconds,
    match: matched,
    candidates,
    message: matched ? foundMatchesMessage(candidates.length) : MESSAGES.noMatches,
  };
}

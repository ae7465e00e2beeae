import {
  MESSAGES,
  PLAY_COUNT_WINDOW_MIN,
  type PlayReportResponse,
  type PlayStartResponse,
  playCountAfterSec,
} from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import type { EventBus } from "../../lib/events.js";
import type { Viewer } from "../auth/viewer.js";
import { maySee } from "../songs/visibility.js";
import { createPlayTokens } from "./play-token.js";
import type { PlaysRepo } from "./plays.repo.js";

/** A start token older than this counts nothing: a play is reported within hours of its start, not days. */
export const PLAY_TOKEN_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/**
 * Listening counts (issue 29, decision 027). A start hands out a signed token (nothing is stored); a report with it
 * counts a play when the token is this server's, for this song and listener, old enough to have heard the song's
 * threshold (30 s, or half a shorter song) by the server's clock, and the listener has no counted play of the song
 * in the last hour. The check and the counting run in one transaction serialised per song, so counters equal rows.
 */
export function createPlaysService(deps: {
  database: Database;
  repo: PlaysRepo;
  bus: EventBus;
  /** The app's auth secret: the token and listener keys are derived from it. */
  secret: string;
  /** The rules' clock (ms); tests move it. */
  now?: () => number;
}) {
  const { database, repo, bus } = deps;
  const now = deps.now ?? Date.now;
  const tokens = createPlayTokens(deps.secret);
  const windowMs = PLAY_COUNT_WINDOW_MIN * 60_000;

  /** The song when `viewer` may see it (visibility.ts: otherwise the song page's 404) and it has audio. */
  async function playable(songId: string, viewer: Viewer | undefined) {
    const song = await repo.song(songId);
    if (!song || !maySee(song, viewer)) throw new AppError("not_found", MESSAGES.songNotFound);
    if (!song.audio_key) throw new AppError("not_found", MESSAGES.playNoAudio);
    return song;
  }

  return {
    /** A start token for `listenerKey` ("user:<id>" or "net:<prefix>") on a song the viewer may hear. */
    async start(viewer: Viewer | undefined, listenerKey: string, songId: string): Promise<PlayStartResponse> {
      const song = await playable(songId, viewer);
      const token = tokens.sign({ songId, listener: tokens.listener(listenerKey), startedAt: now() });
      return { token, countAfterSec: playCountAfterSec(song.duration_sec) };
    },

    /** Count the play a start token stands for, when the rules allow; the song's play count either way. */
    async report(
      viewer: Viewer | undefined,
      listenerKey: string,
      songId: string,
      token: string,
    ): Promise<PlayReportResponse> {
      const claim = tokens.verify(token);
      // Not this server's token, or another song's: refused, never silently ignored.
      if (!claim || claim.songId !== songId)
        throw new AppError("validation_failed", MESSAGES.playTokenInvalid, {
          fields: { token: MESSAGES.playTokenInvalid },
        });
      const song = await playable(songId, viewer);
      const listener = tokens.listener(listenerKey);
      const at = now();
      const heardMs = at - claim.startedAt;
      // Another listener's token (signed in or out since the start), too early, or stale: a play that does not count.
      if (
        claim.listener !== listener ||
        heardMs < playCountAfterSec(song.duration_sec) * 1000 ||
        heardMs > PLAY_TOKEN_MAX_AGE_MS
      )
        return { counted: false, playCount: Number(song.play_count) };
      const since = new Date(at - windowMs).toISOString();
      const result = await database.tx(async (trx) => {
        const locked = await repo.lockSong(trx, songId);
        if (!locked) return undefined;
        if (await repo.playedSince(trx, songId, listener, since))
          return { counted: false, playCount: Number(locked.play_count) };
        return { counted: true, playCount: await repo.insert(trx, songId, listener, new Date(at).toISOString()) };
      });
      // Deleted between the look-up and the transaction.
      if (!result) throw new AppError("not_found", MESSAGES.songNotFound);
      if (result.counted) await bus.publish({ type: "song.changed", songId, data: { playCount: result.playCount } });
      return result;
    },
  };
}

/** The plays service type. */
export type PlaysService = ReturnType<typeof createPlaysService>;

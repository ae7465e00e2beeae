import type { PlayReportResponse, PlayStartResponse } from "@unheard/shared";
import { api } from "../../lib/api/api";

/** How long without a real listen between two time updates counts as a jump (a seek), not listening. */
const MAX_TICK_SEC = 2;

/**
 * Listening time of the song being played, reported to the server once it passes the count threshold (30 s, or
 * half of a shorter song): the server gives a signed start when playback begins and checks the time passed when
 * the play is reported, once per listener, song and hour (decision 027). Seeking does not add listening time.
 */
export function createPlayCounter(onCounted: (songId: string, playCount: number) => void) {
  let songId: string | null = null;
  let listened = 0;
  let lastTime: number | null = null;
  let asked = false;
  // The server's signed start for this listen, and when its answer arrived (performance.now()).
  let start: (PlayStartResponse & { receivedAt: number }) | null = null;
  let reported = false;

  return {
    /** A song was loaded: a new listen begins. */
    load(id: string): void {
      songId = id;
      listened = 0;
      lastTime = null;
      asked = false;
      start = null;
      reported = false;
    },
    /** Playback (re)started: ask for the signed start the first time. */
    playing(time: number): void {
      lastTime = time;
      const id = songId;
      if (!id || asked) return;
      asked = true;
      api
        .post<PlayStartResponse>(`/api/songs/${encodeURIComponent(id)}/plays/start`)
        .then((answer) => {
          if (songId === id) start = { ...answer, receivedAt: performance.now() };
        })
        .catch(() => undefined);
    },
    /** A pause or a seek: the next time update starts a new stretch of listening. */
    interrupted(): void {
      lastTime = null;
    },
    /** The play head moved while playing. */
    tick(time: number): void {
      if (lastTime !== null) {
        const delta = time - lastTime;
        if (delta > 0 && delta <= MAX_TICK_SEC) listened += delta;
      }
      lastTime = time;
      const id = songId;
      if (!id || reported || !start) return;
      // The server times the play from when the start reached it, some time before its answer came back: so the
      // report waits until that long has passed since the answer too, or it would arrive early and not count.
      const sinceStart = (performance.now() - start.receivedAt) / 1000;
      if (listened < start.countAfterSec || sinceStart < start.countAfterSec) return;
      reported = true;
      api
        .post<PlayReportResponse>(`/api/songs/${encodeURIComponent(id)}/plays`, { token: start.token })
        .then((res) => onCounted(id, res.playCount))
        .catch(() => undefined);
    },
  };
}

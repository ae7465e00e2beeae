import { api } from "../../lib/api/api";

type StartAnswer = { token: string; countAfterSec: number; receivedAt: number };
type ReportAnswer = { counted: boolean; playCount: number };

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
  let start: Promise<StartAnswer | null> | null = null;
  let reported = false;

  return {
    /** A song was loaded: a new listen begins. */
    load(id: string): void {
      songId = id;
      listened = 0;
      lastTime = null;
      start = null;
      reported = false;
    },
    /** Playback (re)started: ask for the signed start the first time. */
    playing(time: number): void {
      lastTime = time;
      const id = songId;
      if (!id || start) return;
      start = api
        .post<Omit<StartAnswer, "receivedAt">>(`/api/songs/${encodeURIComponent(id)}/plays/start`)
        .then((answer) => ({ ...answer, receivedAt: performance.now() }))
        .catch(() => null);
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
      const pending = start;
      void pending.then((answer) => {
        // The server times the play from when the start reached it, some time before its answer came back: so the
        // report waits until that long has passed since the answer too, or it would arrive early and not count.
        if (!answer || reported || songId !== id) return;
        const sinceStart = (performance.now() - answer.receivedAt) / 1000;
        if (listened < answer.countAfterSec || sinceStart < answer.countAfterSec) return;
        reported = true;
        void api
          .post<ReportAnswer>(`/api/songs/${encodeURIComponent(id)}/plays`, { token: answer.token })
          .then((res) => onCounted(id, res.playCount))
          .catch(() => undefined);
      });
    },
  };
}

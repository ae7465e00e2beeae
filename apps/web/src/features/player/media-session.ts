import { currentItem, next, type PlayerState, playerState, previous, seek, seekBy, togglePlay } from "./player-store";
import { artistLine } from "./queue-model";

const SEEK_STEP_SEC = 10;

/**
 * The lock screen, the OS media controls and headphone buttons (Media Session API): the current song's title,
 * artists and cover, and play, pause, previous, next and seeking from there. Called on every player change.
 */
export function createMediaSession() {
  const session = typeof navigator !== "undefined" && "mediaSession" in navigator ? navigator.mediaSession : null;
  let shownKey: string | null = null;
  let shownPlaying: boolean | null = null;
  let shownDuration = -1;
  let shownPosition = 0;
  let shownAt = 0;

  if (session) {
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => (playerState().playing ? undefined : togglePlay())],
      ["pause", () => (playerState().playing ? togglePlay() : undefined)],
      ["previoustrack", () => previous()],
      ["nexttrack", () => next()],
      ["seekbackward", (d) => seekBy(-(d.seekOffset ?? SEEK_STEP_SEC))],
      ["seekforward", (d) => seekBy(d.seekOffset ?? SEEK_STEP_SEC)],
      ["seekto", (d) => (d.seekTime !== undefined ? seek(d.seekTime) : undefined)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }

  return function update(state: PlayerState): void {
    if (!session) return;
    const item = currentItem();
    if ((item?.key ?? null) !== shownKey) {
      shownKey = item?.key ?? null;
      session.metadata = item
        ? new MediaMetadata({
            title: item.title,
            artist: artistLine(item.artists),
            album: "Unheard",
            artwork: [{ src: new URL(item.coverUrl, location.href).href, sizes: "512x512", type: "image/svg+xml" }],
          })
        : null;
    }
    const playingChanged = state.playing !== shownPlaying;
    if (playingChanged) {
      shownPlaying = state.playing;
      session.playbackState = item ? (state.playing ? "playing" : "paused") : "none";
    }
    // The OS moves the position on by itself while playing: it is set when the length is known, at each play or
    // pause, and after a jump (a seek puts the play head away from where the OS would have it).
    const now = performance.now();
    const expected = shownPosition + (state.playing ? (now - shownAt) / 1000 : 0);
    const jumped = Math.abs(state.currentTime - expected) > 1.5;
    if (item && state.duration > 0 && (state.duration !== shownDuration || playingChanged || jumped)) {
      shownDuration = state.duration;
      shownPosition = Math.min(state.currentTime, state.duration);
      shownAt = now;
      try {
        session.setPositionState({ duration: state.duration, position: shownPosition, playbackRate: 1 });
      } catch {
        // A position past the end while a new song loads: the next update sets it.
      }
    }
  };
}

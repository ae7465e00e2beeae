import { useEffect, useSyncExternalStore } from "react";

/** What the one audio player is doing, as seen by the controls of one song. */
export type Playback = {
  /** The song loaded in the player; a control compares it with its own song. */
  songId: string | null;
  playing: boolean;
  /** Waiting for data (starting or after a seek). */
  loading: boolean;
  currentTime: number;
  /** Seconds; 0 until the file's metadata arrived. */
  duration: number;
  /** The file could not be played. */
  error: boolean;
};

const IDLE: Playback = { songId: null, playing: false, loading: false, currentTime: 0, duration: 0, error: false };

// One <audio> element for the whole app, so starting a song pauses whatever played before.
let audio: HTMLAudioElement | null = null;
let state: Playback = IDLE;
const listeners = new Set<() => void>();
// How many mounted controls show each song: when the last one goes (the page changed), playback stops,
// so nothing keeps playing without a visible pause button.
const mounted = new Map<string, number>();
const RELEASE_GRACE_MS = 400;

function set(patch: Partial<Playback>): void {
  state = { ...state, ...patch };
  for (const fn of listeners) fn();
}

function element(): HTMLAudioElement {
  if (audio) return audio;
  const el = document.createElement("audio");
  el.preload = "metadata";
  el.hidden = true;
  el.dataset.player = "unheard";
  el.addEventListener("play", () => set({ playing: true, error: false }));
  el.addEventListener("playing", () => set({ playing: true, loading: false }));
  el.addEventListener("pause", () => set({ playing: false, loading: false }));
  el.addEventListener("waiting", () => set({ loading: true }));
  el.addEventListener("seeking", () => set({ currentTime: el.currentTime }));
  el.addEventListener("seeked", () => set({ loading: false, currentTime: el.currentTime }));
  el.addEventListener("timeupdate", () => set({ currentTime: el.currentTime }));
  el.addEventListener("loadedmetadata", () => set({ duration: Number.isFinite(el.duration) ? el.duration : 0 }));
  el.addEventListener("durationchange", () => set({ duration: Number.isFinite(el.duration) ? el.duration : 0 }));
  el.addEventListener("ended", () => set({ playing: false, loading: false }));
  el.addEventListener("error", () => {
    // An emptied src (stop) also fires error; only a real media error counts.
    if (el.error && el.getAttribute("src")) set({ error: true, playing: false, loading: false });
  });
  document.body.append(el);
  audio = el;
  return el;
}

function load(songId: string, src: string, durationHint: number): HTMLAudioElement {
  const el = element();
  if (state.songId !== songId) {
    el.pause();
    el.src = src;
    set({ ...IDLE, songId, duration: durationHint });
  }
  return el;
}

function start(el: HTMLAudioElement): void {
  set({ loading: el.readyState < 3 });
  el.play().catch((err: unknown) => {
    // A newer load or pause interrupts play(); that is not a failure.
    if (err instanceof DOMException && err.name === "AbortError") return;
    set({ playing: false, loading: false, error: !(err instanceof DOMException && err.name === "NotAllowedError") });
  });
}

/** Play or pause a song; starting one pauses any other. */
export function togglePlayback(songId: string, src: string, durationHint = 0): void {
  const el = load(songId, src, durationHint);
  if (el.paused) start(el);
  else el.pause();
}

/** Jump to `seconds` in a song (loading it, paused, if another song was loaded). */
export function seekPlayback(songId: string, src: string, seconds: number, durationHint = 0): void {
  const el = load(songId, src, durationHint);
  const max = Number.isFinite(el.duration) && el.duration > 0 ? el.duration : durationHint;
  const to = Math.max(0, max > 0 ? Math.min(seconds, max) : seconds);
  el.currentTime = to;
  set({ currentTime: to });
}

/** Stop a song if it is the one loaded. */
export function stopPlayback(songId: string): void {
  if (audio && state.songId === songId) audio.pause();
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * The player's state for one song's controls (IDLE unless that song is loaded, so other cards do not
 * re-render on every tick). While mounted, the control keeps its song allowed to play.
 */
export function usePlayback(songId: string): Playback {
  useEffect(() => {
    mounted.set(songId, (mounted.get(songId) ?? 0) + 1);
    return () => {
      const left = (mounted.get(songId) ?? 1) - 1;
      if (left > 0) {
        mounted.set(songId, left);
        return;
      }
      mounted.delete(songId);
      // The next page may show the same song (card -> song page): give it a moment to mount.
      window.setTimeout(() => {
        if (!mounted.has(songId)) stopPlayback(songId);
      }, RELEASE_GRACE_MS);
    };
  }, [songId]);
  return useSyncExternalStore(
    subscribe,
    () => (state.songId === songId ? state : IDLE),
    () => IDLE,
  );
}

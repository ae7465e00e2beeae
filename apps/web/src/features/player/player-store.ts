import { MESSAGES, type Song } from "@unheard/shared";
import { useSyncExternalStore } from "react";
import { api } from "../../lib/api/api";
import { toast } from "../../lib/toast";
import { createPlayCounter } from "./play-count";
import {
  EMPTY_QUEUE,
  move,
  nextPlayable,
  parseSaved,
  type Queue,
  type QueueItem,
  type QueueOutcome,
  queueOf,
  queueOnce,
  remove,
  serializeSaved,
} from "./queue-model";

/** Everything the player bar shows: the queue and what the one <audio> element is doing. */
export type PlayerState = {
  queue: Queue;
  playing: boolean;
  /** Waiting for data (starting, after a seek, or while the song's audio is looked up). */
  loading: boolean;
  currentTime: number;
  /** Seconds; the song's known length until the file's metadata arrived. */
  duration: number;
  /** Seconds buffered from the play head on. */
  buffered: number;
  /** The current file could not be played. */
  error: boolean;
  volume: number;
  muted: boolean;
  /** The site's keyboard shortcuts are on (WCAG 2.1.4: single-key shortcuts can be turned off). */
  shortcuts: boolean;
  /** A short line for screen readers: what started, what was skipped. */
  announcement: string;
};

/** What the one player is doing, as seen by the controls of one song (cards, song page). */
export type Playback = {
  songId: string | null;
  playing: boolean;
  loading: boolean;
  currentTime: number;
  duration: number;
  error: boolean;
};

const IDLE: Playback = { songId: null, playing: false, loading: false, currentTime: 0, duration: 0, error: false };

const INITIAL: PlayerState = {
  queue: EMPTY_QUEUE,
  playing: false,
  loading: false,
  currentTime: 0,
  duration: 0,
  buffered: 0,
  error: false,
  volume: 1,
  muted: false,
  shortcuts: true,
  announcement: "",
};

const STORAGE_KEY = "unheard:player";
const SAVE_POSITION_MS = 2000;
/** "Previous" within the first seconds goes to the song before; later it starts this one again. */
const RESTART_AFTER_SEC = 3;

let state: PlayerState = INITIAL;
let playback: Playback = IDLE;
let audio: HTMLAudioElement | null = null;
let restored = false;
// Each load gets a number: an answer (song lookup, metadata) for an older load is ignored.
let loadSeq = 0;
let lastSaved = 0;
// Whether this tab writes the saved player: it does once someone acts in it, and stops when another tab writes, so a
// tab left idle (or just opened) never overwrites the queue another tab is playing when it closes.
let owner = false;

/** Someone acted in this tab: from now on it keeps the saved player. */
function act(): void {
  owner = true;
}
// Where to put the play head once the loaded file's metadata is known (a restored position).
let pendingSeek: number | null = null;
const listeners = new Set<() => void>();
const countedListeners = new Set<(songId: string, playCount: number) => void>();

const counter = createPlayCounter((songId, playCount) => {
  for (const fn of countedListeners) fn(songId, playCount);
});

function current(): QueueItem | undefined {
  return state.queue.items[state.queue.index];
}

function set(patch: Partial<PlayerState>): void {
  state = { ...state, ...patch };
  const item = current();
  const next: Playback = item
    ? {
        songId: item.songId,
        playing: state.playing,
        loading: state.loading,
        currentTime: state.currentTime,
        duration: state.duration,
        error: state.error,
      }
    : IDLE;
  if (
    next.songId !== playback.songId ||
    next.playing !== playback.playing ||
    next.loading !== playback.loading ||
    next.currentTime !== playback.currentTime ||
    next.duration !== playback.duration ||
    next.error !== playback.error
  )
    playback = next;
  for (const fn of listeners) fn();
}

function save(force = false): void {
  if (!owner || typeof localStorage === "undefined") return;
  const now = Date.now();
  if (!force && now - lastSaved < SAVE_POSITION_MS) return;
  lastSaved = now;
  try {
    localStorage.setItem(
      STORAGE_KEY,
      serializeSaved({
        queue: state.queue,
        position: state.currentTime,
        volume: state.volume,
        muted: state.muted,
        shortcuts: state.shortcuts,
      }),
    );
  } catch {
    // Storage full or refused (private mode): the queue lasts for this visit only.
  }
}

function bufferedAhead(el: HTMLAudioElement): number {
  const t = el.currentTime;
  for (let i = 0; i < el.buffered.length; i++) {
    if (el.buffered.start(i) <= t + 0.5 && el.buffered.end(i) >= t) return el.buffered.end(i);
  }
  return 0;
}

function element(): HTMLAudioElement {
  if (audio) return audio;
  const el = document.createElement("audio");
  el.preload = "metadata";
  el.hidden = true;
  el.dataset.player = "unheard";
  el.volume = state.volume;
  el.muted = state.muted;
  el.addEventListener("play", () => set({ playing: true, error: false }));
  el.addEventListener("playing", () => {
    set({ playing: true, loading: false });
    counter.playing(el.currentTime);
  });
  el.addEventListener("pause", () => {
    counter.interrupted();
    set({ playing: false, loading: false, currentTime: el.currentTime });
    save(true);
  });
  el.addEventListener("waiting", () => set({ loading: true }));
  el.addEventListener("seeking", () => {
    counter.interrupted();
    set({ currentTime: el.currentTime });
  });
  el.addEventListener("seeked", () => set({ loading: false, currentTime: el.currentTime }));
  el.addEventListener("timeupdate", () => {
    if (!el.paused) counter.tick(el.currentTime);
    set({ currentTime: el.currentTime, buffered: bufferedAhead(el) });
    save();
  });
  el.addEventListener("progress", () => set({ buffered: bufferedAhead(el) }));
  const onDuration = () => {
    if (Number.isFinite(el.duration) && el.duration > 0) set({ duration: el.duration });
  };
  el.addEventListener("loadedmetadata", () => {
    onDuration();
    if (pendingSeek !== null) {
      el.currentTime = Math.min(pendingSeek, Number.isFinite(el.duration) ? el.duration : pendingSeek);
      pendingSeek = null;
      set({ currentTime: el.currentTime });
    }
  });
  el.addEventListener("durationchange", onDuration);
  el.addEventListener("volumechange", () => {
    set({ volume: el.volume, muted: el.muted });
    save(true);
  });
  el.addEventListener("ended", () => {
    set({ playing: false, loading: false });
    // Moving on by itself: screen readers hear what plays now.
    advance(1, true, [], true);
  });
  el.addEventListener("error", () => {
    // An emptied src (a cleared queue) also fires error; only a real media error counts.
    if (!el.error || !el.getAttribute("src")) return;
    const item = current();
    const wasPlaying = state.playing || state.loading;
    set({ error: true, playing: false, loading: false });
    if (item && wasPlaying) {
      note(`${PLAYBACK_FAILED}: “${item.title}”`);
      advance(1, true);
    }
  });
  document.body.append(el);
  audio = el;
  return el;
}

/** Said when a file exists but the browser could not play it. */
export const PLAYBACK_FAILED = "This preview could not be played";

// The toaster's live region says it to screen readers too.
function note(message: string): void {
  toast.info(message);
}

function skippedNote(skipped: QueueItem[]): void {
  if (skipped.length === 0) return;
  const first = skipped[0]?.title ?? "";
  note(
    skipped.length === 1
      ? `Skipped “${first}”: ${MESSAGES.previewUnavailable.toLowerCase()}`
      : `Skipped ${skipped.length} songs without audio`,
  );
}

/** The current song's audio, asking the server when the list did not know it (a tracker row). */
async function audioOf(item: QueueItem): Promise<QueueItem["audio"]> {
  if (item.audio !== undefined) return item.audio;
  try {
    const song = await api.get<Song>(`/api/songs/${encodeURIComponent(item.songId)}`);
    return song.audio ? { url: song.audio.url, durationSec: song.audio.durationSec } : null;
  } catch {
    return null;
  }
}

function replaceItem(key: string, patch: Partial<QueueItem>): void {
  const items = state.queue.items.map((it) => (it.key === key ? { ...it, ...patch } : it));
  set({ queue: { items, index: state.queue.index } });
}

/** Load the current song and (when asked) play it; a song found to have no audio is skipped. */
async function loadCurrent(autoplay: boolean, startAt = 0, direction: 1 | -1 = 1, announce = false): Promise<void> {
  const item = current();
  const seq = ++loadSeq;
  const el = element();
  if (!item) {
    el.pause();
    el.removeAttribute("src");
    el.load();
    set({ ...INITIAL, volume: state.volume, muted: state.muted, shortcuts: state.shortcuts, queue: state.queue });
    save(true);
    return;
  }
  el.pause();
  set({
    playing: false,
    loading: autoplay,
    currentTime: startAt,
    duration: item.audio?.durationSec ?? 0,
    buffered: 0,
    error: false,
    announcement: announce ? `Now playing “${item.title}”` : state.announcement,
  });
  save(true);
  const found = await audioOf(item);
  if (seq !== loadSeq) return;
  if (found !== item.audio) replaceItem(item.key, { audio: found });
  if (!found) {
    set({ loading: false });
    if (autoplay) advance(direction, true, [item], announce);
    return;
  }
  counter.load(item.songId);
  pendingSeek = startAt > 0 ? startAt : null;
  el.src = found.url;
  set({ duration: found.durationSec });
  if (autoplay) startElement(el);
}

function startElement(el: HTMLAudioElement): void {
  set({ loading: el.readyState < 3, error: false });
  el.play().catch((err: unknown) => {
    // A newer load or a pause interrupts play(); that is not a failure.
    if (err instanceof DOMException && err.name === "AbortError") return;
    // Autoplay refused (no gesture yet, e.g. a lock-screen key after a reload): paused, not broken.
    set({ playing: false, loading: false, error: !(err instanceof DOMException && err.name === "NotAllowedError") });
  });
}

/** Move `direction` from the current song to the next that may play; at the end of the queue, stop there. */
function advance(direction: 1 | -1, autoplay: boolean, skippedBefore: QueueItem[] = [], announce = false): void {
  const { index, skipped } = nextPlayable(state.queue, state.queue.index + direction, direction);
  skippedNote([...skippedBefore, ...skipped]);
  if (index < 0) {
    // Nothing further: stay on the last song, paused at its start, as music players do (Play starts it again).
    if (audio?.ended) audio.currentTime = 0;
    set({ playing: false, loading: false });
    return;
  }
  set({ queue: { items: state.queue.items, index } });
  void loadCurrent(autoplay, 0, direction, announce);
}

/** Start a list at `start` (a card's play button: the rest of its list follows). */
export function playList(items: QueueItem[], start: number, startAt = 0): void {
  act();
  if (items.length === 0) return;
  const q = queueOf(items, start);
  const { index, skipped } = nextPlayable(q, q.index, 1);
  skippedNote(skipped);
  if (index < 0) return;
  set({ queue: { items: q.items, index } });
  void loadCurrent(true, index === q.index ? startAt : 0);
}

/** Play or pause whatever is current. */
export function togglePlay(): void {
  act();
  const item = current();
  if (!item) return;
  const el = element();
  if (!el.getAttribute("src")) {
    // Restored from a reload, or its audio still being looked up: load it first.
    void loadCurrent(true, state.currentTime);
    return;
  }
  if (el.paused) startElement(el);
  else el.pause();
}

/**
 * A song's own play button: pauses or resumes it when it is current; otherwise plays it, with the rest of `list`
 * queued after it when it is given (a card in a list), or just before the rest of the queue (a song page).
 */
export function toggleSong(song: QueueItem, list?: () => QueueItem[]): void {
  act();
  if (current()?.songId === song.songId) {
    togglePlay();
    return;
  }
  playSongAt(song, 0, list);
}

/** Play a song from `seconds` (a song page's seek bar before it played): it becomes current as toggleSong says. */
export function playSongAt(song: QueueItem, seconds: number, list?: () => QueueItem[]): void {
  act();
  if (current()?.songId === song.songId) {
    seek(seconds);
    return;
  }
  const items = list?.();
  const at = items ? items.findIndex((it) => it.songId === song.songId) : -1;
  if (items && at >= 0) {
    playList(items, at, seconds);
    return;
  }
  // Played from its own page: it goes right after the current song (moved there if it waits further on, so the
  // queue holds it once) and plays.
  const { queue } = queueOnce(state.queue, song, "next");
  set({ queue: { items: queue.items, index: state.queue.items.length === 0 ? 0 : queue.index + 1 } });
  void loadCurrent(true, seconds);
}

/**
 * Queue a song after the current one or at the end, once (queueOnce; decision 031); into an empty queue it loads,
 * paused. Says what it did, for the button's message.
 */
function enqueue(item: QueueItem, where: "next" | "end"): QueueOutcome {
  act();
  const wasEmpty = state.queue.items.length === 0;
  const { queue, outcome } = queueOnce(state.queue, item, where);
  if (queue !== state.queue) {
    set({ queue });
    save(true);
  }
  if (wasEmpty) void loadCurrent(false);
  return outcome;
}

/** Queue a song right after the current one (moving it up if it waits further on). */
export const playNext = (item: QueueItem): QueueOutcome => enqueue(item, "next");

/** Queue a song at the end, unless it is waiting in the queue already. */
export const addToQueue = (item: QueueItem): QueueOutcome => enqueue(item, "end");

/** The next song in the queue. */
export function next(): void {
  act();
  if (!current()) return;
  advance(1, true);
}

/** Start the current song again, or (in its first seconds) go to the one before. */
export function previous(): void {
  act();
  if (!current()) return;
  if (state.currentTime > RESTART_AFTER_SEC || state.queue.index === 0) {
    seek(0);
    return;
  }
  advance(-1, true);
}

/** Play the queue's song at `index`. */
export function jumpTo(index: number): void {
  act();
  if (index < 0 || index >= state.queue.items.length) return;
  set({ queue: { items: state.queue.items, index } });
  void loadCurrent(true);
}

/** Reorder the queue. */
export function moveItem(from: number, to: number): void {
  act();
  set({ queue: move(state.queue, from, to) });
  save(true);
}

/** Take a song out of the queue; taking out the current one moves on to the next (playing if it was). */
export function removeItem(at: number): void {
  act();
  const wasCurrent = at === state.queue.index;
  const wasPlaying = state.playing;
  set({ queue: remove(state.queue, at) });
  save(true);
  if (wasCurrent) void loadCurrent(wasPlaying);
}

/** Pause whatever plays (the player bar is leaving the page: nothing plays without a pause button). */
export function pause(): void {
  audio?.pause();
}

/** Empty the queue and stop. */
export function clearQueue(): void {
  act();
  set({ queue: EMPTY_QUEUE });
  void loadCurrent(false);
}

/** Put the play head at `seconds` in the current song. */
export function seek(seconds: number): void {
  act();
  const el = audio;
  const max = state.duration > 0 ? state.duration : Number.POSITIVE_INFINITY;
  const to = Math.max(0, Math.min(seconds, max));
  if (!el?.getAttribute("src")) {
    set({ currentTime: to });
    return;
  }
  el.currentTime = to;
  set({ currentTime: to });
}

/** Move the play head by `delta` seconds. */
export function seekBy(delta: number): void {
  seek(state.currentTime + delta);
}

/** Volume from 0 to 1 (unmutes). */
export function setVolume(volume: number): void {
  act();
  const el = element();
  el.volume = Math.max(0, Math.min(1, volume));
  if (el.volume > 0) el.muted = false;
}

/** Mute or unmute. */
export function toggleMute(): void {
  act();
  const el = element();
  el.muted = !el.muted;
}

/** Turn the site's keyboard shortcuts on or off. */
export function setShortcuts(on: boolean): void {
  act();
  set({ shortcuts: on });
  save(true);
}

/** The player's state now (for event handlers). */
export function playerState(): PlayerState {
  return state;
}

/** The queue's current song. */
export function currentItem(): QueueItem | undefined {
  return current();
}

/** Called with a song's new play count when a play of it was counted. */
export function onPlayCounted(fn: (songId: string, playCount: number) => void): () => void {
  countedListeners.add(fn);
  return () => countedListeners.delete(fn);
}

/**
 * Bring back the queue, position, volume and settings of the last visit (once, in the browser, after hydration):
 * the song is loaded paused at its position, as browsers do not let a page start sound by itself.
 */
export function restorePlayer(): void {
  if (restored || typeof window === "undefined") return;
  restored = true;
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(STORAGE_KEY);
  } catch {
    raw = null;
  }
  const saved = parseSaved(raw);
  const el = element();
  el.volume = saved.volume;
  el.muted = saved.muted;
  set({ queue: saved.queue, volume: saved.volume, muted: saved.muted, shortcuts: saved.shortcuts });
  if (current()) void loadCurrent(false, saved.position);
  // The position is saved every few seconds; a closed tab saves it exactly.
  window.addEventListener("pagehide", () => save(true));
  // Another tab took over the saved player (a tab is not told of its own writes).
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEY) owner = false;
  });
}

/** Call `fn` after every change of the player (the Media Session follows it); returns the unsubscribe. */
export function subscribePlayer(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The whole player (the bar, the queue panel); the empty player while server rendering and hydrating. */
export function usePlayer(): PlayerState {
  return useSyncExternalStore(
    subscribePlayer,
    () => state,
    () => INITIAL,
  );
}

/** The player as one song's controls see it: IDLE unless that song is current (other cards skip the ticks). */
export function usePlayback(songId: string): Playback {
  return useSyncExternalStore(
    subscribePlayer,
    () => (playback.songId === songId ? playback : IDLE),
    () => IDLE,
  );
}

/** Whether the queue has a song (the bar shows); changes only when that does. */
export function useHasQueue(): boolean {
  return useSyncExternalStore(
    subscribePlayer,
    () => state.queue.items.length > 0,
    () => false,
  );
}

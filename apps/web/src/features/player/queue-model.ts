import type { Song, TrackerSong } from "@unheard/shared";

/** A credited artist as the player shows it; `id` is null where a list only knew the name (a tracker's "with"). */
export type QueueArtist = { id: string | null; name: string };

/**
 * One song in the queue: what the player bar, the queue panel and the lock screen show, and its audio.
 * `audio` undefined: not known yet (a tracker row knows only that there is audio); the player asks for the song
 * when it is its turn. null: the song has no audio (it is skipped with a note).
 */
export type QueueItem = {
  /** Unique within the queue (a saved queue from before decision 031 may hold a song twice). */
  key: string;
  songId: string;
  title: string;
  artists: QueueArtist[];
  coverUrl: string;
  audio: { url: string; durationSec: number } | null | undefined;
};

/** The queue and the position in it. `index` is -1 only when the queue is empty. */
export type Queue = { items: QueueItem[]; index: number };

export const EMPTY_QUEUE: Queue = { items: [], index: -1 };

let counter = 0;
function newKey(songId: string): string {
  counter += 1;
  return `${songId}:${Date.now().toString(36)}:${counter}`;
}

/** A song of any list as a queue item. */
export function itemFromSong(song: Song): QueueItem {
  return {
    key: newKey(song.id),
    songId: song.id,
    title: song.title,
    artists: song.artists.map((a) => ({ id: a.id, name: a.name })),
    coverUrl: song.coverUrl,
    audio: song.audio ? { url: song.audio.url, durationSec: song.audio.durationSec } : null,
  };
}

/** A tracker row as a queue item: the page's artist first, then the others credited (names only). */
export function itemFromTrackerSong(song: TrackerSong, artist: { id: string; name: string }): QueueItem {
  return {
    key: newKey(song.id),
    songId: song.id,
    title: song.title,
    artists: [{ id: artist.id, name: artist.name }, ...song.with.map((name) => ({ id: null, name }))],
    coverUrl: song.coverUrl,
    audio: song.hasAudio ? undefined : null,
  };
}

/** Whether an item can be tried: it has audio or may have (not known yet). */
export function mayPlay(item: QueueItem): boolean {
  return item.audio !== null;
}

/** A new queue of `items`, positioned on `start`. */
export function queueOf(items: QueueItem[], start: number): Queue {
  if (items.length === 0) return EMPTY_QUEUE;
  return { items, index: Math.min(Math.max(0, start), items.length - 1) };
}

/** `item` right after the current one (or first, in an empty queue). */
export function insertNext(q: Queue, item: QueueItem): Queue {
  if (q.items.length === 0) return { items: [item], index: 0 };
  const items = [...q.items];
  items.splice(q.index + 1, 0, item);
  return { items, index: q.index };
}

/** `item` at the end. */
export function append(q: Queue, item: QueueItem): Queue {
  if (q.items.length === 0) return { items: [item], index: 0 };
  return { items: [...q.items, item], index: q.index };
}

/**
 * What queueing a song did (issue 38; decision 031): added; moved (it was in the queue, and now sits where asked);
 * already there (waiting in the queue for "Add to queue", or next already for "Play next"); or it is the song
 * playing now.
 */
export type QueueOutcome = "added" | "moved" | "already" | "playing";

/**
 * Queue `item` after the current song (`next`) or at the end (`end`), holding each song once: the queue never
 * gets a second copy of a song (issue 38: "Add to queue" did). A song waiting in the queue stays where it is for
 * "Add to queue" (the person put it there) and moves up for "Play next"; a song played earlier moves to the new
 * place; the song playing now stays as it is.
 */
export function queueOnce(q: Queue, item: QueueItem, where: "next" | "end"): { queue: Queue; outcome: QueueOutcome } {
  const place = where === "next" ? insertNext : append;
  if (q.items[q.index]?.songId === item.songId) return { queue: q, outcome: "playing" };
  const waiting = q.items.findIndex((it, i) => i > q.index && it.songId === item.songId);
  if (waiting >= 0) {
    if (where === "end" || waiting === q.index + 1) return { queue: q, outcome: "already" };
    return { queue: move(q, waiting, q.index + 1), outcome: "moved" };
  }
  const played = q.items.findIndex((it, i) => i < q.index && it.songId === item.songId);
  if (played >= 0) {
    const kept = q.items[played] ?? item;
    return { queue: place(remove(q, played), kept), outcome: "moved" };
  }
  return { queue: place(q, item), outcome: "added" };
}

/** What "Play next" (`next`) or "Add to queue" (`end`) tells the person, and whether the queue changed. */
export function queueMessage(
  title: string,
  where: "next" | "end",
  outcome: QueueOutcome,
): { text: string; changed: boolean } {
  const song = `“${title}”`;
  switch (outcome) {
    case "playing":
      return { text: `${song} is playing now`, changed: false };
    case "already":
      return {
        text: where === "next" ? `${song} already plays next` : `${song} is already in the queue`,
        changed: false,
      };
    case "moved":
      return { text: where === "next" ? `${song} plays next` : `${song} moved to the end of the queue`, changed: true };
    default:
      return { text: where === "next" ? `${song} plays next` : `${song} added to the queue`, changed: true };
  }
}

/** Move the item at `from` to `to`; the current song stays current wherever it goes. */
export function move(q: Queue, from: number, to: number): Queue {
  const n = q.items.length;
  if (from < 0 || from >= n || to < 0 || to >= n || from === to) return q;
  const current = q.items[q.index];
  const items = [...q.items];
  const [moved] = items.splice(from, 1);
  if (!moved) return q;
  items.splice(to, 0, moved);
  return { items, index: current ? items.indexOf(current) : q.index };
}

/**
 * Remove the item at `at`. Removing the current song makes the one after it current (or the one before, at the
 * end); the caller decides whether it plays.
 */
export function remove(q: Queue, at: number): Queue {
  if (at < 0 || at >= q.items.length) return q;
  const items = q.items.filter((_, i) => i !== at);
  if (items.length === 0) return EMPTY_QUEUE;
  const index = at < q.index ? q.index - 1 : at === q.index ? Math.min(at, items.length - 1) : q.index;
  return { items, index };
}

/** The items from `from` on (direction +1) or back (-1) that may play, with the ones passed over for having none. */
export function nextPlayable(q: Queue, from: number, direction: 1 | -1): { index: number; skipped: QueueItem[] } {
  const skipped: QueueItem[] = [];
  for (let i = from; i >= 0 && i < q.items.length; i += direction) {
    const item = q.items[i];
    if (!item) break;
    if (mayPlay(item)) return { index: i, skipped };
    skipped.push(item);
  }
  return { index: -1, skipped };
}

/** What the browser keeps between visits: the queue, the position in the current song, volume and settings. */
export type SavedPlayer = {
  queue: Queue;
  position: number;
  volume: number;
  muted: boolean;
  shortcuts: boolean;
};

const MAX_SAVED_ITEMS = 500;

function isItem(v: unknown): v is QueueItem {
  if (!v || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  const audio = o.audio as Record<string, unknown> | null | undefined;
  return (
    typeof o.key === "string" &&
    typeof o.songId === "string" &&
    typeof o.title === "string" &&
    typeof o.coverUrl === "string" &&
    Array.isArray(o.artists) &&
    o.artists.every(
      (a: unknown) =>
        !!a &&
        typeof (a as QueueArtist).name === "string" &&
        ((a as QueueArtist).id === null || typeof (a as QueueArtist).id === "string"),
    ) &&
    (audio === null ||
      audio === undefined ||
      (typeof audio.url === "string" && audio.url.startsWith("/api/") && typeof audio.durationSec === "number"))
  );
}

/** The saved state read back; anything malformed (another version, an edited value) gives the defaults. */
export function parseSaved(raw: string | null): SavedPlayer {
  const defaults: SavedPlayer = { queue: EMPTY_QUEUE, position: 0, volume: 1, muted: false, shortcuts: true };
  if (!raw) return defaults;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return defaults;
  }
  if (!v || typeof v !== "object") return defaults;
  const o = v as Record<string, unknown>;
  const items = Array.isArray(o.items) ? o.items.filter(isItem).slice(0, MAX_SAVED_ITEMS) : [];
  const index = typeof o.index === "number" && Number.isInteger(o.index) ? o.index : 0;
  const num = (x: unknown, min: number, max: number, fallback: number) =>
    typeof x === "number" && Number.isFinite(x) ? Math.min(max, Math.max(min, x)) : fallback;
  return {
    queue: items.length > 0 ? queueOf(items, index) : EMPTY_QUEUE,
    position: num(o.position, 0, 24 * 3600, 0),
    volume: num(o.volume, 0, 1, 1),
    muted: o.muted === true,
    shortcuts: o.shortcuts !== false,
  };
}

/** The state to keep, as text. */
export function serializeSaved(s: SavedPlayer): string {
  return JSON.stringify({
    items: s.queue.items.slice(0, MAX_SAVED_ITEMS),
    index: s.queue.index,
    position: Math.round(s.position * 10) / 10,
    volume: s.volume,
    muted: s.muted,
    shortcuts: s.shortcuts,
  });
}

/** "A, B and C": the artists as one line (lock screen, labels). */
export function artistLine(artists: QueueArtist[]): string {
  const names = artists.map((a) => a.name);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

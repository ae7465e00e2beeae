import type { Song } from "@unheard/shared";
import { type AppEvent, countsOnly } from "./events.js";

/**
 * Songs as visitors see them, by id, kept for a few seconds (issue 26): a search page's cards are mostly the
 * popular songs every other search also shows, so reading them once per TTL instead of once per query takes the
 * database out of most searches. Freshness is the public cache's: the same TTL, and the same events drop it
 * (`invalidateCards`).
 */
export function createCardCache(opts: { ttlMs: number; maxEntries: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  type Entry = { song: Song; expiresAt: number };
  // Two generations instead of evicting the oldest one by one: a Map's first key is found by skipping the holes
  // earlier deletes left, which cost 4% of a search under load; a full young map becomes the old one, whole.
  let young = new Map<string, Entry>();
  let old = new Map<string, Entry>();
  const half = Math.max(1, Math.ceil(opts.maxEntries / 2));
  const lookup = (id: string) => young.get(id) ?? old.get(id);
  // Bumped by every drop: cards read before a change must not be stored after it.
  let generation = 0;

  return {
    /** The cards of `ids` in their order, reading the ones not kept (or expired) through `load`. */
    async through(ids: string[], load: (missing: string[]) => Promise<Song[]>): Promise<Song[]> {
      const at = now();
      const found = new Map<string, Song>();
      const missing: string[] = [];
      for (const id of ids) {
        const hit = lookup(id);
        if (hit && hit.expiresAt > at) found.set(id, hit.song);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const started = generation;
        const loaded = await load(missing);
        const fresh = started === generation;
        for (const song of loaded) {
          found.set(song.id, song);
          if (!fresh) continue;
          if (young.size >= half) {
            old = young;
            young = new Map();
          }
          young.set(song.id, { song, expiresAt: now() + opts.ttlMs });
        }
      }
      return ids.flatMap((id) => found.get(id) ?? []);
    },
    /** Drop one song's card. */
    forget(id: string): void {
      generation++;
      young.delete(id);
      old.delete(id);
    },
    /** Drop every card. */
    clear(): void {
      generation++;
      young = new Map();
      old = new Map();
    },
    /** Cards kept (a card read again may count twice until its older copy ages out). */
    get size(): number {
      return young.size + old.size;
    },
  };
}

/** The card cache type. */
export type CardCache = ReturnType<typeof createCardCache>;

/**
 * What an event does to the kept cards: a favourite or play count drops its song's card; any other song change (its
 * versions, credits and links reach other cards) or an artist's new name or badge drops them all.
 */
export function invalidateCards(cache: CardCache, event: AppEvent): void {
  if (event.type === "artist.changed") cache.clear();
  else if (event.type === "song.changed") {
    if (countsOnly(event.data)) cache.forget(event.songId);
    else cache.clear();
  }
}

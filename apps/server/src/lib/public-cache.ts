import { createHash } from "node:crypto";
import { BoundedCache } from "transitory";
import { type AppEvent, countsOnly } from "./events.js";

/** A serialised answer and its validator. */
export type CachedBody = { body: string; etag: string };

/** An answer as visitors get it: the value (members' answers start from it), its bytes and its ETag. */
export type Cached<T> = CachedBody & { value: T };

/** A weak ETag from the bytes of a serialised answer. */
export function etagOf(body: string): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
}

/** The key of a song page in the cache (songs.routes.ts), so a change to one song can drop just that page. */
export const songCacheKey = (songId: string): string => `song:${songId}`;

/**
 * What a song event does to visitors' cached answers: a favourite or play count alone drops only that song's page
 * (feeds keep the old count for at most the TTL); any other change drops everything. Clearing everything on each
 * toggle let one member toggling 90 times a second empty the cache as fast: visitors' feed median 4 ms -> 20 ms.
 */
export function invalidateFor(cache: PublicCache, event: AppEvent): void {
  if (event.type !== "song.changed") return;
  if (countsOnly(event.data)) cache.forget(songCacheKey(event.songId));
  else cache.clear();
}

/** How much memory a stored answer holds, roughly, in bytes (the cache's bound counts these). */
export type SizeOf = (value: unknown, body: string) => number;

/**
 * A parsed answer takes about twice its JSON in the heap (objects, property names, numbers boxed), beside the JSON
 * string itself kept for sending.
 */
const jsonAnswerSize: SizeOf = (_value, body) => body.length * 3;

type Entry = Cached<unknown> & { expiresAt: number; bytes: number };

/**
 * Answers that are the same for every visitor (feeds, song pages, searches, rendered pages), kept for a few
 * seconds. The owner clears it on the events that change songs (`invalidateFor`), so the TTL only bounds what no
 * event announces (a release date passing, an artist renamed, a favourite count in a feed). Misses for one key
 * share one computation.
 *
 * Bounded in bytes (`maxBytes`, each answer weighed by `sizeOf`), and what stays is chosen by W-TinyLFU (the
 * `transitory` package; decision 026, issue 38): a new answer enters a small window, and takes a place in the main
 * part only from an answer used less often, by a frequency sketch that outlives the entries (and `clear`). A scan
 * of one-off URLs churns the window and leaves the pages people keep asking for in place; first in, first out let
 * one address flush a fresh home page in under 5 s.
 */
export function createPublicCache(opts: {
  ttlMs: number;
  maxBytes: number;
  sizeOf?: SizeOf;
  /** How long an answer past its TTL is kept for `lastKnown` (0: dropped when found expired). */
  keepStaleMs?: number;
  now?: () => number;
}) {
  const now = opts.now ?? Date.now;
  const sizeOf = opts.sizeOf ?? jsonAnswerSize;
  const keepStaleMs = opts.keepStaleMs ?? 0;
  const entries = new BoundedCache<string, Entry>({
    maxSize: opts.maxBytes,
    weigher: (key, entry) => key.length + entry.bytes,
  });
  // The library evicts in a maintenance pass it otherwise schedules on a 5 s timer that would hold the process
  // open at shutdown: run it at once after each change, which also keeps the cache within its bound at all times.
  const settle = () => entries.cleanUp();
  const inFlight = new Map<string, Promise<Cached<unknown>>>();
  // Bumped by clear(): a computation that started before a change must not store its stale answer.
  let generation = 0;

  /** The stored entry of `key` (counted as a use) while it may still serve; dropped once past that. */
  const lookup = (key: string): Entry | undefined => {
    const hit = entries.getIfPresent(key);
    if (!hit) return undefined;
    if (hit.expiresAt + keepStaleMs <= now()) {
      entries.delete(key);
      settle();
      return undefined;
    }
    return hit;
  };

  return {
    /** The cached answer for `key`, or `produce()`'s (serialised once), stored for the TTL. */
    async through<T>(key: string, produce: () => Promise<T>, serialize: (value: T) => string): Promise<Cached<T>> {
      const hit = lookup(key);
      if (hit && hit.expiresAt > now()) return hit as Cached<T>;
      const pending = inFlight.get(key) as Promise<Cached<T>> | undefined;
      if (pending) return pending;
      const started = generation;
      const work = produce()
        .then((value) => {
          const body = serialize(value);
          const cached = { value, body, etag: etagOf(body) };
          // Not after clear(), nor after forget(key) dropped this computation (inFlight then holds another or none).
          if (started === generation && inFlight.get(key) === work) {
            entries.set(key, { ...cached, expiresAt: now() + opts.ttlMs, bytes: sizeOf(value, body) });
            settle();
          }
          return cached;
        })
        .finally(() => {
          if (inFlight.get(key) === work) inFlight.delete(key);
        });
      inFlight.set(key, work as Promise<Cached<unknown>>);
      return work;
    },
    /** The stored answer for `key` while it is fresh; nothing is computed. */
    peek<T>(key: string): Cached<T> | undefined {
      const hit = lookup(key);
      return hit && hit.expiresAt > now() ? (hit as Cached<T>) : undefined;
    },
    /**
     * The answer last stored for `key`, fresh or expired less than `keepStaleMs` ago, for when computing it again
     * must wait: no event has changed it since (events drop answers), only its TTL has run out.
     */
    lastKnown<T>(key: string): Cached<T> | undefined {
      return lookup(key) as Cached<T> | undefined;
    },
    /** Forget everything: something visitors see has changed. */
    clear(): void {
      generation++;
      entries.clear();
      inFlight.clear();
    },
    /** Forget one answer: only it has changed. */
    forget(key: string): void {
      entries.delete(key);
      settle();
      inFlight.delete(key);
    },
    /** Answers stored (fresh or expired, until evicted). */
    get size(): number {
      return entries.size;
    },
    /** What the stored answers weigh, in bytes as `sizeOf` counts them (at most `maxBytes`). */
    get bytes(): number {
      return entries.weightedSize;
    },
  };
}

/** The public cache type. */
export type PublicCache = ReturnType<typeof createPublicCache>;

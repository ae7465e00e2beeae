import { createHash } from "node:crypto";

/** A serialised answer and its validator. */
export type CachedBody = { body: string; etag: string };

/** A weak ETag from the bytes of a serialised answer. */
export function etagOf(body: string): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
}

/**
 * Serialised answers that are the same for every visitor (feeds, song pages, searches), kept for a few
 * seconds. The owner clears it on the events that change songs, so the TTL only bounds what no event
 * announces (a release date passing, an artist renamed). Misses for one key share one computation.
 */
export function createPublicCache(opts: { ttlMs: number; maxEntries: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, CachedBody & { expiresAt: number }>();
  const inFlight = new Map<string, Promise<CachedBody>>();
  // Bumped by clear(): a computation that started before a change must not store its stale answer.
  let generation = 0;

  return {
    /** The cached answer for `key`, or `produce()`'s, stored for the TTL. */
    async through(key: string, produce: () => Promise<string>): Promise<CachedBody> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const started = generation;
      const work = produce()
        .then((body) => {
          const value = { body, etag: etagOf(body) };
          if (started === generation) {
            if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
            entries.set(key, { ...value, expiresAt: now() + opts.ttlMs });
          }
          return value;
        })
        .finally(() => {
          if (inFlight.get(key) === work) inFlight.delete(key);
        });
      inFlight.set(key, work);
      return work;
    },
    /** Forget everything: something visitors see has changed. */
    clear(): void {
      generation++;
      entries.clear();
      inFlight.clear();
    },
    get size(): number {
      return entries.size;
    },
  };
}

/** The public cache type. */
export type PublicCache = ReturnType<typeof createPublicCache>;

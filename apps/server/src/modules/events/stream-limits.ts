import { MESSAGES } from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import { clientKey } from "../../lib/rate-limit.js";

/** Streams one client address and one member may hold open at once on an instance (0 = no cap). */
export type StreamLimits = { perAddress: number; perUser: number };

/**
 * Live event streams held open on this instance, counted per client address and per member. Each stream costs a
 * socket and a write per event: 5,000 streams from one address made every favourite toggle ten times slower.
 */
export function createStreamLimits(limits: StreamLimits) {
  const counts = new Map<string, number>();
  return {
    /**
     * Count a new stream of `req` (and of `userId`), or refuse it with a 429 when its address or member is at the
     * cap. Synchronous, so parallel opens cannot both pass; call the returned release once when the stream ends.
     */
    open(req: FastifyRequest, userId: string | undefined): () => void {
      const keys = [
        { key: `address:${clientKey(req.ip)}`, cap: limits.perAddress },
        ...(userId ? [{ key: `user:${userId}`, cap: limits.perUser }] : []),
      ];
      if (keys.some(({ key, cap }) => cap > 0 && (counts.get(key) ?? 0) >= cap)) {
        throw new AppError("rate_limited", MESSAGES.tooManyStreams, { headers: { "retry-after": "30" } });
      }
      for (const { key } of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const { key } of keys) {
          const n = (counts.get(key) ?? 1) - 1;
          if (n > 0) counts.set(key, n);
          else counts.delete(key);
        }
      };
    },
  };
}

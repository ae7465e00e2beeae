import { isIP } from "node:net";
import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import { AppError } from "../errors.js";
import { ipPrefix } from "./client-origin.js";

/** A window limit: at most `limit` hits per `windowSec` for one key. */
export type Limit = { name: string; limit: number; windowSec: number };

/**
 * Counts hits in the database so every server instance shares the same limits.
 * A key's window starts at its first hit, not at a wall-clock boundary: a fixed
 * clock window would let a burst straddling the boundary through at twice the limit.
 * Throws AppError('rate_limited') with Retry-After when a key is over its limit.
 */
export function createRateLimiter(database: Database, now: () => number = Date.now) {
  const { db } = database;
  let lastSweep = 0;
  return {
    async hit(rule: Limit, subject: string): Promise<void> {
      const nowSec = Math.floor(now() / 1000);
      const fresh = nowSec + rule.windowSec;
      const expired = sql<boolean>`rate_limit.expires_at <= ${nowSec}`;
      const row = await db
        .insertInto("rate_limit")
        .values({ key: `${rule.name}:${subject}`, count: 1, expires_at: fresh })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            count: sql`case when ${expired} then 1 else rate_limit.count + 1 end`,
            expires_at: sql`case when ${expired} then ${fresh} else rate_limit.expires_at end`,
          }),
        )
        .returning(["count", "expires_at"])
        .executeTakeFirstOrThrow();
      if (nowSec - lastSweep > 60) {
        lastSweep = nowSec;
        await db.deleteFrom("rate_limit").where("expires_at", "<=", nowSec).execute();
      }
      if (Number(row.count) > rule.limit) {
        throw new AppError("rate_limited", MESSAGES.tooManyRequests, {
          headers: { "retry-after": String(Math.max(1, Number(row.expires_at) - nowSec)) },
        });
      }
    },
  };
}

/** The limiter type handed to services. */
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The subject a client address is limited under: an IPv4 address as it is, an IPv6 address by its /64.
 * One subscriber usually holds a whole /64, so counting single IPv6 addresses would let them rotate freely.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIP(ip.split("%")[0] ?? "") === 6) return ipPrefix(ip) ?? ip;
  return ip;
}

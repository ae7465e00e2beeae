import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import { AppError } from "../errors.js";

/** A fixed-window limit: at most `limit` hits per `windowSec` for one key. */
export type Limit = { name: string; limit: number; windowSec: number };

/**
 * Counts hits in the database so every server instance shares the same limits.
 * Throws AppError('rate_limited') with Retry-After when a key is over its limit.
 */
export function createRateLimiter(database: Database) {
  const { db } = database;
  let lastSweep = 0;
  return {
    async hit(rule: Limit, subject: string): Promise<void> {
      const nowSec = Math.floor(Date.now() / 1000);
      const windowStart = nowSec - (nowSec % rule.windowSec);
      const expiresAt = windowStart + rule.windowSec;
      const key = `${rule.name}:${subject}:${windowStart}`;
      const row = await db
        .insertInto("rate_limit")
        .values({ key, count: 1, expires_at: expiresAt })
        .onConflict((oc) => oc.column("key").doUpdateSet({ count: sql`rate_limit.count + 1` }))
        .returning("count")
        .executeTakeFirstOrThrow();
      if (nowSec - lastSweep > 60) {
        lastSweep = nowSec;
        await db.deleteFrom("rate_limit").where("expires_at", "<", nowSec).execute();
      }
      if (Number(row.count) > rule.limit) {
        throw new AppError("rate_limited", MESSAGES.tooManyRequests, {
          headers: { "retry-after": String(Math.max(1, expiresAt - nowSec)) },
        });
      }
    },
  };
}

/** The limiter type handed to services. */
export type RateLimiter = ReturnType<typeof createRateLimiter>;

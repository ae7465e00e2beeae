import { isIP } from "node:net";
import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import { AppError } from "../errors.js";
import { ipPrefix } from "./client-origin.js";

/** A window limit: at most `limit` hits per `windowSec` for one key; `message` says so (a generic one if absent). */
export type Limit = { name: string; limit: number; windowSec: number; message?: string };

/**
 * Counts hits in the database so every server instance shares the same limits.
 * A key's window starts at its first hit, not at a wall-clock boundary: a fixed
 * clock window would let a burst straddling the boundary through at twice the limit.
 * `hit` throws AppError('rate_limited') with Retry-After when a key is over its limit; `record`, `peek` and
 * `reset` let a flow count failures only and weigh them itself (login, decision 004).
 */
export function createRateLimiter(database: Database, now: () => number = Date.now) {
  const { db } = database;
  let lastSweep = 0;
  const keyOf = (rule: Limit, subject: string) => `${rule.name}:${subject}`;
  /** The refusal of a key over its limit, with when its window ends. */
  const refusal = (rule: Limit, expiresAt: number, nowSec: number) =>
    new AppError("rate_limited", rule.message ?? MESSAGES.tooManyRequests, {
      headers: { "retry-after": String(Math.max(1, expiresAt - nowSec)) },
    });

  /** Count one hit on the key (atomically: one upsert); its count in this window and when the window ends. */
  async function count(rule: Limit, subject: string): Promise<{ count: number; expiresAt: number; nowSec: number }> {
    const nowSec = Math.floor(now() / 1000);
    const fresh = nowSec + rule.windowSec;
    const expired = sql<boolean>`rate_limit.expires_at <= ${nowSec}`;
    const row = await db
      .insertInto("rate_limit")
      .values({ key: keyOf(rule, subject), count: 1, expires_at: fresh })
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
    return { count: Number(row.count), expiresAt: Number(row.expires_at), nowSec };
  }

  return {
    /** Count one hit; throws AppError('rate_limited') with Retry-After past the limit. Returns the count so far. */
    async hit(rule: Limit, subject: string): Promise<number> {
      const c = await count(rule, subject);
      if (c.count > rule.limit) throw refusal(rule, c.expiresAt, c.nowSec);
      return c.count;
    },

    /** Count one event without refusing anything (a failure to weigh later); the count so far. */
    async record(rule: Limit, subject: string): Promise<number> {
      return (await count(rule, subject)).count;
    },

    /** The key's count in its current window, counting nothing; 0 once the window has run out. */
    async peek(rule: Limit, subject: string): Promise<number> {
      const nowSec = Math.floor(now() / 1000);
      const row = await db
        .selectFrom("rate_limit")
        .select(["count", "expires_at"])
        .where("key", "=", keyOf(rule, subject))
        .executeTakeFirst();
      return row && Number(row.expires_at) > nowSec ? Number(row.count) : 0;
    },

    /** Refuse like `hit` would, for a rule whose count another step keeps (Retry-After from that key's window). */
    async refuse(rule: Limit, subject: string): Promise<never> {
      const nowSec = Math.floor(now() / 1000);
      const row = await db
        .selectFrom("rate_limit")
        .select("expires_at")
        .where("key", "=", keyOf(rule, subject))
        .executeTakeFirst();
      throw refusal(rule, row ? Number(row.expires_at) : nowSec + rule.windowSec, nowSec);
    },

    /** Start the key's count again (a success that clears earlier failures). */
    async reset(rule: Limit, subject: string): Promise<void> {
      await db.deleteFrom("rate_limit").where("key", "=", keyOf(rule, subject)).execute();
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

import { EventEmitter } from "node:events";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import pg from "pg";
import type { Database } from "../db/database.js";

/**
 * A small change notice: what changed, and for whom. Payloads stay small (ids and counts) because
 * PostgreSQL NOTIFY carries at most 8 kB; listeners read anything bigger from the database.
 */
export type AppEvent =
  | { type: "me.changed"; userId: string }
  | { type: "song.changed"; songId: string; data: Record<string, unknown> }
  /** An artist's name, badge or credits changed (merge, claim, verification): search reads it again. */
  | { type: "artist.changed"; artistId: string }
  | { type: "notification"; userIds: string[] };

/** Song event fields that are the song's own counts: a like or a counted play (decision 027) changes nothing else. */
const COUNT_FIELDS = new Set(["favoriteCount", "playCount"]);

/** Whether a song event's data is counts alone, so caches drop only that song's copies instead of everything. */
export function countsOnly(data: Record<string, unknown>): boolean {
  const keys = Object.keys(data);
  return keys.length > 0 && keys.every((k) => COUNT_FIELDS.has(k));
}

/** Publishes events to every server instance and lets each subscribe. */
export type EventBus = {
  publish(event: AppEvent): Promise<void>;
  subscribe(fn: (event: AppEvent) => void): () => void;
  close(): Promise<void>;
};

const CHANNEL = "unheard_events";

/** In-process bus on SQLite (one instance); LISTEN/NOTIFY on PostgreSQL so events cross instances. */
export async function createEventBus(
  database: Database,
  opts: { url?: string; log: FastifyBaseLogger },
): Promise<EventBus> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const deliver = (event: AppEvent) => emitter.emit("event", event);
  const subscribe = (fn: (event: AppEvent) => void) => {
    emitter.on("event", fn);
    return () => emitter.off("event", fn);
  };

  if (database.dialect !== "postgres" || !opts.url) {
    return {
      publish: async (event) => {
        deliver(event);
      },
      subscribe,
      close: async () => {
        emitter.removeAllListeners();
      },
    };
  }

  const url = opts.url;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        deliver(JSON.parse(msg.payload) as AppEvent);
      } catch (err) {
        opts.log.warn({ err }, "bad event payload");
      }
    });
    // A dropped listener connection reconnects; events sent meanwhile are lost, pages refetch on reconnect.
    c.on("error", (err) => {
      opts.log.warn({ err }, "event listener connection lost");
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`listen ${CHANNEL}`);
    client = c;
  };
  await connect();
  return {
    publish: async (event) => {
      await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`.execute(database.db);
    },
    subscribe,
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      emitter.removeAllListeners();
      await client?.end().catch(() => {});
    },
  };
}

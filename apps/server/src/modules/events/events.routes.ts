import type { ServerResponse } from "node:http";
import type { App } from "../../http.js";
import type { AppEvent, EventBus } from "../../lib/events.js";
import type { ViewerResolver } from "../auth/viewer.js";
import { maySee, type SongVisibility } from "../songs/visibility.js";
import type { UsersService } from "../users/users.service.js";
import { createStreamLimits, type StreamLimits } from "./stream-limits.js";

type SongEvent = Extract<AppEvent, { type: "song.changed" }>;

/** What a deleted song's event says about who could see it (its row is gone). */
function deletedFacts(event: SongEvent): SongVisibility | undefined {
  const { deleted, status, isHidden } = event.data;
  if (deleted !== true || typeof status !== "string") return undefined;
  return { status, is_hidden: isHidden === true, submitted_by: null };
}

const HEARTBEAT_MS = 25_000;
/** A client that does not take the stream's last bytes within this long is cut off, so shutdown never waits on it. */
const END_GRACE_MS = 1000;

/** End an event stream and let its connection go: no keep-alive reuse, and no waiting on a client that stalls. */
function endStream(res: ServerResponse): void {
  const socket = res.socket;
  const cutOff = setTimeout(() => socket?.destroy(), END_GRACE_MS);
  cutOff.unref();
  res.end(() => {
    clearTimeout(cutOff);
    socket?.destroy();
  });
}

/**
 * GET /api/events: a Server-Sent Events stream of changes the viewer may see. An event about a song goes only to
 * streams whose viewer may see that song now (songs/visibility.ts): visitors hear nothing of pending or hidden
 * songs (new uploads, their tallies, hides), members nothing of hidden ones.
 */
export function eventsRoutes(
  app: App,
  deps: {
    bus: EventBus;
    viewers: ViewerResolver;
    usersService: UsersService;
    unread: (userId: string) => Promise<number>;
    /** Streams one client address and one member may hold open at once (stream-limits.ts). */
    limits: StreamLimits;
    /** Who may see a song, read now (undefined once it is gone). */
    songVisibility: (songId: string) => Promise<SongVisibility | undefined>;
  },
) {
  const { bus, viewers, usersService, unread } = deps;
  const open = new Set<ServerResponse>();
  let closing = false;
  const streams = createStreamLimits(deps.limits);
  // One look-up per song event, shared by every open stream (each listener is handed the same event object).
  const facts = new WeakMap<SongEvent, Promise<SongVisibility | undefined>>();
  const songFacts = (event: SongEvent): Promise<SongVisibility | undefined> => {
    let found = facts.get(event);
    if (!found) {
      found = deps.songVisibility(event.songId).then(
        (row) => row ?? deletedFacts(event),
        (err: unknown) => {
          app.log.warn({ err }, "could not read a song for its event");
          return undefined;
        },
      );
      facts.set(event, found);
    }
    return found;
  };

  // Streams never finish on their own; end them so shutdown does not wait forever (browsers reconnect, to
  // another instance behind a load balancer).
  app.addHook("preClose", async () => {
    closing = true;
    for (const res of open) endStream(res);
    open.clear();
  });

  app.get("/api/events", { schema: { tags: ["events"], hide: false } }, async (req, reply) => {
    const viewer = await viewers.viewer(req);
    const userId = viewer?.id;
    // Counted (or refused with a 429) before the answer starts, with no await until the close handler releases it.
    const release = closing ? () => {} : streams.open(req, userId);
    reply.hijack();
    const res = reply.raw;
    // Shutdown began while the session was looked up: this stream would open after the others were ended
    // and hold the process, so it gets the answer a closing server gives.
    if (closing) {
      res.writeHead(503, { "content-type": "application/json", connection: "close", "retry-after": "1" });
      res.end(JSON.stringify({ error: { code: "unavailable", message: "The server is restarting" } }));
      return;
    }
    // The client left while its session was looked up: its close event has passed and would never release it.
    if (req.raw.socket?.destroyed) {
      release();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    open.add(res);
    const send = (event: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    res.write(": connected\n\n");
    send("ready", { signedIn: Boolean(userId) });

    // Song events wait for their look-up in order, so a stream never gets an older count after a newer one.
    let songQueue = Promise.resolve();
    const unsubscribe = bus.subscribe((event) => {
      switch (event.type) {
        case "me.changed":
          if (event.userId !== userId) return;
          usersService.me(event.userId).then(
            (me) => send("me", me),
            (err) => req.log.warn({ err }, "could not load profile for event"),
          );
          return;
        case "notification":
          if (!userId || !event.userIds.includes(userId)) return;
          unread(userId).then(
            (count) => send("notification", { unread: count }),
            (err) => req.log.warn({ err }, "could not count notifications"),
          );
          return;
        case "song.changed":
          // Admins may see every song: no look-up.
          if (viewer?.isAdmin) {
            send("song", { id: event.songId, ...event.data });
            return;
          }
          songQueue = songQueue.then(async () => {
            const song = await songFacts(event);
            if (song && maySee(song, viewer)) send("song", { id: event.songId, ...event.data });
          });
          return;
      }
    });
    const heartbeat = setInterval(() => {
      if (!res.writableEnded) res.write(": ping\n\n");
    }, HEARTBEAT_MS);
    req.raw.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
      release();
    });
  });
}

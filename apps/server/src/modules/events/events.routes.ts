import type { ServerResponse } from "node:http";
import type { App } from "../../http.js";
import { webHeaders } from "../../http.js";
import type { EventBus } from "../../lib/events.js";
import type { AuthService } from "../auth/auth.service.js";
import type { UsersService } from "../users/users.service.js";

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

/** GET /api/events: a Server-Sent Events stream of changes the viewer may see. */
export function eventsRoutes(
  app: App,
  deps: {
    bus: EventBus;
    authService: AuthService;
    usersService: UsersService;
    unread: (userId: string) => Promise<number>;
  },
) {
  const { bus, authService, usersService, unread } = deps;
  const open = new Set<ServerResponse>();
  let closing = false;

  // Streams never finish on their own; end them so shutdown does not wait forever (browsers reconnect, to
  // another instance behind a load balancer).
  app.addHook("preClose", async () => {
    closing = true;
    for (const res of open) endStream(res);
    open.clear();
  });

  app.get("/api/events", { schema: { tags: ["events"], hide: false } }, async (req, reply) => {
    const userId = await authService.sessionUserId(webHeaders(req));
    reply.hijack();
    const res = reply.raw;
    // Shutdown began while the session was looked up: this stream would open after the others were ended
    // and hold the process, so it gets the answer a closing server gives.
    if (closing) {
      res.writeHead(503, { "content-type": "application/json", connection: "close", "retry-after": "1" });
      res.end(JSON.stringify({ error: { code: "unavailable", message: "The server is restarting" } }));
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
          send("song", { id: event.songId, ...event.data });
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
    });
  });
}

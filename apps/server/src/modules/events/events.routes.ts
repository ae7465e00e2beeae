import type { ServerResponse } from "node:http";
import type { App } from "../../http.js";
import { webHeaders } from "../../http.js";
import type { EventBus } from "../../lib/events.js";
import type { AuthService } from "../auth/auth.service.js";
import type { UsersService } from "../users/users.service.js";

const HEARTBEAT_MS = 25_000;

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

  // Streams never finish on their own; end them so shutdown does not wait forever.
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
    open.clear();
  });

  app.get("/api/events", { schema: { tags: ["events"], hide: false } }, async (req, reply) => {
    const userId = await authService.sessionUserId(webHeaders(req));
    reply.hijack();
    const res = reply.raw;
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

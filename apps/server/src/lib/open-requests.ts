import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";

/** What a shutdown is still waiting for: the requests being answered, by method, URL and age. */
export type OpenRequests = { describe(): string[] };

/**
 * Bound how long closing `app` waits for requests already being answered. Its preClose hook runs after the ones
 * registered before it (event streams, imports, jobs), so call this last; `graceMs` after that, connections with
 * a request still open are cut off (the client gets no answer, so it knows to retry) and named in a warning. A
 * shutdown then never hangs on a client that keeps a request open.
 */
export function boundOpenRequests(app: FastifyInstance, graceMs: number): OpenRequests {
  const open = new Map<ServerResponse, { label: string; since: number }>();
  let closing = false;
  app.server.on("request", (req, res) => {
    open.set(res, { label: `${req.method} ${req.url}`, since: performance.now() });
    // "close" comes once the answer is sent or the connection is gone, whichever is first.
    res.once("close", () => {
      open.delete(res);
      // A keep-alive connection whose answer ends after close() began would otherwise stay open, idle, for the
      // keep-alive timeout (72 s) and hold the server; Node counts it idle once this tick is over.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
  });
  const describe = () =>
    [...open.values()].map((r) => `${r.label} (${((performance.now() - r.since) / 1000).toFixed(1)} s)`);

  app.addHook("preClose", async () => {
    closing = true;
    // Cleared once the server has closed; firing means some connection still holds it (a request being answered,
    // or one whose headers never finished arriving, which no "request" event has named).
    const timer = setTimeout(() => {
      app.log.warn(
        { requests: describe(), graceMs },
        "connections were still open when the shutdown grace ran out; closing them",
      );
      app.server.closeAllConnections();
    }, graceMs);
    timer.unref();
    app.server.once("close", () => clearTimeout(timer));
  });
  return { describe };
}

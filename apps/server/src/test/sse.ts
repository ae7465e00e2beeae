import http from "node:http";

/** One parsed Server-Sent Event. */
export type SseEvent = { event: string; data: unknown };

/** Connect to an SSE endpoint and wait for named events. */
export function openEventStream(
  url: string,
  cookie?: string,
): Promise<{
  next(event: string, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}> {
  return new Promise((resolve, reject) => {
    const queue: SseEvent[] = [];
    const waiters: { event: string; resolve: (e: SseEvent) => void }[] = [];
    const req = http.get(url, { headers: cookie ? { cookie } : {} }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`SSE status ${res.statusCode}`));
        return;
      }
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let idx = buffer.indexOf("\n\n");
        while (idx >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          idx = buffer.indexOf("\n\n");
          const lines = block.split("\n").filter((l) => !l.startsWith(":"));
          if (lines.length === 0) continue;
          const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
          const data = lines
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6))
            .join("\n");
          const parsed: SseEvent = { event, data: data ? JSON.parse(data) : null };
          const w = waiters.findIndex((x) => x.event === parsed.event);
          if (w >= 0) waiters.splice(w, 1)[0]?.resolve(parsed);
          else queue.push(parsed);
        }
      });
      resolve({
        next(event, timeoutMs = 5000) {
          const i = queue.findIndex((e) => e.event === event);
          if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0] as SseEvent);
          return new Promise((res2, rej2) => {
            const timer = setTimeout(() => rej2(new Error(`no '${event}' event within ${timeoutMs} ms`)), timeoutMs);
            waiters.push({
              event,
              resolve: (e) => {
                clearTimeout(timer);
                res2(e);
              },
            });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on("error", (err) => {
      if ((err as NodeJS.ErrnoException).code !== "ECONNRESET") reject(err);
    });
  });
}

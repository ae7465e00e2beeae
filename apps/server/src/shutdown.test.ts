// SIGTERM with live-event streams open and uploads in flight: the process exits promptly with code 0, and
// every upload that was answered 2xx is there after a restart on the same data folder (SQLite).

import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { smallWav, uploadOverHttp } from "./test/server-process.js";
import { serverSuite, twoMembers } from "./test/server-suite.js";

/** An SSE client that only notes whether the server ended its stream, and how. */
function openStream(base: string, cookie?: string): Promise<{ ended: Promise<"end" | "error">; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/events`, { headers: cookie ? { cookie } : {} }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE status ${res.statusCode}`));
      const ended = new Promise<"end" | "error">((done) => {
        res.once("end", () => done("end"));
        res.once("error", () => done("error"));
        res.once("aborted", () => done("error"));
      });
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk: string) => {
        buffer += chunk;
        // Connected once the first event has arrived (the stream is registered by then).
        if (buffer.includes("event: ready")) resolve({ ended, close: () => req.destroy() });
      });
    });
    req.on("error", reject);
  });
}

/**
 * An upload whose body is sent in pieces over `spreadMs`, so it is still arriving when the signal comes. Resolves
 * with the song id on 201, undefined otherwise (refused, connection closed, server gone).
 */
async function slowUpload(base: string, cookie: string, title: string, audio: Buffer, spreadMs: number) {
  const { multipart } = await import("./test/fixtures.js");
  const body = multipart({ title, artists: [`Artist ${title}`], genre: "Pop" }, { name: "song.wav", data: audio });
  const pieces = 8;
  const size = Math.ceil(body.payload.length / pieces);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let i = 0; i < pieces; i++) {
        controller.enqueue(new Uint8Array(body.payload.subarray(i * size, (i + 1) * size)));
        await new Promise((r) => setTimeout(r, spreadMs / pieces));
      }
      controller.close();
    },
  });
  try {
    const res = await fetch(`${base}/api/songs`, {
      method: "POST",
      headers: { ...body.headers, cookie, "content-length": String(body.payload.length) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    if (res.status !== 201) return undefined;
    return ((await res.json()) as { id: string }).id;
  } catch {
    return undefined;
  }
}

describe("graceful shutdown", () => {
  const suite = serverSuite("unheard-shutdown-");

  it("exits within seconds with event streams open and uploads in flight, keeping every answered upload", async () => {
    let server = await suite.start();
    const { base } = server;
    const { alice, bob } = await twoMembers(server, "shutdown.test");

    // Six live-event clients: visitors and signed-in members (whose streams also carry their own events).
    const streams = await Promise.all([
      openStream(base),
      openStream(base),
      openStream(base, alice.cookie),
      openStream(base, alice.cookie),
      openStream(base, bob.cookie),
      openStream(base, bob.cookie),
    ]);

    // Uploads keep coming until the server is gone: fast ones back to back, and slow ones whose bodies are
    // still arriving when SIGTERM does.
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const fastLoop = async (who: { cookie: string }) => {
      while (!stop) {
        const title = `Fast ${n++}`;
        try {
          const res = await uploadOverHttp(base, who.cookie, title, smallWav(title));
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else await res.body?.cancel();
        } catch {
          // Refused: the server no longer accepts connections.
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const loops = [fastLoop(alice), fastLoop(bob)];
    // Some fast uploads land first, so there is something to check even if every slow one were lost.
    while (acknowledged.length < 4) await new Promise((r) => setTimeout(r, 20));
    const slow = [alice, bob, alice, bob].map((who, i) =>
      slowUpload(base, who.cookie, `Slow ${i}`, smallWav(`Slow ${i}`, 2), 1200),
    );
    await new Promise((r) => setTimeout(r, 300));

    const { code, seconds } = await suite.stop(20_000);
    stop = true;
    await Promise.all(loops);
    const slowIds = await Promise.all(slow);
    for (const id of slowIds) if (id) acknowledged.push(id);

    expect(code).toBe(0);
    expect(seconds).toBeLessThan(5);
    expect(server.output()).not.toContain("shutdown timed out");
    // The server ended every stream (browsers then reconnect elsewhere) rather than the clients giving up.
    expect(await Promise.all(streams.map((s) => s.ended))).toEqual(streams.map(() => "end"));
    // The uploads whose bodies were still arriving when SIGTERM came were finished, not cut off.
    expect(slowIds.filter(Boolean).length).toBe(slowIds.length);
    console.info(`shutdown with ${streams.length} event streams and uploads in flight: ${seconds.toFixed(2)} s`);

    // Same data folder: every answered upload is there, with its audio.
    server = await suite.start();
    for (const id of acknowledged) {
      const song = await fetch(`${server.base}/api/songs/${id}`, { headers: { cookie: alice.cookie } });
      expect(song.status, id).toBe(200);
      const audio = await fetch(`${server.base}/api/songs/${id}/audio`, { headers: { cookie: alice.cookie } });
      expect(audio.status, id).toBe(200);
      expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(44);
    }
    // No upload left a temp file behind.
    expect(readdirSync(path.join(suite.root, "tmp"))).toEqual([]);
    const restarted = server;
    const second = await suite.stop();
    console.info(`restarted server stopped in ${second.seconds.toFixed(2)} s`);
    expect(second.code, `stopped in ${second.seconds.toFixed(2)} s; server output:\n${restarted.output()}`).toBe(0);
  }, 120_000);
});

import net from "node:net";
import Fastify from "fastify";
import { afterEach, expect, it } from "vitest";
import { boundOpenRequests } from "./open-requests.js";

const logged: Array<{ msg: string; requests?: string[] }> = [];
afterEach(() => {
  logged.length = 0;
});

/** A server with a route that answers after `ms` and one that never answers, its close bounded to `graceMs`. */
async function server(graceMs: number) {
  const app = Fastify({
    logger: { level: "warn", stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  });
  app.get("/slow", async () => {
    await new Promise((r) => setTimeout(r, 300));
    return { ok: true };
  });
  app.get("/hang", () => new Promise(() => {}));
  const open = boundOpenRequests(app, graceMs);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as net.AddressInfo;
  return { app, open, base: `http://127.0.0.1:${address.port}`, port: address.port };
}

/** A connection that sends a request's headers but never their end. */
function halfRequest(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n");
      resolve(socket);
    });
    socket.on("error", () => {});
  });
}

it("lets a request that finishes within the grace get its answer", async () => {
  const { app, base } = await server(2000);
  const answer = fetch(`${base}/slow`);
  await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  await app.close();
  const res = await answer;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
  expect(performance.now() - started).toBeLessThan(1500);
  expect(logged).toEqual([]);
});

it("cuts off a request that never finishes and a half-sent one once the grace runs out, and names them", async () => {
  const { app, open, base, port } = await server(400);
  const hung = fetch(`${base}/hang`).then(
    (res) => res.status,
    () => "cut off",
  );
  const half = await halfRequest(port);
  const halfClosed = new Promise((r) => half.once("close", r));
  half.resume();
  await new Promise((r) => setTimeout(r, 50));
  expect(open.describe()).toEqual([expect.stringMatching(/^GET \/hang \(\d+\.\d s\)$/)]);

  const started = performance.now();
  await app.close();
  const seconds = (performance.now() - started) / 1000;
  expect(seconds).toBeGreaterThan(0.35);
  expect(seconds).toBeLessThan(2);
  expect(await hung).toBe("cut off");
  await halfClosed;
  expect(logged).toHaveLength(1);
  expect(logged[0]?.msg).toContain("closing them");
  expect(logged[0]?.requests).toEqual([expect.stringMatching(/^GET \/hang/)]);
});

import type { AddressInfo } from "node:net";
import { beforeAll, expect, it } from "vitest";
import type { App } from "../../http.js";
import { patchMe } from "../../test/fixtures.js";
import { createSiblingApp, describeEachDialect, signUp, useTestApp } from "../../test/harness.js";
import { openEventStream } from "../../test/sse.js";

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

describeEachDialect("events stream", (dialect) => {
  const ctx = useTestApp(dialect);
  let base: string;
  beforeAll(async () => {
    base = await listen(ctx.app);
  });

  it("pushes the signed-in user's profile changes, and only to that user", async () => {
    const alice = await signUp(ctx, "alice-ev@example.com");
    const bob = await signUp(ctx, "bob-ev@example.com");
    const aliceStream = await openEventStream(`${base}/api/events`, alice);
    const bobStream = await openEventStream(`${base}/api/events`, bob);
    try {
      expect((await aliceStream.next("ready")).data).toEqual({ signedIn: true });
      await bobStream.next("ready");
      const res = await patchMe(ctx, alice, { username: "alice-live" });
      expect(res.statusCode).toBe(200);
      const event = await aliceStream.next("me");
      expect(event.data).toMatchObject({ username: "alice-live", email: "alice-ev@example.com" });
      await expect(bobStream.next("me", 500)).rejects.toThrow(/no 'me' event/);
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it("serves visitors too", async () => {
    const stream = await openEventStream(`${base}/api/events`);
    try {
      expect((await stream.next("ready")).data).toEqual({ signedIn: false });
    } finally {
      stream.close();
    }
  });

  if (dialect === "postgres") {
    it("carries events across server instances through LISTEN/NOTIFY", async () => {
      const sibling = await createSiblingApp(ctx);
      const siblingBase = await listen(sibling.app);
      const cookie = await signUp(ctx, "cross@example.com");
      const stream = await openEventStream(`${siblingBase}/api/events`, cookie);
      try {
        await stream.next("ready");
        // The change happens on the first instance; the client listens on the second.
        await patchMe(ctx, cookie, { username: "cross-instance" });
        expect((await stream.next("me")).data).toMatchObject({ username: "cross-instance" });
      } finally {
        stream.close();
        await sibling.close();
      }
    });
  }
});

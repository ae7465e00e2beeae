import type { AddressInfo } from "node:net";
import { beforeAll, expect, it } from "vitest";
import type { App } from "../../http.js";
import { member, patchMe, upload, vote } from "../../test/fixtures.js";
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

  it("tells each stream only about songs its viewer may see: pending ones to members, hidden ones to admins", async () => {
    // Issue 24: visitors' streams announced every new pending song's id, every tally and every hide.
    const up = await member(ctx, "up-ev@example.com");
    const fan = await member(ctx, "fan-ev@example.com");
    const admin = await member(ctx, "admin-ev@example.com", "admin");
    const held = await signUp(ctx, "held-ev@example.com");
    const visitor = await openEventStream(`${base}/api/events`);
    const waitlisted = await openEventStream(`${base}/api/events`, held);
    const fanStream = await openEventStream(`${base}/api/events`, fan.cookie);
    const adminStream = await openEventStream(`${base}/api/events`, admin.cookie);
    const streams = [visitor, waitlisted, fanStream, adminStream];
    const songEvent = async (stream: (typeof streams)[number]) =>
      (await stream.next("song")).data as { id: string; [k: string]: unknown };
    const asAdmin = (method: "POST" | "PUT", url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });
    try {
      for (const s of streams) await s.next("ready");
      // A pending upload and a vote on it: members and admins hear of both.
      const id = (await upload(ctx, up.cookie, { title: "Quiet Upload", artists: ["Event Artist"] })).json().id;
      expect((await vote(ctx, fan.cookie, id, "up")).statusCode).toBe(200);
      for (const s of [fanStream, adminStream]) {
        expect(await songEvent(s)).toMatchObject({ id, created: true, status: "pending" });
        expect(await songEvent(s)).toMatchObject({ id, upvotes: 1, status: "pending" });
      }
      // Verified, it is everyone's: it is the first song event visitors get.
      expect((await asAdmin("POST", `/api/songs/${id}/verify`)).statusCode).toBe(200);
      for (const s of streams) expect(await songEvent(s)).toMatchObject({ id, status: "verified" });
      // Hidden: admins only. The next public song's verification is the next event the others get.
      expect((await asAdmin("PUT", `/api/songs/${id}/hidden`, { hidden: true })).statusCode).toBe(200);
      expect(await songEvent(adminStream)).toMatchObject({ id, isHidden: true });
      const next = (await upload(ctx, up.cookie, { title: "Next Upload", artists: ["Event Artist"] })).json().id;
      expect(await songEvent(fanStream)).toMatchObject({ id: next, created: true });
      expect((await asAdmin("POST", `/api/songs/${next}/verify`)).statusCode).toBe(200);
      for (const s of [visitor, waitlisted, fanStream]) expect(await songEvent(s)).toMatchObject({ id: next });
      // Deleted while pending: members hear of it, visitors do not.
      const gone = (await upload(ctx, up.cookie, { title: "Gone Upload", artists: ["Event Artist"] })).json().id;
      const boss = await member(ctx, "boss-ev@example.com", "super_admin");
      const del = await ctx.app.inject({
        method: "DELETE",
        url: `/api/songs/${gone}`,
        headers: { cookie: boss.cookie },
      });
      expect(del.statusCode).toBe(200);
      expect(await songEvent(fanStream)).toMatchObject({ id: gone, created: true });
      expect(await songEvent(fanStream)).toMatchObject({ id: gone, deleted: true });
      await expect(visitor.next("song", 300)).rejects.toThrow(/no 'song' event/);
      await expect(waitlisted.next("song", 100)).rejects.toThrow(/no 'song' event/);
    } finally {
      for (const s of streams) s.close();
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

import http from "node:http";
import type { AddressInfo } from "node:net";
import { MESSAGES } from "@unheard/shared";
import { afterAll, beforeAll, expect, it } from "vitest";
import { member } from "../../test/fixtures.js";
import { createTestApp, describeEachDialect, type TestContext } from "../../test/harness.js";

/** A fake SoundCloud API on 127.0.0.1 whose answer depends on the query. */
function fakeSoundcloud(): Promise<{ url: string; queries: string[]; close(): Promise<void> }> {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const q = url.searchParams.get("q") ?? "";
    queries.push(`${url.pathname}?q=${q}&client_id=${url.searchParams.get("client_id")}`);
    if (q.includes("slow")) {
      setTimeout(() => res.end("[]"), 2000);
      return;
    }
    if (q.includes("broken")) {
      res.statusCode = 500;
      res.end("oops");
      return;
    }
    if (q.includes("garbage")) {
      res.setHeader("content-type", "application/json");
      res.end("{not json");
      return;
    }
    res.setHeader("content-type", "application/json");
    if (q.includes("nothing")) {
      res.end(JSON.stringify({ collection: [] }));
      return;
    }
    res.end(
      JSON.stringify({
        collection: [
          {
            id: 42,
            title: "Lucid (leak)",
            permalink_url: "https://soundcloud.com/x/lucid",
            artwork_url: null,
            duration: 185000,
            user: { username: "leaker" },
          },
          { id: "bad" },
        ],
      }),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, queries, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

describeEachDialect("soundcloud matches", (dialect) => {
  let ctx: TestContext;
  let unconfigured: TestContext;
  let fake: Awaited<ReturnType<typeof fakeSoundcloud>>;
  let cookie: string;
  beforeAll(async () => {
    fake = await fakeSoundcloud();
    ctx = await createTestApp(dialect, {
      env: { SOUNDCLOUD_CLIENT_ID: "test-client", SOUNDCLOUD_API_URL: fake.url, SOUNDCLOUD_TIMEOUT_MS: "500" },
    });
    unconfigured = await createTestApp(dialect);
    cookie = (await member(ctx, "sc@example.com")).cookie;
  });
  afterAll(async () => {
    await ctx.close();
    await unconfigured.close();
    await fake.close();
  });

  const ask = (c: TestContext, payload: object, withCookie = cookie) =>
    c.app.inject({
      method: "POST",
      url: "/api/soundcloud/matches",
      headers: withCookie ? { cookie: withCookie } : {},
      payload,
    });

  it("returns tracks in the spec's shape", async () => {
    const res = await ask(ctx, { artist: "Juice WRLD", title: "Lucid" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      tracks: [
        {
          id: 42,
          title: "Lucid (leak)",
          permalink_url: "https://soundcloud.com/x/lucid",
          artwork_url: null,
          user: { username: "leaker" },
          duration: 185000,
        },
      ],
    });
    expect(fake.queries.at(-1)).toBe("/search/tracks?q=Juice WRLD Lucid&client_id=test-client");
  });

  it("says when nothing matches", async () => {
    expect((await ask(ctx, { artist: "nothing", title: "here" })).json()).toEqual({
      tracks: [],
      message: MESSAGES.soundcloudNoMatches,
    });
  });

  it.each(["slow", "broken", "garbage"])("fails cleanly on a %s answer", async (kind) => {
    const res = await ask(ctx, { artist: kind, title: "x" });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe(MESSAGES.soundcloudFailed);
  });

  it("needs both title and artist, and a signed-in member", async () => {
    const res = await ask(ctx, { artist: "", title: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(MESSAGES.soundcloudNeedsTitleArtist);
    expect((await ask(ctx, { artist: "a", title: "b" }, "")).statusCode).toBe(401);
  });

  it("answers 'not configured' without a client id", async () => {
    const c = (await member(unconfigured, "sc2@example.com")).cookie;
    const res = await ask(unconfigured, { artist: "a", title: "b" }, c);
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe(MESSAGES.soundcloudNotConfigured);
  });
});

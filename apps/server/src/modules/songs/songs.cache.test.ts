import { beforeAll, expect, it } from "vitest";
import { member, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";
import { createSongsRepo } from "./songs.repo.js";

// Visitors' answers come from the public cache with ETags; members' answers are computed per request and
// tagged too; sessions are read on the fast path but expired or tampered ones never pass.
describeEachDialect("HTTP caching and sessions", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up, fan, boss } = useMembers(ctx, {
    up: "up@example.com",
    fan: "fan@example.com",
    boss: ["boss-cache@example.com", "super_admin"],
  });
  let songId = "";

  beforeAll(async () => {
    songId = (await upload(ctx, up.cookie, { title: "Cached Tune", artists: ["Cache Band"], genre: "Pop" })).json().id;
    await verify(ctx, songId);
  });

  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: "GET", url, headers });

  it("answers visitors with a shared, revalidated answer and 304 when they hold it", async () => {
    for (const url of ["/api/songs?feed=newest", `/api/songs/${songId}`, "/api/search?q=cahced%20tune"]) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers["cache-control"]).toBe("public, no-cache");
      expect(first.headers.vary).toBe("cookie");
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await get(url);
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe(first.body);
      const notModified = await get(url, { "if-none-match": etag });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe("");
    }
  });

  // Issue 24: every favourite toggle cleared the whole visitor cache, so one member toggling 90 times a second
  // made visitors' feeds five times slower. A favourite count may lag by the cache's TTL; other changes may not.
  it("keeps visitors' cached feeds through favourite toggles, and drops them when a song is verified or hidden", async () => {
    const feedUrl = "/api/songs?feed=newest&genre=Pop";
    const feed = await get(feedUrl);
    const countIn = (res: { json(): { items: { id: string; favoriteCount: number }[] } }) =>
      res.json().items.find((s) => s.id === songId)?.favoriteCount;
    const count = countIn(feed);
    expect(count).toEqual(expect.any(Number));
    const favorite = (method: "PUT" | "DELETE") =>
      ctx.app.inject({ method, url: `/api/songs/${songId}/favorite`, headers: { cookie: fan.cookie } });
    for (const method of ["PUT", "DELETE", "PUT"] as const) expect((await favorite(method)).statusCode).toBe(200);
    // The feed is the cached answer still (304 for the ETag visitors hold, the old count inside); the song's own
    // page, dropped alone, has the new count.
    expect((await get(feedUrl, { "if-none-match": String(feed.headers.etag) })).statusCode).toBe(304);
    expect(countIn(await get(feedUrl))).toBe(count);
    expect((await get(`/api/songs/${songId}`)).json().favoriteCount).toBe(Number(count) + 1);
    expect((await get(`/api/songs/${songId}`, { cookie: fan.cookie })).json()).toMatchObject({
      favoriteCount: Number(count) + 1,
      isFavorite: true,
    });
    // A verification shows in visitors' feeds at once.
    const newestIds = async () => (await get("/api/songs?feed=newest")).json().items.map((s: { id: string }) => s.id);
    const pending = (await upload(ctx, up.cookie, { title: "Fresh Tune", artists: ["Cache Band"] })).json().id;
    expect(await newestIds()).not.toContain(pending);
    expect(
      (await ctx.app.inject({ method: "POST", url: `/api/songs/${pending}/verify`, headers: { cookie: boss.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(await newestIds()).toContain(pending);
    // So does a hide, and the song page answers with the song's current state (the favourite counted now).
    const hide = (hidden: boolean) =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/songs/${pending}/hidden`,
        headers: { cookie: boss.cookie },
        payload: { hidden },
      });
    expect((await hide(true)).statusCode).toBe(200);
    expect(await newestIds()).not.toContain(pending);
    expect((await hide(false)).statusCode).toBe(200);
    expect(countIn(await get(feedUrl))).toBe(Number(count) + 1);
  });

  it("keeps this week's likes on the song and takes aged-out likes off when refreshed", async () => {
    const weekLikes = async () =>
      Number(
        (
          await ctx.database.db
            .selectFrom("song")
            .select("week_likes")
            .where("id", "=", songId)
            .executeTakeFirstOrThrow()
        ).week_likes,
      );
    const other = await member(ctx, "weekly@example.com");
    const before = await weekLikes();
    const put = () =>
      ctx.app.inject({ method: "PUT", url: `/api/songs/${songId}/favorite`, headers: { cookie: other.cookie } });
    const del = () =>
      ctx.app.inject({ method: "DELETE", url: `/api/songs/${songId}/favorite`, headers: { cookie: other.cookie } });
    await put();
    await put();
    expect(await weekLikes()).toBe(before + 1);
    await del();
    expect(await weekLikes()).toBe(before);
    // A like from last month: unliking it leaves this week's count alone.
    await put();
    const monthAgo = new Date(Date.now() - 30 * 864e5).toISOString();
    await ctx.database.db
      .updateTable("favorite")
      .set({ created_at: monthAgo })
      .where("user_id", "=", other.id)
      .execute();
    expect(await weekLikes()).toBe(before + 1);
    await createSongsRepo(ctx.database).refreshWeekLikes();
    expect(await weekLikes()).toBe(before);
    await del();
    expect(await weekLikes()).toBe(before);
  });

  it("answers members privately, with their own state, and 304 when unchanged", async () => {
    const res = await get(`/api/songs/${songId}`, { cookie: fan.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().isFavorite).toBe(true);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    expect(res.headers.vary).toBe("cookie");
    const again = await get(`/api/songs/${songId}`, { cookie: fan.cookie, "if-none-match": String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("treats a cookie with a forged signature as no session", async () => {
    const [name, value] = fan.cookie.split("=") as [string, string];
    const token = decodeURIComponent(value).split(".")[0];
    const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    expect((await get("/api/me/favorites", { cookie: forged })).statusCode).toBe(401);
    expect((await get(`/api/songs/${songId}`, { cookie: forged })).json().isFavorite).toBe(false);
    expect((await get("/api/me/favorites", { cookie: fan.cookie })).statusCode).toBe(200);
  });

  it("refuses an expired session and keeps extending a live one", async () => {
    const other = await member(ctx, "other@example.com");
    const { db } = ctx.database;
    // Due for extension (last extended more than a day ago): still signed in, and Better Auth extends it.
    const soon = new Date(Date.now() + 5 * 864e5).toISOString();
    await db.updateTable("session").set({ expires_at: soon }).where("user_id", "=", other.id).execute();
    expect((await get("/api/me/favorites", { cookie: other.cookie })).statusCode).toBe(200);
    const extended = await db
      .selectFrom("session")
      .select("expires_at")
      .where("user_id", "=", other.id)
      .executeTakeFirstOrThrow();
    expect(new Date(extended.expires_at).getTime()).toBeGreaterThan(Date.now() + 20 * 864e5);
    // Expired: refused, whatever the cookie says.
    const past = new Date(Date.now() - 1000).toISOString();
    await db.updateTable("session").set({ expires_at: past }).where("user_id", "=", other.id).execute();
    expect((await get("/api/me/favorites", { cookie: other.cookie })).statusCode).toBe(401);
    // Signed out: the row is gone, so the cookie is worthless.
    const third = await member(ctx, "third@example.com");
    await ctx.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie: third.cookie } });
    expect((await get("/api/me/favorites", { cookie: third.cookie })).statusCode).toBe(401);
  });
});

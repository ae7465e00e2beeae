import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { member, patchMe, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

/** Every artist's stored counts equal the rows they count. */
async function expectCountsMatch(ctx: TestContext): Promise<void> {
  const bad = await sql<{ id: string }>`
    select u.id from "user" u
    where u.follower_count != (select count(*) from follow f where f.artist_id = u.id)
       or (u.is_artist = ${ctx.database.dialect === "sqlite" ? sql`1` : sql`true`}
           and u.credit_count != (select count(*) from song_artist sa where sa.artist_id = u.id))`.execute(
    ctx.database.db,
  );
  expect(bad.rows).toEqual([]);
}

describeEachDialect("artists", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up, fan } = useMembers(ctx, { up: "up-art@example.com", fan: "fan-art@example.com" });
  let artistId: string;
  beforeAll(async () => {
    const a = (await upload(ctx, up.cookie, { title: "Art One", artists: ["Juice WRLD"] })).json();
    const b = (await upload(ctx, up.cookie, { title: "Art Two", artists: ["juice wrld "] })).json();
    await upload(ctx, up.cookie, { title: "Art Pending", artists: ["Juice WRLD"] });
    await verify(ctx, a.id, b.id);
    artistId = a.artists[0].id;
    expect(b.artists[0].id).toBe(artistId);
  });

  it("shows a placeholder artist with verified tracks only to the public", async () => {
    const artist = (await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}` })).json();
    expect(artist).toMatchObject({
      name: "Juice WRLD",
      bio: "Music by Juice WRLD",
      isPlaceholder: true,
      isVerified: false,
      trackCount: 2,
      followerCount: 0,
      isFollowing: false,
      canEdit: false,
    });
    const songs = (await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/songs` })).json();
    expect(songs.items.map((s: { title: string }) => s.title).sort()).toEqual(["Art One", "Art Two"]);
    const admin = await member(ctx, "adm-art@example.com", "admin");
    const all = (
      await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/songs`, headers: { cookie: admin.cookie } })
    ).json();
    expect(all.items).toHaveLength(3);
    const missing = await ctx.app.inject({ method: "GET", url: `/api/artists/${up.id}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(MESSAGES.artistNotFound);
  });

  it("follows idempotently, counting each follower once", async () => {
    const put = () =>
      ctx.app.inject({ method: "PUT", url: `/api/artists/${artistId}/follow`, headers: { cookie: fan.cookie } });
    await Promise.all([put(), put(), put()]);
    expect((await put()).json()).toEqual({ following: true, followerCount: 1 });
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}`, headers: { cookie: fan.cookie } })).json()
        .isFollowing,
    ).toBe(true);
    const visitor = await ctx.app.inject({ method: "PUT", url: `/api/artists/${artistId}/follow` });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe(MESSAGES.loginToFollow);
    await expectCountsMatch(ctx);
  });

  it("lets the artist or an admin edit bio and links, accepting only http(s) links", async () => {
    const admin = await member(ctx, "adm-art2@example.com", "admin");
    const edit = (cookie: string, payload: object) =>
      ctx.app.inject({ method: "PATCH", url: `/api/artists/${artistId}`, headers: { cookie }, payload });
    const refused = await edit(fan.cookie, { bio: "x" });
    expect(refused.statusCode).toBe(403);
    const bad = await edit(admin.cookie, { bio: "x", website: "javascript:alert(1)" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MESSAGES.invalidLink);
    const ok = await edit(admin.cookie, {
      bio: "Chicago",
      instagram: "https://instagram.com/jw",
      twitter: "",
      website: null,
    });
    expect(ok.json()).toMatchObject({
      bio: "Chicago",
      socialLinks: { instagram: "https://instagram.com/jw", twitter: null, website: null },
    });
  });

  it("merges a duplicate placeholder and lets an admin link a placeholder to a real account, keeping counts true", async () => {
    const dup = (await upload(ctx, up.cookie, { title: "Art Three", artists: ["Juice World"] })).json();
    const dupId = dup.artists[0].id;
    const other = await member(ctx, "fan2-art@example.com");
    for (const follower of [other, fan])
      await ctx.app.inject({
        method: "PUT",
        url: `/api/artists/${dupId}/follow`,
        headers: { cookie: follower.cookie },
      });
    const boss = await member(ctx, "boss-art@example.com", "super_admin");
    const admin = await member(ctx, "adm-art3@example.com", "admin");
    const merge = (cookie: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/admin/artists/merge",
        headers: { cookie },
        payload: { keepId: artistId, mergeId: dupId },
      });
    const asAdmin = await merge(admin.cookie);
    expect(asAdmin.statusCode).toBe(403);
    const merged = await merge(boss.cookie);
    expect(merged.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: "GET", url: `/api/artists/${dupId}` })).statusCode).toBe(404);
    const kept = (await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}` })).json();
    expect(kept.followerCount).toBe(2);
    const dupSong = await ctx.app.inject({
      method: "GET",
      url: `/api/songs/${dup.id}`,
      headers: { cookie: up.cookie },
    });
    expect(dupSong.json().artists).toEqual([{ id: artistId, name: "Juice WRLD" }]);
    await expectCountsMatch(ctx);

    const real = await member(ctx, "jw-owner@example.com");
    // New accounts get a neutral handle (issue 24); this one names itself before an admin links it.
    expect((await patchMe(ctx, real.cookie, { username: "jw-real" })).statusCode).toBe(200);
    const claim = await ctx.app.inject({
      method: "POST",
      url: `/api/admin/artists/${artistId}/claim`,
      headers: { cookie: admin.cookie },
      payload: { userId: real.id },
    });
    expect(claim.statusCode).toBe(200);
    const now = (
      await ctx.app.inject({ method: "GET", url: `/api/artists/${real.id}`, headers: { cookie: real.cookie } })
    ).json();
    expect(now).toMatchObject({ isPlaceholder: false, isSelf: true, canEdit: true, followerCount: 2 });
    expect(
      (
        await ctx.app.inject({ method: "GET", url: `/api/artists/${real.id}/songs`, headers: { cookie: real.cookie } })
      ).json().items,
    ).toHaveLength(4);
    await expectCountsMatch(ctx);
    const verified = await ctx.app.inject({
      method: "PUT",
      url: `/api/admin/artists/${real.id}/verified`,
      headers: { cookie: boss.cookie },
      payload: { verified: true },
    });
    expect(verified.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: "GET", url: `/api/artists/${real.id}` })).json().isVerified).toBe(true);
  });

  it("finds artists in search, above songs", async () => {
    const res = (await ctx.app.inject({ method: "GET", url: "/api/search?q=jw-real" })).json();
    expect(res.artists[0]).toMatchObject({ name: "jw-real", initial: "J", isVerified: true });
    const byTitle = (await ctx.app.inject({ method: "GET", url: "/api/search?q=art%20one" })).json();
    expect(byTitle.songs[0].title).toBe("Art One");
    // After the claim the songs are found under the account's name.
    const byNewName = (await ctx.app.inject({ method: "GET", url: "/api/search?q=jw%20real" })).json();
    expect(byNewName.songs.map((s: { title: string }) => s.title)).toContain("Art One");
  });
});

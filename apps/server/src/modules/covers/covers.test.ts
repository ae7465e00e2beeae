import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member, upload, verify } from "../../test/fixtures.js";
import { createTestApp, describeEachDialect, type TestContext } from "../../test/harness.js";
import { COVER_SIZE, coverUrl, escapeXml, renderCover } from "./covers.service.js";

describe("cover art", () => {
  it("is the same for the same song, and differs between songs", () => {
    const a = renderCover("Velvet Weather", ["Juno Morrow"]);
    expect(renderCover("Velvet Weather", ["Juno Morrow"])).toBe(a);
    expect(renderCover("Velvet Weathers", ["Juno Morrow"])).not.toBe(a);
    expect(renderCover("Velvet Weather", ["Someone Else"])).not.toBe(a);
    expect(a).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_SIZE}"`));
    expect(a).toContain(">Velvet Weather</text>");
    expect(a).toContain(">Juno Morrow</text>");
  });

  it("sets any title as escaped text, wrapped into at most four lines", () => {
    const svg = renderCover(`</text><script>alert("x")</script> & 'more'`, ["<b>Bold</b>"]);
    expect(svg).not.toMatch(/<script|<b>/);
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;");
    expect(svg).toContain("&lt;b&gt;Bold&lt;/b&gt;");
    const long = renderCover("word ".repeat(80), ["A"]);
    expect(long.match(/class="t"/g)?.length).toBeLessThanOrEqual(4);
    expect(long).toContain("…");
    expect(escapeXml("a\u0000b\u001fc")).toBe("abc");
  });

  it("draws well-formed SVG in every style", () => {
    // Many titles, so every composition comes up; each must be balanced markup with no external reference.
    for (let i = 0; i < 60; i++) {
      const svg = renderCover(`Title ${i}`, [`Artist ${i % 7}`]);
      const opened = (svg.match(/<[a-zA-Z][^>]*[^/]>/g) ?? []).length;
      const closed = (svg.match(/<\/[a-zA-Z]+>/g) ?? []).length;
      expect(opened, svg).toBe(closed);
      expect(svg).not.toMatch(/href|url\((?!#)/);
    }
  });
});

describeEachDialect("covers API", (dialect) => {
  let ctx: TestContext;
  let owner: { cookie: string; id: string };
  let admin: { cookie: string; id: string };
  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    owner = await member(ctx, "cover-owner@example.com");
    admin = await member(ctx, "cover-admin@example.com", "admin");
  });
  afterAll(() => ctx.close());

  /** A song by `owner`, verified unless asked (visitors see verified songs only). */
  const create = async (title: string, artists = ["Cover Artist"], opts = { verified: true }) => {
    const res = await upload(ctx, owner.cookie, { title, artists, genre: "Pop" });
    expect(res.statusCode, res.body).toBe(201);
    const song = res.json() as { id: string; coverUrl: string };
    if (opts.verified) await verify(ctx, song.id);
    return song;
  };

  it("serves the cover at the song's versioned URL, cached for good", async () => {
    const song = await create("Cover Song One");
    expect(song.coverUrl).toMatch(new RegExp(`^/api/songs/${song.id}/cover\\.svg\\?v=[0-9a-f]{12}$`));
    const page = (await ctx.app.inject({ url: `/api/songs/${song.id}` })).json();
    expect(page.coverUrl).toBe(song.coverUrl);
    const res = await ctx.app.inject({ url: song.coverUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.body).toMatch(/^<svg /);
    expect(res.body).toContain("Cover Song One");
    // Compressed for clients that accept it, and not sent again to one that has it.
    const gz = await ctx.app.inject({ url: song.coverUrl, headers: { "accept-encoding": "gzip, br" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(res.body);
    expect(gz.rawPayload.length).toBeLessThan(res.rawPayload.length);
    const again = await ctx.app.inject({ url: song.coverUrl, headers: { "if-none-match": String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it("differs between titles, and moves to a new URL when the title is edited", async () => {
    const a = await create("Cover Song Two");
    const b = await create("Cover Song Three");
    const [svgA, svgB] = await Promise.all([a, b].map(async (s) => (await ctx.app.inject({ url: s.coverUrl })).body));
    expect(svgA).not.toBe(svgB);
    // An admin's edit: a verified song's title changes directly only for admins.
    const edit = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${a.id}`,
      headers: { cookie: admin.cookie },
      payload: { title: "Cover Song Two (Remix)", artists: ["Cover Artist"], genre: "Pop", comment: "retitled" },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = edit.json().song as { coverUrl: string };
    expect(edited.coverUrl).not.toBe(a.coverUrl);
    const now = await ctx.app.inject({ url: edited.coverUrl });
    expect(now.body).toContain("Cover Song Two (Remix)");
    // The old URL now answers with the new cover, but only for a short while.
    const old = await ctx.app.inject({ url: a.coverUrl });
    expect(old.body).toBe(now.body);
    expect(old.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("escapes a title with markup", async () => {
    const song = await create(`<script>alert(1)</script> & "Friends"`, ["<img src=x onerror=alert(1)>"]);
    const res = await ctx.app.inject({ url: song.coverUrl });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<script|<img|onerror=alert\(1\)>/);
    expect(res.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Friends&quot;");
  });

  it("is not found for unknown songs, and for hidden ones unless an admin asks", async () => {
    const missing = await ctx.app.inject({ url: "/api/songs/no-such-song/cover.svg" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("not_found");
    const song = await create("Cover Song Hidden");
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", song.id).execute();
    expect((await ctx.app.inject({ url: song.coverUrl })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: song.coverUrl, headers: { cookie: owner.cookie } })).statusCode).toBe(404);
    const seen = await ctx.app.inject({ url: song.coverUrl, headers: { cookie: admin.cookie } });
    expect(seen.statusCode).toBe(200);
    expect(seen.headers["cache-control"]).toBe("private, no-store");
  });

  it("is not found for visitors of a pending song, and private for the members who see it (issue 24)", async () => {
    const song = await create("Cover Song Pending", ["Cover Artist"], { verified: false });
    const missing = await ctx.app.inject({ url: "/api/songs/no-such-song/cover.svg" });
    const visitor = await ctx.app.inject({ url: song.coverUrl });
    expect(visitor.statusCode).toBe(404);
    // The same answer as an unknown song: no way to tell a pending song exists.
    expect(visitor.body).toBe(missing.body);
    const fan = await member(ctx, "cover-fan@example.com");
    const seen = await ctx.app.inject({ url: song.coverUrl, headers: { cookie: fan.cookie } });
    expect(seen.statusCode).toBe(200);
    expect(seen.headers["cache-control"]).toBe("private, max-age=300");
    // Verified, it is public and cached for good.
    await verify(ctx, song.id);
    const open = await ctx.app.inject({ url: song.coverUrl });
    expect(open.statusCode).toBe(200);
    expect(open.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("matches the URL the songs API gives", () => {
    expect(coverUrl("abc", "T", ["A"])).toMatch(/^\/api\/songs\/abc\/cover\.svg\?v=[0-9a-f]{12}$/);
  });
});

import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { member, upload, verify } from "../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../test/harness.js";
import { useWebDist } from "../test/web-dist.js";
import type { RendererModule } from "./page-render.js";

// The web app's renderer from its sources (the server loads its build, apps/web/dist-ssr, in production). A path
// in a variable: the server's compiler does not type-check the web app's JSX.
const WEB_ENTRY = "../../../web/src/entry-server.tsx";
const renderer = (await import(/* @vite-ignore */ WEB_ENTRY)) as RendererModule;

const TEMPLATE =
  '<!doctype html><html><head><title>Unheard</title></head><body><div id="root"></div>' +
  '<script type="module" src="/assets/index.js"></script></body></html>';

/** A built web app's index.html for the suite's server (`WEB_DIST`). */
const webDist = () => useWebDist({ "index.html": TEMPLATE });

/** The HTML inside #root, before any script: what a phone shows before the JavaScript runs. */
function rootHtml(body: string): string {
  const start = body.indexOf('<div id="root">');
  const end = body.indexOf('<script type="application/json" id="unheard-queries">');
  expect(start, "the page has its #root").toBeGreaterThan(-1);
  expect(end, "the page has its data block after #root").toBeGreaterThan(start);
  return body.slice(start, end);
}

/** The page's embedded query data, as the browser reads it. */
function embeddedQueries(body: string): { queries: { queryKey: unknown[]; state: { data: unknown } }[] } {
  const m = /<script type="application\/json" id="unheard-queries">([^<]*)<\/script>/.exec(body);
  expect(m, "the page embeds its data").not.toBeNull();
  return JSON.parse(m?.[1] ?? "{}");
}

const get = (ctx: TestContext, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, headers });

describeEachDialect("server-rendered pages", (dialect) => {
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDist() }, renderer });

  it("renders a song page with its title, artists, era and leak details before any script", async () => {
    const owner = await member(ctx, "ssr-owner@example.com");
    const song = (
      await upload(ctx, owner.cookie, {
        title: "Glass Orchard",
        artists: ["Mira Vale", "Oskar Tide"],
        era: "Lantern Era",
        leakDate: "2024-02-29",
        availability: "og_file",
        quality: "lossless",
      })
    ).json();
    await verify(ctx, song.id);
    const res = await get(ctx, `/song/${song.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    const root = rootHtml(res.body);
    for (const text of [
      "Glass Orchard",
      "Mira Vale",
      "Oskar Tide",
      "Lantern Era",
      "Feb 29, 2024",
      "OG file",
      "Lossless",
    ])
      expect(root, text).toContain(text);
    // The browser starts from the same data the API serves: no second request for the song.
    const queries = embeddedQueries(res.body).queries;
    const detail = queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(["song", song.id]));
    expect(detail?.state.data).toMatchObject({ id: song.id, title: "Glass Orchard" });
    // Who is signed in is never in the shared page.
    expect(queries.some((q) => q.queryKey[0] === "me")).toBe(false);
  });

  it("keeps a title that closes the script or the markup inert", async () => {
    const owner = await member(ctx, "ssr-hostile@example.com");
    const title = "</script><script>alert(1)</script><!--";
    const song = (await upload(ctx, owner.cookie, { title, artists: ["<b>Bold</b>"] })).json();
    await verify(ctx, song.id);
    const res = await get(ctx, `/song/${song.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<script>alert(1)");
    expect(res.body).not.toContain("<b>Bold</b>");
    expect(rootHtml(res.body)).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    // The data block decodes back to the title as typed.
    const detail = embeddedQueries(res.body).queries.find((q) => q.queryKey[1] === song.id);
    expect(detail?.state.data).toMatchObject({ title });
  });

  it("renders nothing of a pending song for anyone: its page is the plain app", async () => {
    const owner = await member(ctx, "ssr-pending@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Unreleased Secret", artists: ["Quiet One"] })).json();
    for (const headers of [{}, { cookie: owner.cookie }] as Record<string, string>[]) {
      const res = await get(ctx, `/song/${song.id}`, headers);
      expect(res.body).not.toContain("Unreleased Secret");
      expect(res.body).not.toContain("unheard-queries");
    }
  });

  it("gives members the same HTML as visitors, with an ETag and compressed copies", async () => {
    const owner = await member(ctx, "ssr-same@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Shared Bytes", artists: ["Echo Pair"] })).json();
    await verify(ctx, song.id);
    const visitor = await get(ctx, `/song/${song.id}`);
    const signedIn = await get(ctx, `/song/${song.id}`, { cookie: owner.cookie });
    expect(signedIn.body).toBe(visitor.body);
    expect(signedIn.headers.etag).toBe(visitor.headers.etag);
    const again = await get(ctx, `/song/${song.id}`, { "if-none-match": String(visitor.headers.etag) });
    expect(again.statusCode).toBe(304);
    const br = await get(ctx, `/song/${song.id}`, { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(visitor.body);
    const gz = await get(ctx, `/song/${song.id}`, { "accept-encoding": "gzip, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(visitor.body);
  });

  it("renders a change at once: an edit clears the shared pages", async () => {
    const owner = await member(ctx, "ssr-edit@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Before Rename", artists: ["Edit Band"] })).json();
    await verify(ctx, song.id);
    expect(rootHtml((await get(ctx, `/song/${song.id}`)).body)).toContain("Before Rename");
    expect(rootHtml((await get(ctx, "/")).body)).toContain("Before Rename");
    const admin = await member(ctx, "ssr-admin@example.com", "admin");
    const edit = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${song.id}`,
      headers: { cookie: admin.cookie },
      payload: { title: "After Rename", artists: ["Edit Band"], genre: "Pop", comment: "Typo in the title" },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(rootHtml((await get(ctx, `/song/${song.id}`)).body)).toContain("After Rename");
    expect(rootHtml((await get(ctx, "/")).body)).toContain("After Rename");
  });

  it("stops sending a song's shared page the moment an admin hides it", async () => {
    const owner = await member(ctx, "ssr-hide@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Soon Hidden", artists: ["Vanishing Act"] })).json();
    await verify(ctx, song.id);
    expect(rootHtml((await get(ctx, `/song/${song.id}`)).body)).toContain("Soon Hidden");
    const admin = await member(ctx, "ssr-hider@example.com", "admin");
    const hide = await ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${song.id}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: true },
    });
    expect(hide.statusCode, hide.body).toBe(200);
    const after = await get(ctx, `/song/${song.id}`);
    expect(after.statusCode).toBe(404);
    expect(after.body).not.toContain("Soon Hidden");
  });

  it("renders the home feed, search results, an artist page, about and landing", async () => {
    const owner = await member(ctx, "ssr-pages@example.com");
    const song = (
      await upload(ctx, owner.cookie, { title: "Velvet Compass", artists: ["Northbound Choir"], era: "Compass Era" })
    ).json();
    await verify(ctx, song.id);
    expect(rootHtml((await get(ctx, "/")).body)).toContain("Velvet Compass");
    expect(rootHtml((await get(ctx, "/?q=velvet%20compas")).body)).toContain("Velvet Compass");
    const artistId = song.artists[0].id as string;
    const artist = rootHtml((await get(ctx, `/artists/${artistId}`)).body);
    expect(artist).toContain("Northbound Choir");
    expect(artist).toContain("Compass Era");
    // An era's own page: that era alone, with its title and structured data in the head.
    const eraPage = await get(ctx, `/artists/${artistId}?era=compass%20era`);
    expect(rootHtml(eraPage.body)).toMatch(/All eras of (<!-- -->)?Northbound Choir/);
    expect(eraPage.body).toMatch(/<title>Compass Era — Northbound Choir[^<]*<\/title>/);
    expect(eraPage.body).toContain('"@type":"MusicAlbum"');
    expect(rootHtml((await get(ctx, "/about")).body)).toContain("About");
    expect((await get(ctx, "/landing")).body).toContain("unheard-queries");
  });

  it("leaves member pages to the browser", async () => {
    const res = await get(ctx, "/pending");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });
});

describeEachDialect("server-rendered pages under the per-address limits", (dialect) => {
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDist(), PUBLIC_RATE_LIMIT: "2" }, renderer });

  it("sends the plain app when a render's data is refused, and shares no broken page", async () => {
    const owner = await member(ctx, "ssr-limit@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Limited Song", artists: ["Rate Band"] })).json();
    await verify(ctx, song.id);
    // The render's reads count against the asker's address, like the browser's own would.
    const from = (ip: string) => ctx.app.inject({ method: "GET", url: `/song/${song.id}`, remoteAddress: ip });
    for (let i = 0; i < 3; i++) await ctx.app.inject({ method: "GET", url: "/api/songs", remoteAddress: "10.9.9.9" });
    const limited = await from("10.9.9.9");
    expect(limited.statusCode).toBe(200);
    expect(limited.body).toContain('<div id="root"></div>');
    const other = await from("10.1.1.1");
    expect(rootHtml(other.body)).toContain("Limited Song");
  });

  it("keeps concurrent renders' requests apart: each counts against its own asker", async () => {
    const owner = await member(ctx, "ssr-race@example.com");
    const songs: { id: string; title: string }[] = [];
    for (const title of ["Race One", "Race Two", "Race Three", "Race Four"]) {
      const song = (await upload(ctx, owner.cookie, { title, artists: ["Race Band"] })).json();
      await verify(ctx, song.id);
      songs.push(song);
    }
    for (let i = 0; i < 3; i++) await ctx.app.inject({ method: "GET", url: "/api/songs", remoteAddress: "10.7.7.7" });
    // Limited and unlimited askers at once, on pages no one has rendered yet.
    const pages = await Promise.all(
      songs.map((song, i) =>
        ctx.app.inject({ method: "GET", url: `/song/${song.id}`, remoteAddress: i % 2 ? "10.7.7.7" : `10.8.8.${i}` }),
      ),
    );
    pages.forEach((page, i) => {
      if (i % 2) expect(page.body, `limited ${i}`).toContain('<div id="root"></div>');
      else expect(rootHtml(page.body), `free ${i}`).toContain(songs[i]?.title ?? "(no song)");
    });
  });
});

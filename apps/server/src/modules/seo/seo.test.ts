import { randomBytes } from "node:crypto";
import { MESSAGES, PAGE_ROUTES, type PageMatch, type PageRoute } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { nameKey } from "../../lib/text.js";
import { getAs as get, type User, upload, useMembers, verify, wavFile } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { useWebDist } from "../../test/web-dist.js";
import { createPageHeads, jsonLdText, type PageHead, renderHeadTags } from "./page-head.js";
import { createSeoRepo } from "./seo.repo.js";
import { CRAWLED_PAGES, createSeoService } from "./seo.service.js";

const PUBLIC_URL = "http://localhost:3000";

/** A built web app with the real index.html's head (a generic description and title). */
const webDist = () =>
  useWebDist({
    "index.html": [
      "<!doctype html>",
      '<html lang="en"><head><meta charset="UTF-8" />',
      '    <meta name="description" content="Generic description." />',
      "    <title>Unheard</title>",
      '  </head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
    ].join("\n"),
  });

const XML_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i;
const unescapeXml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) =>
    e.startsWith("#")
      ? String.fromCharCode(Number(e.slice(1)))
      : (({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e] ?? ""),
  );

/**
 * A sitemap file's entries, checking its whole shape on the way: the declaration, one <urlset> in the protocol's
 * namespace, nothing but <url> entries in it, and no bare `&` or markup in the text.
 */
function urlsetEntries(body: string): { loc: string; lastmod: string | undefined }[] {
  const m =
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n((?:<url><loc>[^<>]*<\/loc>(?:<lastmod>[^<>]*<\/lastmod>)?<\/url>\n)*)<\/urlset>\n$/.exec(
      body,
    );
  expect(m, body.slice(0, 500)).not.toBeNull();
  expect(body).not.toMatch(XML_ENTITY);
  return [...(m?.[1] ?? "").matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/url>/g)].map((e) => ({
    loc: unescapeXml(e[1] ?? ""),
    lastmod: e[2],
  }));
}

/** The sitemap index's files (absolute URLs), checking its shape. */
function indexEntries(body: string): string[] {
  const m =
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n((?:<sitemap><loc>[^<>]*<\/loc><\/sitemap>\n)*)<\/sitemapindex>\n$/.exec(
      body,
    );
  expect(m, body).not.toBeNull();
  expect(body).not.toMatch(XML_ENTITY);
  return [...(m?.[1] ?? "").matchAll(/<loc>([^<]*)<\/loc>/g)].map((e) => unescapeXml(e[1] ?? ""));
}

/**
 * Whether robots.txt lets a crawler fetch `url` (RFC 9309): the longest matching rule wins, Allow on a tie; `*`
 * matches any run of characters and `$` the end.
 */
function robotsAllow(robots: string, url: string): boolean {
  const rules = robots
    .split("\n")
    .map((line) => /^(Allow|Disallow):\s*(\S*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && (m[2] ?? "") !== "")
    .map((m) => ({
      allow: m[1] === "Allow",
      length: (m[2] ?? "").length,
      re: new RegExp(
        `^${(m[2] ?? "")
          .replace(/[.+?^{}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\\?\$$/, "$")}`,
      ),
    }));
  let best: { allow: boolean; length: number } = { allow: true, length: -1 };
  for (const r of rules) {
    if (!r.re.test(url)) continue;
    if (r.length > best.length || (r.length === best.length && r.allow)) best = r;
  }
  return best.allow;
}

/** The JSON-LD objects in a piece of HTML. */
function jsonLdIn(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "") as Record<string, unknown>,
  );
}

/** Collect a sitemap file's chunks. */
async function text(chunks: AsyncGenerator<string> | undefined): Promise<string | undefined> {
  if (!chunks) return undefined;
  let out = "";
  for await (const c of chunks) out += c;
  return out;
}

const songUrl = (id: string) => `${PUBLIC_URL}/song/${encodeURIComponent(id)}`;
const artistUrl = (id: string) => `${PUBLIC_URL}/artists/${encodeURIComponent(id)}`;
const match = (route: PageRoute, params: Record<string, string> = {}): PageMatch => ({ route, params });

/** A verified song, written straight into the tables with the id and credits given (odd ids upload cannot make). */
async function insertSong(
  ctx: TestContext,
  song: { id: string; title: string; artistId: string; artistName: string },
): Promise<void> {
  const at = "2024-06-01T12:00:00.000Z";
  const { db } = ctx.database;
  const known = await db.selectFrom("user").select("id").where("id", "=", song.artistId).executeTakeFirst();
  if (!known)
    await db
      .insertInto("user")
      .values({
        id: song.artistId,
        name: song.artistName,
        email: `${randomBytes(6).toString("hex")}@placeholder.invalid`,
        email_verified: false,
        created_at: at,
        updated_at: at,
        username: song.artistName,
        username_key: nameKey(song.artistName),
        is_artist: true,
        is_placeholder: true,
      })
      .execute();
  await db
    .insertInto("song")
    .values({
      id: song.id,
      title: song.title,
      title_key: nameKey(song.title),
      genre: "Rap",
      release_date: null,
      soundcloud_url: null,
      status: "verified",
      verified_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db.insertInto("song_artist").values({ song_id: song.id, artist_id: song.artistId, position: 0 }).execute();
}

// The sitemaps list every page a visitor may see and nothing else: verified songs that are not hidden, and the
// artists with one. robots.txt keeps crawlers off the member and admin pages and the API (but the covers).
describeEachDialect("SEO: sitemaps and robots.txt", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up } = useMembers(ctx, { up: "seo-sitemap@example.com" });
  const ids = { one: "", two: "", pending: "", hidden: "", band: "", guest: "", pendingArtist: "", hiddenArtist: "" };
  const ODD = { song: `it's&<odd>"1`, artist: `art's&<x>` };

  beforeAll(async () => {
    const add = async (u: User, title: string, artists: string[]) => {
      const res = await upload(ctx, u.cookie, { title, artists }, { name: "s.wav", data: wavFile(1, title) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; artists: { id: string; name: string }[] };
    };
    const one = await add(up, "Public One", ["Sitemap Band"]);
    const two = await add(up, "Public Two", ["Sitemap Band", "Guest Act"]);
    const pending = await add(up, "Pending Secret", ["Pending Only Artist"]);
    const hidden = await add(up, "Hidden Secret", ["Hidden Only Artist"]);
    Object.assign(ids, {
      one: one.id,
      two: two.id,
      pending: pending.id,
      hidden: hidden.id,
      band: one.artists[0]?.id,
      guest: two.artists[1]?.id,
      pendingArtist: pending.artists[0]?.id,
      hiddenArtist: hidden.artists[0]?.id,
    });
    await verify(ctx, one.id, two.id, hidden.id);
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hidden.id).execute();
    await ctx.database.db
      .updateTable("song")
      .set({ updated_at: "2024-03-04T05:06:07.000Z" })
      .where("id", "=", one.id)
      .execute();
    await insertSong(ctx, { id: ODD.song, title: "Odd One", artistId: ODD.artist, artistName: "Odd Artist" });
  });

  it("serves robots.txt: pages open, member and admin pages and the API closed but the covers, the sitemap named", async () => {
    const res = await get(ctx, "/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    const robots = res.body;
    expect(robots.startsWith("User-agent: *\n")).toBe(true);
    expect(robots).toContain(`\nSitemap: ${PUBLIC_URL}/sitemap.xml\n`);
    for (const url of ["/", "/about", "/landing", "/developers", "/song/abc", "/artists/xyz?era=Night", "/?q=x"])
      expect(robotsAllow(robots, url), url).toBe(true);
    expect(robotsAllow(robots, "/api/songs/abc/cover.svg?v=123")).toBe(true);
    for (const url of [
      "/api/songs",
      "/api/songs/abc/audio",
      "/api/export/songs.csv",
      "/admin/users",
      "/songs/abc/edit",
      "/songs/abc/suggest-edit",
      "/pending",
      "/favorites",
      "/login",
      "/upload",
      "/reports",
    ])
      expect(robotsAllow(robots, url), url).toBe(false);
    // Every page not meant for crawlers is closed, including pages added later: they are closed by default.
    const crawled = new Set<string>(CRAWLED_PAGES);
    for (const [route, pattern] of Object.entries(PAGE_ROUTES)) {
      const sample = `/${pattern.replace(/:[\w-]+/g, "abc")}`;
      expect(robotsAllow(robots, sample), `${route} ${sample}`).toBe(crawled.has(route));
    }
  });

  it("serves a sitemap index of the static pages' file and a block of songs and of artists", async () => {
    const res = await get(ctx, "/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(indexEntries(res.body)).toEqual([
      `${PUBLIC_URL}/sitemaps/pages.xml`,
      `${PUBLIC_URL}/sitemaps/songs-1.xml`,
      `${PUBLIC_URL}/sitemaps/artists-1.xml`,
    ]);
    const pages = await get(ctx, "/sitemaps/pages.xml");
    expect(pages.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(urlsetEntries(pages.body).map((e) => e.loc)).toEqual(
      ["/", "/about", "/landing", "/developers"].map((p) => `${PUBLIC_URL}${p}`),
    );
  });

  it("lists verified songs that are not hidden, with their last change, and never a pending or hidden one", async () => {
    const res = await get(ctx, "/sitemaps/songs-1.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    const entries = urlsetEntries(res.body);
    expect(entries.map((e) => e.loc).sort()).toEqual([songUrl(ids.one), songUrl(ids.two), songUrl(ODD.song)].sort());
    expect(entries.find((e) => e.loc === songUrl(ids.one))?.lastmod).toBe("2024-03-04T05:06:07Z");
    for (const e of entries) expect(e.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(res.body).not.toContain(ids.pending);
    expect(res.body).not.toContain(ids.hidden);
    // An id no URL encoding makes safe for XML (an apostrophe): escaped, and read back as the song's URL.
    expect(res.body).toContain(`${PUBLIC_URL}/song/it&#39;s%26%3Codd%3E%221`);
    expect((await get(ctx, "/sitemaps/songs-2.xml")).statusCode).toBe(404);
    for (const name of ["songs-0.xml", "songs-1.txt", "users-1.xml", "songs-01.xml", "..%2Fsitemap.xml"])
      expect((await get(ctx, `/sitemaps/${name}`)).statusCode, name).toBe(404);
  });

  it("lists the artists with a public song, and not those whose songs are all pending or hidden", async () => {
    const res = await get(ctx, "/sitemaps/artists-1.xml");
    expect(res.statusCode).toBe(200);
    const locs = urlsetEntries(res.body).map((e) => e.loc);
    expect(locs.sort()).toEqual([artistUrl(ids.band), artistUrl(ids.guest), artistUrl(ODD.artist)].sort());
    expect(res.body).not.toContain(ids.pendingArtist);
    expect(res.body).not.toContain(ids.hiddenArtist);
    // The member who uploaded is no artist.
    expect(res.body).not.toContain(up.id);
    expect(res.body).toContain(`${PUBLIC_URL}/artists/art&#39;s%26%3Cx%3E`);
  });

  it("pages the songs and artists by blocks of the page size, each block read by keyset", async () => {
    const repo = createSeoRepo(ctx.database);
    const songTotal = Number(
      (
        await ctx.database.db
          .selectFrom("song")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (const readChunk of [1, 2]) {
      const seo = createSeoService({ repo, publicUrl: PUBLIC_URL, pageSize: 2, readChunk });
      const files = indexEntries(await seo.index()).map((u) => u.slice(`${PUBLIC_URL}/sitemaps/`.length));
      const songFiles = files.filter((f) => f.startsWith("songs-"));
      expect(songFiles).toEqual(Array.from({ length: Math.ceil(songTotal / 2) }, (_, i) => `songs-${i + 1}.xml`));
      expect(songFiles.length).toBeGreaterThanOrEqual(3);
      const listed: string[] = [];
      for (const f of songFiles) {
        const entries = urlsetEntries((await text(await seo.file(f))) ?? "");
        expect(entries.length, f).toBeLessThanOrEqual(2);
        listed.push(...entries.map((e) => e.loc));
      }
      expect(listed.sort()).toEqual([songUrl(ids.one), songUrl(ids.two), songUrl(ODD.song)].sort());
      expect(await seo.file(`songs-${songFiles.length + 1}.xml`)).toBeUndefined();

      const artistFiles = files.filter((f) => f.startsWith("artists-"));
      const artists: string[] = [];
      for (const f of artistFiles) {
        const entries = urlsetEntries((await text(await seo.file(f))) ?? "");
        expect(entries.length, f).toBeLessThanOrEqual(2);
        artists.push(...entries.map((e) => e.loc));
      }
      expect(artistFiles.length).toBeGreaterThanOrEqual(3);
      expect(artists.sort()).toEqual([artistUrl(ids.band), artistUrl(ids.guest), artistUrl(ODD.artist)].sort());
    }
  });

  it("answers an empty catalogue with the first block of each, empty", async () => {
    const empty = {
      ...createSeoRepo(ctx.database),
      songCount: async () => 0,
      artistCount: async () => 0,
      songIdAt: async () => undefined,
      artistIdAt: async () => undefined,
    };
    const seo = createSeoService({ repo: empty, publicUrl: PUBLIC_URL });
    expect(indexEntries(await seo.index())).toEqual([
      `${PUBLIC_URL}/sitemaps/pages.xml`,
      `${PUBLIC_URL}/sitemaps/songs-1.xml`,
      `${PUBLIC_URL}/sitemaps/artists-1.xml`,
    ]);
    expect(urlsetEntries((await text(await seo.file("songs-1.xml"))) ?? "")).toEqual([]);
    expect(urlsetEntries((await text(await seo.file("artists-1.xml"))) ?? "")).toEqual([]);
  });
});

// The sitemap files read up to 50,000 rows each: they count as downloads in the per-address limits, the index as
// a public read.
describeEachDialect("SEO: per-address limits", (dialect) => {
  const ctx = useTestApp(dialect, { env: { PUBLIC_RATE_LIMIT: "2", EXPORT_RATE_LIMIT: "1" } });

  it("limits the sitemap files as downloads and the index as a read", async () => {
    const ip = "198.51.100.40";
    expect((await get(ctx, "/sitemaps/songs-1.xml", { ip })).headers["ratelimit-limit"]).toBe("1");
    const refused = await get(ctx, "/sitemaps/artists-1.xml", { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.tooManyExports);
    for (let i = 0; i < 2; i++) expect((await get(ctx, "/sitemap.xml", { ip })).statusCode).toBe(200);
    expect((await get(ctx, "/sitemap.xml", { ip })).statusCode).toBe(429);
    // robots.txt is a constant: never counted.
    const robots = await get(ctx, "/robots.txt", { ip });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers["ratelimit-limit"]).toBeUndefined();
  });
});

// The heads of the server-rendered pages: title, description, canonical URL, Open Graph and Twitter tags, and
// schema.org data; nothing of a pending or hidden song.
describeEachDialect("SEO: page heads", (dialect) => {
  const webDir = webDist();
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDir } });
  const { up } = useMembers(ctx, { up: "seo-heads@example.com" });
  const HOSTILE = `</script><script>alert(1)</script> & "quotes" <!-- $' $&`;
  const ids = { night: "", day: "", pending: "", hidden: "", hostile: "", band: "", guest: "", lonely: "" };
  let heads: ReturnType<typeof createPageHeads>;
  const headFor = async (m: PageMatch, search = "") => heads.headFor(m, new URLSearchParams(search));
  const ld = (head: PageHead | undefined): Record<string, unknown> => head?.jsonLd[0] ?? {};

  beforeAll(async () => {
    heads = createPageHeads({ database: ctx.database, publicUrl: PUBLIC_URL });
    const add = async (title: string, artists: string[], extra: Record<string, string | string[]> = {}) => {
      const res = await upload(
        ctx,
        up.cookie,
        { title, artists, genre: "Rap", ...extra },
        { name: "s.wav", data: wavFile(1, title) },
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; artists: { id: string; name: string }[] };
    };
    const night = await add("Night Drive", ["Head Band", "Guest Star"], {
      era: "Night Era",
      leakDate: "2024-05-01",
      producers: "Maker One",
    });
    const day = await add("Day Song", ["Head Band"], { era: "Day Era", leakDate: "2023-01-02" });
    const pending = await add("Secret Pending Title", ["Head Band"], { era: "Night Era" });
    const hidden = await add("Secret Hidden Title", ["Head Band"], { era: "Night Era" });
    const hostile = await add(HOSTILE, [`Evil </title><script>x()</script> Band`]);
    const lonely = await add("Lonely Pending", ["Lonely Artist"]);
    Object.assign(ids, {
      night: night.id,
      day: day.id,
      pending: pending.id,
      hidden: hidden.id,
      hostile: hostile.id,
      band: night.artists[0]?.id,
      guest: night.artists[1]?.id,
      lonely: lonely.artists[0]?.id,
    });
    await verify(ctx, night.id, day.id, hidden.id, hostile.id);
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hidden.id).execute();
    // The audio says 1 s; a known length shows as ISO 8601.
    await ctx.database.db.updateTable("song").set({ duration_sec: 205.4 }).where("id", "=", night.id).execute();
    await ctx.database.db
      .updateTable("user")
      .set({ bio: "A band of the night.\nTwo lines.", website: "https://headband.example/" })
      .where("id", "=", ids.band)
      .execute();
  });

  it("describes a public song as a MusicRecording, with its artists, length, leak date, era, genre and cover", async () => {
    const head = await headFor(match("song", { id: ids.night }));
    expect(head).toBeDefined();
    const song = (await get(ctx, `/api/songs/${ids.night}`)).json();
    expect(head).toMatchObject({
      title: "Night Drive · Head Band, Guest Star · Unheard",
      canonical: `${PUBLIC_URL}/song/${ids.night}`,
      ogType: "music.song",
      image: { url: `${PUBLIC_URL}${song.coverUrl}` },
    });
    expect(head?.description).toContain("Night Drive by Head Band, Guest Star");
    expect(head?.description).toContain("Night Era");
    expect(head?.description).toContain("leaked 2024-05-01");
    expect(ld(head)).toEqual({
      "@context": "https://schema.org",
      "@type": "MusicRecording",
      "@id": `${PUBLIC_URL}/song/${ids.night}`,
      name: "Night Drive",
      url: `${PUBLIC_URL}/song/${ids.night}`,
      byArtist: [
        { "@type": "MusicGroup", name: "Head Band", url: artistUrl(ids.band) },
        { "@type": "MusicGroup", name: "Guest Star", url: artistUrl(ids.guest) },
      ],
      duration: "PT3M25S",
      datePublished: "2024-05-01",
      inAlbum: {
        "@type": "MusicAlbum",
        name: "Night Era",
        url: `${artistUrl(ids.band)}?era=Night%20Era`,
        byArtist: { "@type": "MusicGroup", name: "Head Band", url: artistUrl(ids.band) },
      },
      genre: "Rap",
      image: `${PUBLIC_URL}${song.coverUrl}`,
      producer: [{ "@type": "Person", name: "Maker One" }],
      description: head?.description,
    });
    expect(head?.og).toEqual(
      expect.arrayContaining([
        ["music:duration", "205"],
        ["music:musician", artistUrl(ids.band)],
        ["music:album", `${artistUrl(ids.band)}?era=Night%20Era`],
      ]),
    );
  });

  it("gives pending and hidden songs no head, and no head to a song that does not exist", async () => {
    expect(await headFor(match("song", { id: ids.pending }))).toBeUndefined();
    expect(await headFor(match("song", { id: ids.hidden }))).toBeUndefined();
    expect(await headFor(match("song", { id: "no-such-song" }))).toBeUndefined();
  });

  it("describes an artist as a MusicGroup with its bio, links and newest public songs", async () => {
    const head = await headFor(match("artist", { artistId: ids.band }));
    expect(head).toMatchObject({
      title: "Head Band · Unheard",
      description: "A band of the night. Two lines.",
      canonical: artistUrl(ids.band),
      ogType: "profile",
    });
    expect(head?.robots).toBeUndefined();
    const group = ld(head);
    expect(group).toMatchObject({
      "@context": "https://schema.org",
      "@type": "MusicGroup",
      name: "Head Band",
      url: artistUrl(ids.band),
      description: "A band of the night. Two lines.",
      sameAs: ["https://headband.example/"],
      track: { "@type": "ItemList", numberOfItems: 2 },
    });
    expect(group.image).toMatch(new RegExp(`^${PUBLIC_URL}/api/songs/.+/cover\\.svg\\?v=`));
    const list = group.track as { itemListElement: { item: { name: string; url: string } }[] };
    const tracks = list.itemListElement.map((e) => e.item);
    expect(tracks.map((t) => t.name).sort()).toEqual(["Day Song", "Night Drive"]);
    expect(tracks).toContainEqual(expect.objectContaining({ "@type": "MusicRecording", url: songUrl(ids.night) }));
    expect(JSON.stringify(head)).not.toContain("Secret");
    // An artist with no public song: a page that says no more than a name stays out of the index.
    const lonely = await headFor(match("artist", { artistId: ids.lonely }));
    expect(lonely?.robots).toBe("noindex, follow");
    expect(ld(lonely).track).toMatchObject({ numberOfItems: 0, itemListElement: [] });
    expect(JSON.stringify(lonely)).not.toContain("Lonely Pending");
    expect(await headFor(match("artist", { artistId: "no-such-artist" }))).toBeUndefined();
  });

  it("describes an era of an artist (?era=<name>) as a MusicAlbum of its public songs", async () => {
    for (const search of ["era=night%20era", "view=eras&era=Night+Era"]) {
      const head = await headFor(match("artist", { artistId: ids.band }), search);
      expect(head, search).toMatchObject({
        title: "Night Era — Head Band · Unheard",
        canonical: `${artistUrl(ids.band)}?era=Night%20Era`,
        ogType: "music.album",
      });
      expect(head?.description).toContain("Night Era, an era of Head Band: 1 unreleased song (2024-05-01)");
      expect(ld(head)).toMatchObject({
        "@type": "MusicAlbum",
        name: "Night Era",
        url: `${artistUrl(ids.band)}?era=Night%20Era`,
        byArtist: { "@type": "MusicGroup", name: "Head Band", url: artistUrl(ids.band) },
        numTracks: 1,
        track: [{ "@type": "MusicRecording", name: "Night Drive", url: songUrl(ids.night) }],
      });
      // The era's pending and hidden songs are not its tracks.
      expect(JSON.stringify(head)).not.toContain("Secret");
    }
    // What the artist's page says of the era is its description.
    await ctx.database.db
      .insertInto("era")
      .values({
        id: "seo-era-1",
        artist_id: ids.band,
        name: "Day Era",
        name_key: nameKey("Day Era"),
        description: "Sunny songs.",
        cover_url: "https://img.example/day.png",
        starts_on: "2022-12",
        ends_on: null,
        created_at: "2024-01-01T00:00:00.000Z",
        updated_at: "2024-01-01T00:00:00.000Z",
      })
      .execute();
    const day = await headFor(match("artist", { artistId: ids.band }), "era=Day%20Era");
    expect(day).toMatchObject({ description: "Sunny songs.", image: { url: "https://img.example/day.png" } });
    // Another view, or an era the artist has no public song in: the artist's own page.
    for (const search of ["view=table&era=Night%20Era", "era=Secret%20Era", "era="]) {
      const head = await headFor(match("artist", { artistId: ids.band }), search);
      expect(head?.canonical, search).toBe(artistUrl(ids.band));
      expect(ld(head)["@type"], search).toBe("MusicGroup");
    }
  });

  it("keeps search results out of the index, and gives home, about, landing and developers their own heads", async () => {
    const search = await headFor(match("home"), "q=%20night%20drive%20&feed=trending");
    expect(search).toMatchObject({
      title: "Search: night drive · Unheard",
      canonical: `${PUBLIC_URL}/?q=night%20drive`,
      robots: "noindex, follow",
    });
    expect(renderHeadTags(search as PageHead)).toContain('<meta name="robots" content="noindex, follow" />');
    const home = await headFor(match("home"), "feed=trending&genre=Rap");
    expect(home?.robots).toBeUndefined();
    expect(home?.canonical).toBe(`${PUBLIC_URL}/`);
    expect(renderHeadTags(home as PageHead)).not.toContain('name="robots"');
    expect(ld(home)).toMatchObject({ "@type": "WebSite", url: `${PUBLIC_URL}/` });
    for (const [route, path, title] of [
      ["about", "/about", "About · Unheard"],
      ["landing", "/landing", "Early Access · Unheard"],
      ["developers", "/developers", "Developers · Unheard"],
    ] as const) {
      const head = await headFor(match(route));
      expect(head, route).toMatchObject({ title, canonical: `${PUBLIC_URL}${path}`, ogType: "website" });
      expect(head?.robots, route).toBeUndefined();
    }
    // Member and admin pages have no head of their own.
    for (const route of ["login", "pending", "adminUsers", "upload"] as const)
      expect(await headFor(match(route)), route).toBeUndefined();
  });

  it("gives Recent changes its head, and offers the changelogs' Atom feeds there and on artist and era pages", async () => {
    const atomLink = (title: string, href: string) =>
      `<link rel="alternate" type="application/atom+xml" title="${title}" href="${href}" />`;
    const changes = await headFor(match("changes"), "cursor=abc");
    expect(changes).toMatchObject({
      title: "Recent changes · Unheard",
      canonical: `${PUBLIC_URL}/changes`,
      ogType: "website",
      feeds: [{ title: "Recent changes on Unheard", href: `${PUBLIC_URL}/api/changes.atom` }],
    });
    expect(changes?.description).toContain("every artist's tracker");
    expect(renderHeadTags(changes as PageHead)).toContain(
      atomLink("Recent changes on Unheard", `${PUBLIC_URL}/api/changes.atom`),
    );
    const bandFeed = atomLink("Head Band: tracker updates", `${PUBLIC_URL}/api/artists/${ids.band}/changes.atom`);
    for (const search of ["", "era=Night%20Era"]) {
      const head = await headFor(match("artist", { artistId: ids.band }), search);
      expect(renderHeadTags(head as PageHead), search).toContain(bandFeed);
    }
    // A hostile artist name stays text in the feed's title.
    const hostileSong = (await get(ctx, `/api/songs/${ids.hostile}`)).json() as { artists: { id: string }[] };
    const evil = await headFor(match("artist", { artistId: hostileSong.artists[0]?.id ?? "" }));
    const tags = renderHeadTags(evil as PageHead);
    expect(tags).toContain('title="Evil &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; Band: tracker updates"');
    expect(tags).not.toContain("<script>x()");
    // Pages without a changelog offer no feed.
    for (const route of ["about", "developers"] as const)
      expect(renderHeadTags((await headFor(match(route))) as PageHead), route).not.toContain('rel="alternate"');
    // The page as served.
    const page = await get(ctx, "/changes");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<title>Recent changes · Unheard</title>");
    expect(page.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/changes" />`);
    expect(page.body).toContain(atomLink("Recent changes on Unheard", `${PUBLIC_URL}/api/changes.atom`));
    expect((await get(ctx, `/artists/${ids.band}`)).body).toContain(bandFeed);
  });

  it("escapes a hostile title and artist name in the tags and in the JSON-LD", async () => {
    const head = (await headFor(match("song", { id: ids.hostile }))) as PageHead;
    expect(head.title.startsWith(HOSTILE)).toBe(true);
    const tags = renderHeadTags(head);
    // One title, the only script elements are the JSON-LD, and no markup of the title survives as markup.
    expect(tags.match(/<title>/g)).toHaveLength(1);
    expect(tags.match(/<script/g)).toHaveLength(head.jsonLd.length);
    expect(tags.match(/<\/script>/g)).toHaveLength(head.jsonLd.length);
    expect(tags).not.toContain("<script>alert");
    expect(tags).not.toContain("</title><script>");
    expect(tags).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &lt;!--");
    expect(tags).toContain("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u0026");
    expect(tags).not.toContain("<!--");
    // The JSON-LD reads back as the song: its title and artist name whole.
    const [data] = jsonLdIn(tags);
    expect(data?.name).toBe(HOSTILE);
    expect(data?.byArtist).toEqual([expect.objectContaining({ name: "Evil </title><script>x()</script> Band" })]);
    expect(jsonLdText({ a: "</script>\u2028" })).toBe('{"a":"\\u003c/script\\u003e\\u2028"}');
  });

  it("serves /song/:id with its title, canonical URL and JSON-LD in the head; a pending song's page says nothing", async () => {
    const res = await get(ctx, `/song/${ids.night}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain("<title>Night Drive · Head Band, Guest Star · Unheard</title>");
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/song/${ids.night}" />`);
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/song/${ids.night}" />`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    // The page's own description replaces the generic one.
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).not.toContain("Generic description.");
    const data = jsonLdIn(html);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ "@type": "MusicRecording", name: "Night Drive", duration: "PT3M25S" });
    expect(html).toContain('<div id="root"></div>');

    const hostile = (await get(ctx, `/song/${ids.hostile}`)).body;
    expect(hostile.match(/<title>/g)).toHaveLength(1);
    expect(hostile.match(/<script/g)).toHaveLength(2);
    expect(jsonLdIn(hostile)[0]?.name).toBe(HOSTILE);

    // Pending: visitors get a 404 and members the page, both without the song's title or data (issue 24).
    for (const cookie of [undefined, up.cookie]) {
      const pending = await get(ctx, `/song/${ids.pending}`, cookie ? { cookie } : {});
      expect(pending.statusCode).toBe(cookie ? 200 : 404);
      expect(pending.body).toContain("<title>Unheard</title>");
      expect(pending.body).not.toContain("Secret Pending Title");
      expect(pending.body).not.toContain("application/ld+json");
    }
    const artist = await get(ctx, `/artists/${ids.band}?era=Night%20Era`);
    expect(artist.body).toContain("<title>Night Era — Head Band · Unheard</title>");
    const search = await get(ctx, "/?q=night");
    expect(search.body).toContain('<meta name="robots" content="noindex, follow" />');
    expect((await get(ctx, "/artists/no-such-artist")).statusCode).toBe(404);
  });
});

import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { App } from "../http.js";
import { member, upload, verify } from "../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../test/harness.js";
import { useWebDist } from "../test/web-dist.js";
import {
  canonicalPage,
  createPageRendering,
  isCanonicalRequest,
  type RenderBudget,
  type RendererModule,
} from "./page-render.js";

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

/** A renderer that notes each URL it renders (path and query), to tell renders from pages served as kept. */
function countingRenderer(): { module: RendererModule; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    module: {
      createPageRenderer() {
        const render = renderer.createPageRenderer();
        return (url, transport) => {
          const u = new URL(url);
          urls.push(u.pathname + u.search);
          return render(url, transport);
        };
      },
    },
  };
}

// Issue 38: a page is rendered and kept by the parameters it reads, nothing else; any other URL is redirected to it.
describeEachDialect("server-rendered pages at their canonical URLs", (dialect) => {
  const counted = countingRenderer();
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDist() }, renderer: counted.module });
  let songId = "";
  let artistId = "";

  beforeAll(async () => {
    const owner = await member(ctx, "ssr-canonical@example.com");
    const song = (
      await upload(ctx, owner.cookie, { title: "Canon Lantern", artists: ["Canon Choir"], era: "Canon Era" })
    ).json();
    await verify(ctx, song.id);
    songId = song.id;
    artistId = song.artists[0].id;
  });

  it("redirects parameters a page does not read and values it ignores", async () => {
    const cases: [string, string][] = [
      ["/?utm_source=feed", "/"],
      ["/?x=1&genre=Pop", "/?genre=Pop"],
      ["/?genre=pop&release=all", "/"],
      ["/?next7=true&quality=lossless&availability=nope", "/?next7=1&quality=lossless"],
      ["/?q=%20canon%20lantern%20&genre=Pop", "/?q=canon+lantern"],
      ["/?q=%20%20&genre=Rock", "/?genre=Rock"],
      [`/?q=${"a".repeat(150)}`, `/?q=${"a".repeat(100)}`],
      ["/landing?ref=ad", "/landing"],
      [`/song/${songId}?fbclid=abc`, `/song/${songId}`],
      [`/artists/${artistId}?view=eras&era=Canon%20Era&sort=name`, `/artists/${artistId}?era=Canon+Era`],
      [`/artists/${artistId}?era=`, `/artists/${artistId}`],
      [`/artists/${artistId}?view=cards&era=X&q=y`, `/artists/${artistId}?view=cards`],
      [
        `/artists/${artistId}?view=table&sort=leak&dir=desc&tag=bogus&q=intro&utm=1`,
        `/artists/${artistId}?view=table&sort=leak&dir=desc&q=intro`,
      ],
      [`/artists/${artistId}?view=table&dir=up&quality=unknown`, `/artists/${artistId}?view=table&quality=unknown`],
    ];
    const before = counted.urls.length;
    for (const [from, to] of cases) {
      for (const method of ["GET", "HEAD"] as const) {
        const res = await ctx.app.inject({ method, url: from });
        expect(res.statusCode, `${method} ${from}`).toBe(301);
        expect(res.headers.location, from).toBe(to);
        expect(res.headers["cache-control"], from).toBe("public, max-age=3600");
      }
      // The canonical URL itself is answered, not redirected again.
      expect((await get(ctx, to)).statusCode, to).toBe(200);
    }
    // Only the canonical URLs were rendered.
    expect(counted.urls.slice(before).every((u) => cases.some(([, to]) => to === u))).toBe(true);
  });

  it("renders and keeps one page for every spelling of its URL, and none for a flood of unknown parameters", async () => {
    const before = counted.urls.length;
    for (const url of ["/?q=canon+lant", "/?q=canon%20lant", "/?q=%63anon+lant"]) {
      const res = await get(ctx, url);
      expect(res.statusCode, url).toBe(200);
      expect(rootHtml(res.body), url).toContain("Canon Lantern");
    }
    for (const url of ["/?genre=Pop&release=dated", "/?release=dated&genre=Pop"])
      expect((await get(ctx, url)).statusCode, url).toBe(200);
    // Another letter case or a trailing slash is the same page to the browser's router: answered in place.
    for (const url of ["/landing", "/Landing", "/landing/", "/LANDING//"])
      expect((await get(ctx, url)).statusCode, url).toBe(200);
    const made = counted.urls.slice(before);
    expect(made.filter((u) => u !== "/landing")).toEqual(["/?q=canon+lant", "/?genre=Pop&release=dated"]);
    expect(made.filter((u) => u === "/landing").length).toBeLessThanOrEqual(1);
    // A scan of one-off query strings is answered by redirects: no render, nothing kept.
    const routes = ["/", "/about", "/landing", `/song/${songId}`, `/artists/${artistId}`];
    const flood = await Promise.all(Array.from({ length: 200 }, (_, i) => get(ctx, `${routes[i % 5]}?x=${i}`)));
    expect(flood.every((r) => r.statusCode === 301)).toBe(true);
    expect(counted.urls.length).toBe(before + made.length);
  });

  it("leaves the query of pages the browser renders alone", async () => {
    for (const url of ["/login?next=%2Fupload", "/reset-password?token=abc", "/admin/users?q=x"]) {
      const res = await get(ctx, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
  });
});

/** How the web app reads a URL's query (its own functions): what a canonical URL must keep. */
type WebReaders = {
  filtersFromParams(params: URLSearchParams): unknown;
  viewFromParams(params: URLSearchParams): string | null;
  tableFromParams(params: URLSearchParams): unknown;
};
// In variables: the server's compiler does not type-check the web app.
const SONGS_MODULE = "../../../web/src/features/songs/songs.ts";
const TRACKER_MODULE = "../../../web/src/features/artists/tracker-model.ts";
const web = {
  ...((await import(/* @vite-ignore */ SONGS_MODULE)) as Pick<WebReaders, "filtersFromParams">),
  ...((await import(/* @vite-ignore */ TRACKER_MODULE)) as Pick<WebReaders, "viewFromParams" | "tableFromParams">),
} as WebReaders;

/** What the home page shows for a query: search results for the trimmed term, or the feeds with their filters. */
function homeState(q: URLSearchParams): unknown {
  const term = q.get("q")?.trim() ?? "";
  return term ? { term: term.slice(0, 100) } : { filters: web.filtersFromParams(q) };
}
/** What the artist page shows for a query: its view, and the era or the table's state. */
function artistState(q: URLSearchParams): unknown {
  const view = web.viewFromParams(q) ?? "eras";
  if (view === "eras") return { view, era: q.get("era") || null };
  return view === "table" ? { view, table: web.tableFromParams(q) } : { view };
}

describe("canonical page URLs", () => {
  const names = ["q", "genre", "release", "next7", "availability", "quality", "view", "era", "sort", "dir", "tag"];
  const values = [
    ...["", " ", "x", "1", "true", "Pop", "pop", "Rock", "all", "dated", "all_unreleased", "released"],
    ...["snippet", "og_file", "lossless", "unknown", "eras", "table", "cards", "name", "leak", "desc", "asc"],
    ...["confirmed", " Era One ", "a+b", "é"],
  ];
  const query = fc
    .array(fc.tuple(fc.constantFrom(...names, "utm_source", "x"), fc.oneof(fc.constantFrom(...values), fc.string())), {
      maxLength: 8,
    })
    .map((pairs) => new URLSearchParams(pairs));
  const home = { route: "home", params: {} } as const;
  const artist = { route: "artist", params: { artistId: "a1" } } as const;

  it("keeps what the home and artist pages read from any query, exactly as the web app reads it", () => {
    fc.assert(
      fc.property(query, (q) => {
        const h = canonicalPage(home, q);
        const a = canonicalPage(artist, q);
        expect(homeState(new URLSearchParams(h?.params))).toEqual(homeState(q));
        expect(artistState(new URLSearchParams(a?.params))).toEqual(artistState(q));
      }),
      { numRuns: 2000 },
    );
  });

  it("is its own canonical URL, however it is spelt", () => {
    fc.assert(
      fc.property(query, fc.constantFrom(home, artist), (q, match) => {
        const page = canonicalPage(match, q);
        if (!page) throw new Error("no canonical page");
        const search = new URL(page.url, "http://x").searchParams;
        expect(canonicalPage(match, search)?.url).toBe(page.url);
        expect(isCanonicalRequest(search, page)).toBe(true);
        // Reversed order and %20 for the spaces: the same page, not a redirect.
        const respelt = new URLSearchParams([...search].reverse()).toString().replace(/\+/g, "%20");
        expect(isCanonicalRequest(new URLSearchParams(respelt), page)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives every server-rendered page one path, and none to pages the browser renders", () => {
    expect(canonicalPage({ route: "song", params: { id: "a/b c" } }, new URLSearchParams("x=1"))).toEqual({
      url: "/song/a%2Fb%20c",
      path: "/song/a%2Fb%20c",
      params: [],
    });
    expect(canonicalPage({ route: "about", params: {} }, new URLSearchParams())?.url).toBe("/about");
    expect(canonicalPage({ route: "login", params: {} }, new URLSearchParams("next=/x"))).toBeUndefined();
  });
});

describe("render budget", () => {
  const TEMPLATE_PAGE = '<div id="root"></div>';
  /**
   * A page rendering whose renders take `renderMs` on a clock the test moves, with other requests arriving during
   * each render while `busy` is set.
   */
  function rendering(budget: RenderBudget, renderMs = 100) {
    let clock = 0;
    let renders = 0;
    let arrivals = 0;
    let busy = false;
    let hold: Promise<void> | undefined;
    const module: RendererModule = {
      createPageRenderer: () => async () => {
        renders++;
        await hold;
        clock += renderMs;
        if (busy) arrivals += 3;
        return { kind: "page", status: 200, html: `<p>render ${renders}</p>`, dataScript: "", failed: false };
      },
    };
    const pages = createPageRendering({
      app: {} as App,
      module,
      ttlMs: 10_000,
      maxBytes: 1_000_000,
      budget,
      now: () => clock,
      arrivals: () => arrivals,
    });
    return {
      pages,
      doc: (url: string) => pages.document(url, TEMPLATE_PAGE, "192.0.2.1"),
      tick: (ms: number) => {
        clock += ms;
      },
      busy: (on: boolean) => {
        busy = on;
      },
      holdRenders: () => {
        let release = () => {};
        hold = new Promise<void>((r) => {
          release = r;
        });
        return () => {
          hold = undefined;
          release();
        };
      },
      renders: () => renders,
    };
  }

  it("costs nothing for renders nobody waited for", async () => {
    const r = rendering({ share: 0.2, refreshesPerSecond: 1, inFlight: 4 });
    for (let i = 0; i < 50; i++) expect(await r.doc(`/p${i}`), `/p${i}`).toBeDefined();
    expect(r.renders()).toBe(50);
  });

  it("gives renders others waited for at most its share of the time, and refreshes of kept pages their own", async () => {
    const r = rendering({ share: 0.2, refreshesPerSecond: 1, inFlight: 4 });
    r.busy(true);
    // Three renders of 100 ms others waited for: more than a fifth of a second is owed, and no new page starts.
    for (const url of ["/a", "/b", "/c"]) expect(await r.doc(url), url).toBeDefined();
    expect(await r.doc("/d")).toBeUndefined();
    expect(r.renders()).toBe(3);
    // Kept pages are served without a render whatever the budget.
    expect((await r.doc("/a"))?.body).toContain("render 1");
    // Half a second pays back 100 ms: one more page.
    r.tick(500);
    expect(await r.doc("/d")).toBeDefined();
    expect(await r.doc("/e")).toBeUndefined();
    // Expired pages are refreshes, from their own budget: a flood of new pages cannot take it.
    r.tick(10_000);
    expect(r.pages.peek("/a")).toBeUndefined();
    for (let i = 0; i < 10; i++) await r.doc(`/new${i}`);
    expect((await r.doc("/a"))?.body).toContain(`render ${r.renders()}`);
    expect(await r.doc("/b")).toBeUndefined();
    expect(r.pages.lastKnown("/b")?.body).toContain("render 2");
    // Past a minute beyond its TTL a page is no longer kept for lastKnown.
    r.tick(70_000);
    expect(r.pages.lastKnown("/b")).toBeUndefined();
  });

  it("runs at most its number of renders at once", async () => {
    const r = rendering({ share: 1, refreshesPerSecond: 100, inFlight: 2 });
    const release = r.holdRenders();
    const running = [r.doc("/a"), r.doc("/b")];
    expect(await r.doc("/c")).toBeUndefined();
    // Asking again for a page being rendered waits for that render.
    const again = r.doc("/a");
    release();
    expect((await Promise.all([...running, again])).every(Boolean)).toBe(true);
    expect(r.renders()).toBe(2);
    expect(await r.doc("/c")).toBeDefined();
  });
});

// The per-address budget of the public reads covers every page, checked before anything is looked up or rendered;
// a render's own API reads count against the same address (a song page: the page, its song, history and versions).
describeEachDialect("server-rendered pages under the per-address limits", (dialect) => {
  const counted = countingRenderer();
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDist(), PUBLIC_RATE_LIMIT: "6" }, renderer: counted.module });
  const from = (url: string, ip: string) => ctx.app.inject({ method: "GET", url, remoteAddress: ip });
  const exhaust = async (ip: string, reads: number) => {
    for (let i = 0; i < reads; i++) expect((await from("/api/songs", ip)).statusCode).toBe(200);
  };

  it("counts every page route against the address and refuses past the budget with 429, before any render", async () => {
    const owner = await member(ctx, "ssr-budget@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Budget Song", artists: ["Budget Band"] })).json();
    await verify(ctx, song.id);
    const pagesOf = ["/about", "/landing", "/", "/?q=budget", `/song/${song.id}`, `/artists/${song.artists[0].id}`];
    for (const [i, url] of pagesOf.entries()) {
      const ip = `198.51.100.${i + 1}`;
      await exhaust(ip, 6);
      const renders = counted.urls.length;
      const refused = await from(url, ip);
      expect(refused.statusCode, url).toBe(429);
      expect(Number(refused.headers["retry-after"]), url).toBeGreaterThan(0);
      expect(refused.headers["ratelimit-remaining"], url).toBe("0");
      expect(refused.headers["content-type"], url).toContain("text/html");
      expect(refused.body, url).toContain("Too many pages were asked for from your address");
      expect(counted.urls.length, `${url}: no render`).toBe(renders);
      // Another address has its own budget; the page is rendered for it.
      const other = await from(url, `203.0.113.${i + 1}`);
      expect(other.statusCode, url).toBe(200);
      expect(other.headers["ratelimit-limit"], url).toBe("6");
    }
    // Pages the browser renders, and paths no page has, count too.
    for (const url of ["/login", "/no-such-page"]) {
      const ip = "198.51.100.99";
      const res = await from(url, ip);
      expect(res.headers["ratelimit-limit"], url).toBe("6");
    }
    // A page served from memory costs one read of the budget as well.
    const ip = "198.51.100.77";
    for (let i = 0; i < 6; i++) expect((await from("/about", ip)).statusCode).toBe(200);
    expect((await from("/about", ip)).statusCode).toBe(429);
  });

  it("sends the plain app when a render's data is refused, and shares no broken page", async () => {
    const owner = await member(ctx, "ssr-limit@example.com");
    const song = (await upload(ctx, owner.cookie, { title: "Limited Song", artists: ["Rate Band"] })).json();
    await verify(ctx, song.id);
    // The page itself is the address's sixth read: allowed; its song read is the seventh, refused.
    await exhaust("10.9.9.9", 5);
    const limited = await from(`/song/${song.id}`, "10.9.9.9");
    expect(limited.statusCode).toBe(200);
    expect(limited.body).toContain('<div id="root"></div>');
    const other = await from(`/song/${song.id}`, "10.1.1.1");
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
    await exhaust("10.7.7.7", 5);
    await exhaust("10.7.7.8", 5);
    // Limited and unlimited askers at once, on pages no one has rendered yet: each limited asker's page is its last
    // read allowed, and the render's own reads are refused.
    const askers = ["10.8.8.0", "10.7.7.7", "10.8.8.2", "10.7.7.8"];
    const pages = await Promise.all(songs.map((song, i) => from(`/song/${song.id}`, askers[i] ?? "")));
    pages.forEach((page, i) => {
      if (i % 2) expect(page.body, `limited ${i}`).toContain('<div id="root"></div>');
      else expect(rootHtml(page.body), `free ${i}`).toContain(songs[i]?.title ?? "(no song)");
    });
  });
});

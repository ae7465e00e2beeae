// Issue 38, newcomer finding 14: a server-rendered page's own screen was fetched only once the app's entry had loaded
// and run. The web build lists each page's screen files in a comment of index.html; the page's head preloads them.
import { expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/harness.js";
import { useWebDist } from "../../test/web-dist.js";
import { injectHead, type PageHead, preloadTags, routeChunksOf } from "./page-head.js";

const CHUNKS = {
  song: ["/assets/song-page-a1.js", "/assets/vote-buttons-b2.js"],
  about: ["/assets/about-page-c3.js"],
  upload: ["/assets/upload-page-d4.js"],
};

/** The build's comment for `chunks` (apps/web/src/build/route-chunks.ts routeChunksComment): each file once. */
function comment(chunks: Record<string, string[]>): string {
  const files = [...new Set(Object.values(chunks).flat())];
  const routes = Object.fromEntries(Object.entries(chunks).map(([r, list]) => [r, list.map((f) => files.indexOf(f))]));
  return `<!--unheard:route-chunks ${JSON.stringify({ files, routes })}-->`;
}

/** index.html as the web build writes it: the app's entry in the head, then the list of each screen's files. */
const template = (list = comment(CHUNKS)) =>
  [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="UTF-8" />',
    '    <meta name="description" content="Generic description." />',
    "    <title>Unheard</title>",
    '    <script type="module" crossorigin src="/assets/index-e5.js"></script>',
    `    ${list}`,
    '  </head><body><div id="root"></div></body></html>',
  ].join("\n");

const head = (route?: PageHead["route"]): PageHead => ({
  title: "About · Unheard",
  description: "About.",
  canonical: "http://localhost:3000/about",
  ogType: "website",
  og: [],
  twitterCard: "summary",
  jsonLd: [],
  ...(route ? { route } : {}),
});

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)];

it("preloads the page's screen files in the head, after the app's entry, and drops the build's list", () => {
  const html = injectHead(template(), head("song"));
  expect(preloads(html).map((m) => m[1])).toEqual(CHUNKS.song);
  // In the head, right after the entry script: the browser asks for the entry first, then these, before it runs.
  const entry = html.indexOf("/assets/index-e5.js");
  for (const m of preloads(html)) {
    expect(m.index).toBeGreaterThan(entry);
    expect(m.index).toBeLessThan(html.indexOf("</head>"));
  }
  expect(html).not.toContain("unheard:route-chunks");
  expect(html).not.toContain("about-page-c3");
});

it("preloads nothing for a head without a route, an unlisted route or an unreadable list", () => {
  expect(preloads(injectHead(template(), head()))).toEqual([]);
  expect(preloads(injectHead(template(), head("artist")))).toEqual([]);
  const broken = injectHead(template("<!--unheard:route-chunks {not json}-->"), head("song"));
  expect(preloads(broken)).toEqual([]);
  expect(routeChunksOf(template('<!--unheard:route-chunks {"files":3,"routes":{}}-->')).chunks).toEqual({});
  // A place outside the list names no file.
  expect(routeChunksOf(template(comment({}).replace('"routes":{}', '"routes":{"song":[7]}'))).chunks).toEqual({
    song: [],
  });
  expect(broken).not.toContain("unheard:route-chunks");
  expect(broken).toContain("<title>About · Unheard</title>");
  // Without a build's list (an older build): the page as before.
  const plain = template("");
  expect(injectHead(plain, head("song"))).toContain("<title>About · Unheard</title>");
  expect(routeChunksOf(plain).chunks).toEqual({});
});

it("takes only asset paths from the list, so nothing in it can break out of the tag", () => {
  const hostile = { song: ['/assets/x.js" onload="alert(1)', "https://evil.example/x.js", "/assets/ok-1.js"] };
  expect(preloadTags(hostile, "song")).toEqual(['<link rel="modulepreload" crossorigin href="/assets/ok-1.js" />']);
  expect(preloadTags({ song: "not a list" } as never, "song")).toEqual([]);
});

describeEachDialect("pages served with their screen's preloads", (dialect) => {
  const webDir = useWebDist({ "index.html": template() });
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDir } });

  it("sends a page with a head its preloads, and a member page as it always was", async () => {
    const about = await ctx.app.inject({ method: "GET", url: "/about" });
    expect(about.statusCode).toBe(200);
    expect(preloads(about.body).map((m) => m[1])).toEqual(CHUNKS.about);
    expect(about.body).not.toContain("unheard:route-chunks");
    // A member page has no head of its own: the browser renders it, as before.
    const upload = await ctx.app.inject({ method: "GET", url: "/upload" });
    expect(upload.statusCode).toBe(200);
    expect(preloads(upload.body)).toEqual([]);
  });
});

import { EXPORT_CSV_COLUMNS, type ExportSong, MESSAGES } from "@unheard/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { insertVerifiedSongs, parseCsv } from "../../test/export-fixtures.js";
import { getAs as get, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { LIGHT_ROUTES, UNCOUNTED_ROUTES } from "./open-data.routes.js";
import { csvField } from "./open-data.service.js";

/** Routes outside /api/ the server answers itself (modules/seo). */
const SERVER_DOCUMENTS = ["/robots.txt", "/sitemap.xml", "/sitemaps/:file"];

/** GET an export, checking the download headers: its type, a dated attachment name and a five-minute public cache. */
async function getExport(ctx: TestContext, kind: "csv" | "json", contentType: string) {
  const res = await get(ctx, `/api/export/songs.${kind}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe(contentType);
  expect(res.headers["content-disposition"]).toMatch(
    new RegExp(`^attachment; filename="unheard-songs-\\d{4}-\\d{2}-\\d{2}\\.${kind}"$`),
  );
  expect(res.headers["cache-control"]).toBe("public, max-age=300");
  return res;
}

/** The export's records keyed by column name (header row first in `rows`). */
function csvObjects(body: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(body);
  expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
  return rows.map((r) => Object.fromEntries(r.map((v, i) => [header?.[i] ?? "", v])));
}

describe("CSV fields", () => {
  it("quotes per RFC 4180 and keeps spreadsheets from running text as a formula", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(null)).toBe("");
    expect(csvField(-3)).toBe("-3");
    expect(csvField('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    for (const start of ["=", "+", "-", "@", "\t"]) expect(csvField(`${start}x`)).toBe(`'${start}x`);
    expect(csvField("\rx")).toBe('"\'\rx"');
    expect(csvField('=HYPERLINK("http://x","go")')).toBe('"\'=HYPERLINK(""http://x"",""go"")"');
  });

  // Issue 38: spreadsheets set up for East Asian input read ＝SUM(1) as =SUM(1).
  it("guards the fullwidth and other compatibility forms of the formula signs too", () => {
    const forms = ["\uFF1D", "\uFF0B", "\uFF0D", "\uFF20", "\uFE66", "\uFE62", "\uFE63", "\uFE6B", "\u207C", "\u208A"];
    for (const start of forms) expect(csvField(`${start}HYPERLINK(1)`), start).toBe(`'${start}HYPERLINK(1)`);
    // Text that only looks alike elsewhere, or starts with another sign, is left as it is.
    for (const text of ["a＝b", "−3 dB", "＃1", "ｈｉ", "😀=1"]) expect(csvField(text), text).toBe(text);
  });
});

/** Leak details written into one song's row that the CSV gives back as they are (text columns). */
const TEXT_DETAILS = {
  era: "Tour Era",
  leak_date: "2024-12-24",
  availability: "snippet",
  quality: "lossless",
  notes: "First line\nsecond line",
  version_kind: "remix",
};

// The exports list every verified, visible song page by page (keyset on the id), as CSV and as one JSON array.
describeEachDialect("Open data exports", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up } = useMembers(ctx, { up: "exporter@example.com" });
  const shown: Record<string, string> = {};
  let bulk: string[] = [];

  it("answers an empty catalogue with a header row and an empty array", async () => {
    const csv = await get(ctx, "/api/export/songs.csv");
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe(`\uFEFF${EXPORT_CSV_COLUMNS.join(",")}\r\n`);
    const json = await get(ctx, "/api/export/songs.json");
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual([]);
  });

  describe("with songs", () => {
    beforeAll(async () => {
      const add = async (title: string, artists: string[]) =>
        (await upload(ctx, up.cookie, { title, artists, genre: "Pop", releaseDate: "2025-02-03" })).json().id as string;
      shown.formula = await add("=HYPERLINK(1)", ["Formula Band", "Second Act"]);
      shown.quoted = await add('Say "Hi", Again', ["Quote Band"]);
      const fullwidth = { title: "\uFF1DHYPERLINK(2)", artists: ["Width Band"], era: "\uFF0BPlus Era" };
      shown.fullwidth = (await upload(ctx, up.cookie, fullwidth)).json().id as string;
      const pending = await add("Still Pending", ["Quote Band"]);
      const hidden = await add("Hidden Away", ["Quote Band"]);
      await verify(ctx, shown.formula ?? "", shown.quoted ?? "", shown.fullwidth, hidden);
      await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hidden).execute();
      await ctx.database.db
        .updateTable("song")
        .set({
          ...TEXT_DETAILS,
          producers: JSON.stringify(["Maker One", "Maker Two"]),
          features: JSON.stringify(["Guest"]),
          version_of: shown.formula,
        })
        .where("id", "=", shown.quoted)
        .execute();
      shown.pending = pending;
      shown.hidden = hidden;
      // More than one page of 1,000, so the keyset paging is crossed.
      bulk = await insertVerifiedSongs(ctx.database.db, 2100, { prefix: "zbulk", artists: 7 });
    });

    it("streams every verified, visible song as CSV with the download headers", async () => {
      const res = await getExport(ctx, "csv", "text/csv; charset=utf-8; header=present");
      expect(res.body.startsWith("\uFEFFid,title,artists,")).toBe(true);
      const rows = csvObjects(res.body);
      expect(rows).toHaveLength(3 + bulk.length);
      const ids = rows.map((r) => r.id);
      expect(ids).toEqual([...ids].sort());
      expect(ids).not.toContain(shown.pending);
      expect(ids).not.toContain(shown.hidden);
      expect(new Set(ids).size).toBe(ids.length);

      const formula = rows.find((r) => r.id === shown.formula);
      expect(formula).toMatchObject({
        title: "'=HYPERLINK(1)",
        artists: "Formula Band; Second Act",
        genre: "Pop",
        release_date: "2025-02-03",
        url: `http://localhost:3000/song/${shown.formula}`,
        producers: "",
      });
      expect(rows.find((r) => r.id === shown.fullwidth)).toMatchObject({
        title: "'\uFF1DHYPERLINK(2)",
        era: "'\uFF0BPlus Era",
      });
      const quoted = rows.find((r) => r.id === shown.quoted);
      expect(quoted).toMatchObject({
        title: 'Say "Hi", Again',
        ...TEXT_DETAILS,
        producers: "Maker One; Maker Two",
        features: "Guest",
        version_of: shown.formula,
        upvotes: "0",
        downvotes: "0",
        favorites: "0",
      });
      expect(quoted?.verified_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
      expect(quoted?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
      const last = rows.find((r) => r.id === bulk.at(-1));
      expect(last).toMatchObject({ id: bulk.at(-1), title: `Bulk Song ${bulk.length - 1}` });
    });

    it("guards the artist's tracker sheet the same way", async () => {
      const song = (await get(ctx, `/api/songs/${shown.fullwidth}`)).json();
      const res = await get(ctx, `/api/artists/${song.artists[0].id}/tracker.csv`);
      expect(res.statusCode).toBe(200);
      const [header, row] = parseCsv(res.body.replace(/^\uFEFF/, ""));
      const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
      expect(cell("Name")).toBe("'\uFF1DHYPERLINK(2)");
      expect(cell("Era")).toBe("'\uFF0BPlus Era");
    });

    it("streams the same songs as one JSON array", async () => {
      const res = await getExport(ctx, "json", "application/json; charset=utf-8");
      const items = res.json() as ExportSong[];
      expect(items).toHaveLength(3 + bulk.length);
      const csvIds = csvObjects((await get(ctx, "/api/export/songs.csv")).body).map((r) => r.id);
      expect(items.map((s) => s.id)).toEqual(csvIds);
      const quoted = items.find((s) => s.id === shown.quoted);
      expect(quoted).toMatchObject({
        title: 'Say "Hi", Again',
        artists: [{ name: "Quote Band" }],
        producers: ["Maker One", "Maker Two"],
        features: ["Guest"],
        versionOf: shown.formula,
        versionKind: "remix",
        url: `http://localhost:3000/song/${shown.quoted}`,
        releaseDate: "2025-02-03",
        soundcloudUrl: null,
      });
      expect(quoted?.artists[0]?.id).toEqual(expect.any(String));
      // Text is data in JSON: no formula guard there.
      expect(items.find((s) => s.id === shown.formula)?.title).toBe("=HYPERLINK(1)");
      const bulkSong = items.find((s) => s.id === bulk[4]);
      expect(bulkSong).toMatchObject({ title: "Bulk Song 4", upvotes: 7, downvotes: 0, favoriteCount: 4 });
    });

    it("documents the public API and the exports in the OpenAPI document", async () => {
      const doc = (await get(ctx, "/api/openapi.json")).json();
      expect(doc.tags).toContainEqual(expect.objectContaining({ name: "open data" }));
      for (const path of [
        "/api/songs",
        "/api/songs/{id}",
        "/api/artists/{id}",
        "/api/artists/{id}/songs",
        "/api/search",
        "/api/export/songs.csv",
        "/api/export/songs.json",
      ]) {
        const op = doc.paths[path]?.get;
        expect(op?.tags, path).toContain("open data");
        expect(op?.summary, path).toEqual(expect.any(String));
        expect(op?.responses?.["429"], path).toBeDefined();
      }
    });
  });
});

// Who may keep an answer: visitors' reads are public (revalidated with the ETag), members' private.
describeEachDialect("Public API caching", (dialect) => {
  const ctx = useTestApp(dialect);
  const { fan } = useMembers(ctx, { fan: "cache-fan@example.com" });
  let songId = "";
  let artistId = "";

  beforeAll(async () => {
    [songId = ""] = await insertVerifiedSongs(ctx.database.db, 1, { prefix: "cache", artists: 1 });
    artistId = "cacheartist0000";
  });

  it("sends visitors public, revalidated answers and members private ones", async () => {
    const urls = [
      "/api/songs?feed=newest",
      `/api/songs/${songId}`,
      "/api/search?q=bulk",
      `/api/artists/${artistId}`,
      `/api/artists/${artistId}/songs`,
    ];
    for (const url of urls) {
      const visitor = await get(ctx, url);
      expect(visitor.statusCode, url).toBe(200);
      expect(visitor.headers["cache-control"], url).toBe("public, no-cache");
      expect(visitor.headers.vary, url).toBe("cookie");
      expect(visitor.headers.etag, url).toMatch(/^W\/".+"$/);
      const again = await ctx.app.inject({
        method: "GET",
        url,
        headers: { "if-none-match": String(visitor.headers.etag) },
      });
      expect(again.statusCode, url).toBe(304);
      const member = await get(ctx, url, { cookie: fan.cookie });
      expect(member.statusCode, url).toBe(200);
      expect(member.headers["cache-control"], url).toBe("private, no-cache");
      expect(member.headers.vary, url).toBe("cookie");
    }
  });
});

// The limits are per client address and per process; the harness turns them off for every other suite.
describeEachDialect("Public API limits", (dialect) => {
  const ctx = useTestApp(dialect, { env: { PUBLIC_RATE_LIMIT: "3", EXPORT_RATE_LIMIT: "1" } });

  it("answers the public reads 429 with Retry-After past the limit, per address", async () => {
    const ip = "198.51.100.7";
    for (let i = 0; i < 3; i++) {
      const res = await get(ctx, i === 1 ? "/api/search?q=anything" : "/api/songs", { ip });
      expect(res.statusCode).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe("3");
      expect(res.headers["ratelimit-remaining"]).toBe(String(2 - i));
      expect(Number(res.headers["ratelimit-reset"])).toBeGreaterThan(0);
    }
    const refused = await get(ctx, "/api/songs/any-id", { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: "rate_limited", message: MESSAGES.tooManyApiRequests } });
    const retry = Number(refused.headers["retry-after"]);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    // Another address has its own window; the light routes have a budget of their own (four times the reads').
    expect((await get(ctx, "/api/songs", { ip: "203.0.113.9" })).statusCode).toBe(200);
    expect((await get(ctx, "/api/health", { ip })).statusCode).toBe(200);
    expect((await get(ctx, "/api/config", { ip })).headers["ratelimit-limit"]).toBe("12");
    // One IPv6 subscriber is one /64: rotating addresses inside it does not reset the count.
    for (let i = 1; i <= 3; i++)
      expect((await get(ctx, "/api/songs", { ip: `2001:db8:1:2::${i}` })).statusCode).toBe(200);
    expect((await get(ctx, "/api/songs", { ip: "2001:db8:1:2::99" })).statusCode).toBe(429);
  });

  // Issue 26: suggestions come once per pause in typing; an address has four times the reads' budget for them.
  it("limits suggestions per address on their own budget", async () => {
    const ip = "198.51.100.9";
    for (let i = 0; i < 12; i++) {
      const res = await get(ctx, `/api/search/suggest?q=a${i}`, { ip });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe("12");
    }
    const refused = await get(ctx, "/api/search/suggest?q=again", { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.tooManyApiRequests);
    // The reads' budget is untouched by the suggestions.
    expect((await get(ctx, "/api/songs", { ip })).statusCode).toBe(200);
  });

  it("limits export downloads separately, with their own message", async () => {
    const ip = "198.51.100.8";
    expect((await get(ctx, "/api/export/songs.csv", { ip })).statusCode).toBe(200);
    const refused = await get(ctx, "/api/export/songs.json", { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.tooManyExports);
    expect(refused.headers["retry-after"]).toBeDefined();
    // The reads' budget is untouched by the downloads.
    expect((await get(ctx, "/api/songs", { ip })).statusCode).toBe(200);
  });

  // Issue 27: an artist's tracker reads every song of the artist; its sheet is a download like the exports.
  it("counts the artist tracker as a read and its CSV sheet as a download", async () => {
    const ip = "198.51.100.10";
    for (let i = 0; i < 3; i++)
      expect((await get(ctx, "/api/artists/nobody/tracker", { ip })).headers["ratelimit-limit"]).toBe("3");
    expect((await get(ctx, "/api/artists/nobody/tracker", { ip })).statusCode).toBe(429);
    const other = "198.51.100.11";
    expect((await get(ctx, "/api/artists/nobody/tracker.csv", { ip: other })).headers["ratelimit-limit"]).toBe("1");
    const refused = await get(ctx, "/api/artists/nobody/tracker.csv", { ip: other });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.tooManyExports);
  });

  // Issue 38: /api/landing/tracks, the recommendations, a song's history and versions, covers, audio, the settings
  // and the health check were limited by nothing. Every GET a visitor can make now counts against a budget.
  it("counts every route a visitor can call against a budget of the address", async () => {
    const visitorRoutes = ctx.app
      .routeList()
      .filter((r) => r.method === "GET" && (r.url.startsWith("/api/") || SERVER_DOCUMENTS.includes(r.url)));
    expect(visitorRoutes.length).toBeGreaterThan(40);
    let n = 0;
    const unlimited: string[] = [];
    for (const { url: route } of visitorRoutes) {
      // A live-event stream never ends: its budget is checked by its row in the table.
      if (route === "/api/events") {
        expect(LIGHT_ROUTES).toContain(route);
        continue;
      }
      const url = route.replace(/:file/, "songs-1.xml").replace(/:\w+/g, "x").replace("*", "index.html");
      const res = await get(ctx, url, { ip: `192.0.2.${++n}` });
      // Sign-in and permission refusals are not reads a visitor makes; a few routes are left uncounted on purpose.
      if (res.statusCode === 401 || res.statusCode === 403 || route in UNCOUNTED_ROUTES) continue;
      if (res.headers["ratelimit-limit"] === undefined) unlimited.push(`${route} (${res.statusCode})`);
    }
    expect(unlimited).toEqual([]);
  });

  it("gives covers and audio ten times the reads' budget, the light routes four times", async () => {
    const ip = "198.51.100.12";
    expect((await get(ctx, "/api/songs/x/cover.svg", { ip })).headers["ratelimit-limit"]).toBe("30");
    expect((await get(ctx, "/api/songs/x/audio", { ip })).headers["ratelimit-limit"]).toBe("30");
    for (let i = 0; i < 12; i++) expect((await get(ctx, "/api/health", { ip })).statusCode).toBe(200);
    const refused = await get(ctx, "/api/health", { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.tooManyApiRequests);
    // The reads' budget is untouched by them.
    expect((await get(ctx, "/api/landing/tracks", { ip })).statusCode).toBe(200);
  });
});

import type { ArtistTracker, ImportBatch, ImportPreview, Song } from "@unheard/shared";
import { expect, it } from "vitest";
import { multipart, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

/** POST a tracker to an import route as `cookie`, with the form fields given (legend as JSON). */
function send(ctx: TestContext, url: string, cookie: string, data: string, fields: Record<string, string>) {
  const body = multipart(fields, { name: "tidewater.csv", data: Buffer.from(data), type: "text/csv", field: "file" });
  return ctx.app.inject({ method: "POST", url, payload: body.payload, headers: { ...body.headers, cookie } });
}

// A one-artist tracker laid out the way community trackers are kept (issue 27): every value the issue names.
const SHEET = [
  "Era,Name,Notes,Track Length,File Date,Leak Date,Available Length,Quality,Link(s)",
  'Harbor Lights,⭐ Tidewater (feat. Orrin Vale) (prod. Kessler & Mayo),"Played at the Harbor show.\nLeaked with the stems.",3:41,2019-06-02,"Sep 30, 2019",OG File,Lossless,https://example.com/a',
  "Harbor Lights,🏆 Undertow (Alt: Riptide) (prod. Kessler),,4:05,,09/30/2019,Full,CD Quality,",
  "Harbor Lights,Night Ferry (ref. Dax Moreno),Reference track,2:58,,14/07/2022,Tagged,High Quality,",
  'Harbor Lights,Lantern Song [V2],,3:12,2020-01-15,"July 4th, 2022",Partial,Low Quality,',
  "Salt Years,✨ Paper Moons [aka Paper Moon],,,,,Snippet,Recording,",
  "Salt Years,🗑️ Filler Track,,1:30,,,Beat Only,Not Available,",
  "Salt Years,Glass Coast,Only talked about in an interview,,,,Confirmed,Not Available,",
  "Salt Years,Ghost Pier,,,,,Rumored,,",
].join("\n");

describeEachDialect("imports: community tracker layout", (dialect) => {
  const ctx = useTestApp(dialect);
  const { boss } = useMembers(ctx, { boss: ["boss-trk@example.com", "super_admin"] });
  const fields = { defaultArtist: "Mara Quill", asVerified: "true" };
  const song = async (id: string): Promise<Song> =>
    (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}` })).json();

  it("previews the sheet: columns guessed, marks listed with their meaning from the default legend", async () => {
    const res = await send(ctx, "/api/imports/preview", boss.cookie, SHEET, fields);
    expect(res.statusCode, res.body).toBe(200);
    const p: ImportPreview = res.json();
    expect(p.sheets[0]?.columns.map((c) => c.field)).toEqual([
      "era",
      "title",
      "notes",
      "trackLength",
      "fileDate",
      "leakDate",
      "availability",
      "quality",
      "links",
    ]);
    expect(p.summary).toMatchObject({ rows: 8, create: 8, skip: 0, warnings: 0 });
    expect(p.marks).toEqual([
      { mark: "⭐", rows: 1, tag: "best" },
      { mark: "🏆", rows: 1, tag: "grail" },
      { mark: "✨", rows: 1, tag: "special" },
      { mark: "🗑", rows: 1, tag: "worst" },
    ]);
    expect(p.rows.map((r) => r.title)).toEqual([
      "Tidewater",
      "Undertow",
      "Night Ferry",
      "Lantern Song",
      "Paper Moons",
      "Filler Track",
      "Glass Coast",
      "Ghost Pier",
    ]);
  });

  const ids = new Map<string, string>();
  it("imports every value into its field: no title keeps a marker", async () => {
    // The sheet's own legend says the trophy means "wanted" here.
    const res = await send(ctx, "/api/imports", boss.cookie, SHEET, {
      ...fields,
      legend: JSON.stringify({ "🏆": "wanted" }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const batch: ImportBatch = res.json();
    expect(batch).toMatchObject({ status: "done", createdCount: 8, skippedCount: 0 });
    for (const s of batch.createdSongs) ids.set(s.title, s.id);
    expect([...ids.keys()].sort()).toEqual([
      "Filler Track",
      "Ghost Pier",
      "Glass Coast",
      "Lantern Song",
      "Night Ferry",
      "Paper Moons",
      "Tidewater",
      "Undertow",
    ]);

    expect(await song(ids.get("Tidewater") ?? "")).toMatchObject({
      title: "Tidewater",
      era: "Harbor Lights",
      features: ["Orrin Vale"],
      producers: ["Kessler", "Mayo"],
      tags: ["best"],
      trackLength: 221,
      fileDate: "2019-06-02",
      leakDate: "2019-09-30",
      availability: "og_file",
      quality: "lossless",
      notes: "Played at the Harbor show.\nLeaked with the stems.",
    });
    expect(await song(ids.get("Undertow") ?? "")).toMatchObject({
      aliases: ["Riptide"],
      producers: ["Kessler"],
      tags: ["wanted"],
      trackLength: 245,
      leakDate: "2019-09-30",
      availability: "full",
      quality: "cd_quality",
    });
    expect(await song(ids.get("Night Ferry") ?? "")).toMatchObject({
      references: ["Dax Moreno"],
      leakDate: "2022-07-14",
      availability: "tagged",
      quality: "high",
    });
    expect(await song(ids.get("Lantern Song") ?? "")).toMatchObject({
      versionLabel: "V2",
      fileDate: "2020-01-15",
      leakDate: "2022-07-04",
      availability: "partial",
      quality: "low",
    });
    expect(await song(ids.get("Paper Moons") ?? "")).toMatchObject({
      aliases: ["Paper Moon"],
      tags: ["special"],
      availability: "snippet",
      quality: "recording",
      era: "Salt Years",
    });
    expect(await song(ids.get("Filler Track") ?? "")).toMatchObject({
      tags: ["worst"],
      availability: "beat_only",
      quality: "not_available",
      trackLength: 90,
    });
    expect(await song(ids.get("Glass Coast") ?? "")).toMatchObject({ availability: "confirmed" });
    expect(await song(ids.get("Ghost Pier") ?? "")).toMatchObject({ availability: "rumored", quality: null });
    for (const id of ids.values()) {
      const s = await song(id);
      expect(s.title).not.toMatch(/\p{Extended_Pictographic}|\(alt|\(ref|\[v\d|\[aka/iu);
      expect(s.artists.map((a) => a.name)).toEqual(["Mara Quill"]);
    }
  });

  it("finds songs by their aliases", async () => {
    const find = async (q: string) =>
      (
        (await ctx.app.inject({ method: "GET", url: `/api/search?q=${encodeURIComponent(q)}` })).json().songs as Song[]
      ).map((s) => s.title);
    expect((await find("riptide"))[0]).toBe("Undertow");
    expect((await find("ripitde"))[0]).toBe("Undertow");
    expect(await find("paper moon")).toContain("Paper Moons");
  });

  it("importing the same sheet again creates and changes nothing", async () => {
    const res = await send(ctx, "/api/imports/preview", boss.cookie, SHEET, {
      ...fields,
      legend: JSON.stringify({ "🏆": "wanted" }),
    });
    expect(res.json().summary).toMatchObject({ rows: 8, create: 0, update: 0, skip: 8 });
  });

  it("downloads the artist's tracker in the same layout; importing it back changes nothing", async () => {
    const artistId = (await song(ids.get("Tidewater") ?? "")).artists[0]?.id ?? "";
    const res = await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/tracker.csv` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toContain('filename="Mara-Quill-tracker.csv"');
    const lines = res.body.split("\r\n");
    expect(lines[0]).toBe(
      "Era,Name,Artist(s),Notes,Track Length,File Date,Leak Date,Available Length,Quality,Genre,Release Date,Link(s)",
    );
    expect(res.body).toContain('"⭐ Tidewater (feat. Orrin Vale) (prod. Kessler, Mayo)",Mara Quill');
    expect(res.body).toContain(
      "🙏 Undertow (prod. Kessler) (Alt: Riptide),Mara Quill,,4:05,,2019-09-30,Full,CD quality",
    );
    expect(res.body).toContain("Lantern Song [V2]");
    // Back in, as another admin would import it: every row already there, nothing to change.
    const again = await send(ctx, "/api/imports/preview", boss.cookie, res.body, {});
    expect(again.statusCode, again.body).toBe(200);
    const p: ImportPreview = again.json();
    expect(p.summary).toMatchObject({ rows: 8, create: 0, update: 0, skip: 8, warnings: 0 });
    expect(p.rows.every((r) => r.reasons[0] === "Already on Unheard with these details")).toBe(true);
    const missing = await ctx.app.inject({ method: "GET", url: "/api/artists/nobody/tracker.csv" });
    expect(missing.statusCode).toBe(404);
  });

  it("shows the artist as a tracker: eras newest first with their span and what is out, songs in leak order", async () => {
    const artistId = (await song(ids.get("Tidewater") ?? "")).artists[0]?.id ?? "";
    const res = await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/tracker` });
    expect(res.statusCode, res.body).toBe(200);
    const t: ArtistTracker = res.json();
    expect(t.total).toBe(8);
    expect(t.truncated).toBe(false);
    expect(t.counts).toEqual([
      { availability: "og_file", count: 1 },
      { availability: "full", count: 1 },
      { availability: "tagged", count: 1 },
      { availability: "beat_only", count: 1 },
      { availability: "partial", count: 1 },
      { availability: "snippet", count: 1 },
      { availability: "confirmed", count: 1 },
      { availability: "rumored", count: 1 },
    ]);
    expect(t.eras.map((e) => [e.name, e.from, e.to])).toEqual([
      ["Harbor Lights", "2019-09-30", "2022-07-14"],
      ["Salt Years", null, null],
    ]);
    expect(t.eras[0]?.songs.map((s) => s.title)).toEqual(["Tidewater", "Undertow", "Lantern Song", "Night Ferry"]);
    expect(t.eras[0]?.songs[0]).toMatchObject({
      tags: ["best"],
      features: ["Orrin Vale"],
      with: [],
      trackLength: 221,
      availability: "og_file",
      quality: "lossless",
      hasAudio: false,
    });
    expect(t.eras[1]?.counts).toEqual([
      { availability: "beat_only", count: 1 },
      { availability: "snippet", count: 1 },
      { availability: "confirmed", count: 1 },
      { availability: "rumored", count: 1 },
    ]);
    expect((await ctx.app.inject({ method: "GET", url: "/api/artists/nobody/tracker" })).statusCode).toBe(404);
  });

  it("makes the sheet's eras the artist's, and shows what the artist's page says of an era", async () => {
    const artistId = (await song(ids.get("Tidewater") ?? "")).artists[0]?.id ?? "";
    const eras = await ctx.database.db
      .selectFrom("era")
      .select(["name", "description"])
      .where("artist_id", "=", artistId)
      .orderBy("name")
      .execute();
    expect(eras).toEqual([
      { name: "Harbor Lights", description: null },
      { name: "Salt Years", description: null },
    ]);
    const put = (cookie: string | undefined, payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/artists/${artistId}/eras`,
        payload,
        headers: cookie ? { cookie } : {},
      });
    const saved = await put(boss.cookie, {
      name: "harbor lights",
      description: "The first album cycle, scrapped in 2020.",
      coverUrl: "https://example.com/harbor.jpg",
      startsOn: "2019-03",
      endsOn: "2020-11",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const [payload, message] of [
      [{ name: "" }, "Please enter the era's name"],
      [{ name: "Salt Years", startsOn: "2021-13" }, "Please enter the era's dates as YYYY, YYYY-MM or YYYY-MM-DD"],
      [{ name: "Salt Years", startsOn: "2022-01", endsOn: "2021-12" }, "The era cannot end before it starts"],
      [{ name: "Salt Years", coverUrl: "javascript:alert(1)" }, "Links must start with http:// or https://"],
    ] as const) {
      const res = await put(boss.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect((await put(undefined, { name: "Salt Years", description: "x" })).statusCode).toBe(401);
    const t: ArtistTracker = (await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/tracker` })).json();
    expect(t.eras[0]).toMatchObject({
      name: "Harbor Lights",
      description: "The first album cycle, scrapped in 2020.",
      coverUrl: "https://example.com/harbor.jpg",
      from: "2019-03",
      to: "2020-11",
      startsOn: "2019-03",
      endsOn: "2020-11",
    });
    expect(t.eras[1]).toMatchObject({
      name: "Salt Years",
      description: null,
      coverUrl: null,
      from: null,
      startsOn: null,
    });
  });

  it("refuses a legend that is not a map of marks to tags, changing nothing", async () => {
    for (const legend of ["not json", JSON.stringify({ "⭐": "favourite" }), JSON.stringify(["⭐"])]) {
      const res = await send(ctx, "/api/imports", boss.cookie, SHEET, { ...fields, legend });
      expect(res.statusCode, legend).toBe(400);
      expect(res.json().error.message).toBe("The legend must say what each mark means (a tag or ignore).");
    }
    const batches = (
      await ctx.app.inject({ method: "GET", url: "/api/imports", headers: { cookie: boss.cookie } })
    ).json();
    expect(batches.items).toHaveLength(1);
  });
});

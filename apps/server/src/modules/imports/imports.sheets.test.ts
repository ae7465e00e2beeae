import * as XLSX from "@e965/xlsx";
import {
  type ArtistTracker,
  type ChangePage,
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportPreview,
  type Song,
} from "@unheard/shared";
import { expect, it } from "vitest";
import { multipart, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { trackerSheet } from "../../test/sheet-server.js";

/** POST a file to an import route as `cookie`, with the form fields given. */
function send(ctx: TestContext, url: string, cookie: string, file: { name: string; data: Buffer }, fields = {}) {
  const body = multipart(fields, { ...file, type: "application/octet-stream", field: "file" });
  return ctx.app.inject({ method: "POST", url, payload: body.payload, headers: { ...body.headers, cookie } });
}

/** A three-tab workbook: Unreleased (title rows, an era header, hyperlinks, a date cell), Stems, Updates. */
function workbook(): Buffer {
  const unreleased = XLSX.utils.aoa_to_sheet([
    ["Orrin Vale Unreleased Tracker"],
    ["Join the Discord · Last updated 11/20/2026"],
    ["Era", "Name", "Notes", "Track Length", "Leak Date", "Available Length", "Quality", "Link(s)"],
    ["1 OG File(s)\n1 Full", "Cold Harbour", "Written in one winter.", "", "", "", "", ""],
    ["", "Low Tide", "", "3:05", "", "Full", "CDQ", "Link"],
    ["", "🥈 Breakwater", "", "2:10", "??/06/2020", "OG File", "Lossless", ""],
  ]);
  unreleased.H5 = { t: "s", v: "Link", l: { Target: "https://files.example.com/low-tide" } };
  // A leak date typed as a date, shown the US way.
  unreleased.E5 = { t: "n", v: 43_891, z: "m/d/yyyy" };
  const stems = XLSX.utils.aoa_to_sheet([
    ["Era", "Name", "Notes", "Available Length"],
    ["Cold Harbour", "Low Tide", "Stems of the full song", "OG File"],
    ["Cold Harbour", "Sea Glass", "", ""],
  ]);
  const updates = XLSX.utils.aoa_to_sheet([
    ["Date", "Update"],
    ["11/20/2026", "Added Breakwater"],
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, unreleased, "Unreleased");
  XLSX.utils.book_append_sheet(wb, stems, "Stems");
  XLSX.utils.book_append_sheet(wb, updates, "Updates");
  return Buffer.from(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
}

describeEachDialect("imports: real trackers, whole", (dialect) => {
  const ctx = useTestApp(dialect);
  const { boss, fan } = useMembers(ctx, {
    boss: ["boss-sheets@example.com", "super_admin"],
    fan: "fan-sheets@example.com",
  });
  const song = async (id: string | undefined): Promise<Song> =>
    (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}` })).json();
  const csv = { name: "mara-quill.csv", data: Buffer.from(trackerSheet()) };

  it("previews the sheet as downloaded: the header found under the title rows, the eras stated", async () => {
    const res = await send(ctx, "/api/imports/preview", boss.cookie, csv, { defaultArtist: "Mara Quill" });
    expect(res.statusCode, res.body).toBe(200);
    const p: ImportPreview = res.json();
    expect(p.format).toBe("csv");
    expect(p.sheets).toHaveLength(1);
    expect(p.sheets[0]).toMatchObject({ name: "mara-quill", included: true, headerRow: 3, headerChosen: false });
    expect(p.sheets[0]?.topRows[0]?.cells[0]).toBe("Mara Quill Unreleased Tracker");
    expect(p.problems).toEqual([]);
    expect(p.summary).toMatchObject({ rows: 8, create: 8, skip: 0 });
    expect(p.eras.map((e) => ({ name: e.name, line: e.line, startsOn: e.startsOn, endsOn: e.endsOn }))).toEqual([
      { name: "Harbor Lights", line: 4, startsOn: "2018", endsOn: "2019" },
      { name: "Salt Years", line: 10, startsOn: "2020", endsOn: "2021" },
    ]);
    // No era header row is a song, and the rows keep their lines in the sheet.
    expect(p.rows.map((r) => r.title)).not.toContain("Harbor Lights");
    expect(p.rows[0]).toMatchObject({ line: 5, title: "Tidewater" });
  });

  it("imports it whole: 8 songs, 2 eras with their stories and spans, blank Era cells continued, 🥇 wanted, ??/??/2019 as 2019", async () => {
    const res = await send(ctx, "/api/imports", boss.cookie, csv, { defaultArtist: "Mara Quill", asVerified: "true" });
    expect(res.statusCode, res.body).toBe(201);
    const batch: ImportBatch = res.json();
    expect(batch).toMatchObject({ status: "done", createdCount: 8 });
    const ids = new Map(batch.createdSongs.map((s) => [s.title, s.id]));
    expect(await song(ids.get("Undertow"))).toMatchObject({ era: "Harbor Lights", tags: ["wanted"], leakDate: "2019" });
    expect(await song(ids.get("Glass Tide"))).toMatchObject({ era: "Harbor Lights" });
    expect(await song(ids.get("Paper Moons"))).toMatchObject({ era: "Salt Years" });
    expect(await song(ids.get("Ghost Pier"))).toMatchObject({ era: "Salt Years", leakDate: "2021" });
    const artistId = (await song(ids.get("Undertow"))).artists[0]?.id;
    const tracker: ArtistTracker = (
      await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/tracker` })
    ).json();
    const eras = Object.fromEntries(tracker.eras.map((e) => [e.name, e]));
    expect(eras["Harbor Lights"]).toMatchObject({
      description: "The first era, recorded at the harbour studio.",
      startsOn: "2018",
      endsOn: "2019",
    });
    expect(eras["Harbor Lights"]?.songs).toHaveLength(5);
    expect(eras["Salt Years"]).toMatchObject({ description: "The second era, written on tour.", startsOn: "2020" });
    expect(eras["Salt Years"]?.songs).toHaveLength(3);
  });

  it("reads another header row when the admin picks one, and says what that row lacks", async () => {
    const res = await send(ctx, "/api/imports/preview", boss.cookie, csv, {
      defaultArtist: "Mara Quill",
      headerRows: JSON.stringify({ "mara-quill": 1 }),
    });
    const p: ImportPreview = res.json();
    expect(p.sheets[0]).toMatchObject({ headerRow: 1, headerChosen: true });
    expect(p.problems).toEqual([IMPORT_MESSAGES.titleUnmapped]);
    const far = await send(ctx, "/api/imports/preview", boss.cookie, csv, { headerRows: JSON.stringify({ x: 99 }) });
    expect(far.statusCode).toBe(400);
    expect(far.json().error.message).toBe(IMPORT_MESSAGES.headerRowInvalid);
  });

  it("imports a workbook's song tabs, leaves out its Updates tab, keeps a hyperlink's URL and a typed date", async () => {
    const file = { name: "orrin-vale.xlsx", data: workbook() };
    const preview = await send(ctx, "/api/imports/preview", boss.cookie, file, { defaultArtist: "Orrin Vale" });
    expect(preview.statusCode, preview.body).toBe(200);
    const p: ImportPreview = preview.json();
    expect(p.format).toBe("xlsx");
    expect(p.sheets.map((s) => [s.name, s.included, s.reason, s.headerRow])).toEqual([
      ["Unreleased", true, null, 3],
      ["Stems", true, null, 1],
      ["Updates", false, "Not a song list", null],
    ]);
    // Low Tide is on both song tabs: the second is a duplicate, named with its tab.
    expect(p.rows.find((r) => r.tab === "Stems" && r.title === "Low Tide")).toMatchObject({
      outcome: "skip",
      reasons: ["Duplicate of Unreleased row 5"],
    });
    const res = await send(ctx, "/api/imports", boss.cookie, file, { defaultArtist: "Orrin Vale", asVerified: "true" });
    expect(res.statusCode, res.body).toBe(201);
    const batch: ImportBatch = res.json();
    expect(batch.createdSongs.map((s) => s.title).sort()).toEqual(["Breakwater", "Low Tide", "Sea Glass"]);
    const ids = new Map(batch.createdSongs.map((s) => [s.title, s.id]));
    expect(await song(ids.get("Low Tide"))).toMatchObject({
      era: "Cold Harbour",
      links: ["https://files.example.com/low-tide"],
      leakDate: "2020-03-01",
      quality: "cd_quality",
    });
    expect(await song(ids.get("Breakwater"))).toMatchObject({
      tags: ["wanted"],
      leakDate: "2020-06",
      era: "Cold Harbour",
    });
    expect(await song(ids.get("Sea Glass"))).toMatchObject({ era: "Cold Harbour", availability: "og_file" });
  });

  it("imports only the tabs chosen", async () => {
    const file = { name: "orrin-vale-2.xlsx", data: workbook() };
    const p: ImportPreview = (
      await send(ctx, "/api/imports/preview", boss.cookie, file, {
        defaultArtist: "Someone Else",
        tabs: JSON.stringify(["Stems"]),
      })
    ).json();
    expect(p.sheets.map((s) => [s.name, s.included, s.reason])).toEqual([
      ["Unreleased", false, "Not chosen"],
      ["Stems", true, null],
      ["Updates", false, "Not chosen"],
    ]);
    expect(p.rows.map((r) => r.title)).toEqual(["Low Tide", "Sea Glass"]);
  });

  it("tells the artist's changelog what an import did; visitors see only public songs' lines, and the feed too", async () => {
    const sheet = "Name,Artist(s),Available Length,Quality\nQuiet Pier,Lena Marsh,Snippet,LQ\n";
    const res = await send(ctx, "/api/imports", boss.cookie, { name: "lena.csv", data: Buffer.from(sheet) });
    expect(res.statusCode, res.body).toBe(201);
    const songId = (res.json() as ImportBatch).createdSongs[0]?.id;
    const pending: Song = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: boss.cookie } })
    ).json();
    const artistId = pending.artists[0]?.id;
    const page = async (cookie?: string): Promise<ChangePage> =>
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/artists/${artistId}/changes`,
          headers: cookie ? { cookie } : {},
        })
      ).json();
    // A pending song: members see its line, visitors do not.
    expect((await page(fan.cookie)).items.map((c) => [c.summary, c.source])).toEqual([
      ["New: Quiet Pier (snippet, LQ)", "import"],
    ]);
    expect((await page()).items).toEqual([]);
    const feed = await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/changes.atom` });
    expect(feed.headers["content-type"]).toMatch(/application\/atom\+xml/);
    expect(feed.body).not.toContain("Quiet Pier");
    // Verified, it is public: on the page, in the artist's feed and in everyone's.
    await ctx.database.db
      .updateTable("song")
      .set({ status: "verified" })
      .where("id", "=", songId ?? "")
      .execute();
    expect((await page()).items).toHaveLength(1);
    const after = await ctx.app.inject({ method: "GET", url: `/api/artists/${artistId}/changes.atom` });
    expect(after.body).toContain("<entry>");
    expect(after.body).toContain("New: Quiet Pier (snippet, LQ)");
    const everyone = await ctx.app.inject({ method: "GET", url: "/api/changes.atom" });
    expect(everyone.body).toContain("Lena Marsh · New: Quiet Pier (snippet, LQ)");
    // An edit that upgrades it is a line of its own.
    const edit = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${songId}`,
      headers: { cookie: boss.cookie },
      payload: {
        title: "Quiet Pier",
        artists: ["Lena Marsh"],
        genre: "Other",
        availability: "full",
        quality: "lossless",
        comment: "The full song leaked",
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await page()).items[0]).toMatchObject({ summary: "Quiet Pier: snippet → full, lossless", source: "edit" });
    // Undoing the import takes its lines with it (the song is gone).
    const undo = await ctx.app.inject({
      method: "POST",
      url: `/api/imports/${(res.json() as ImportBatch).id}/undo`,
      headers: { cookie: boss.cookie },
    });
    expect(undo.statusCode).toBe(200);
    expect((await page(boss.cookie)).items).toEqual([]);
  });
});

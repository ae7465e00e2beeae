import type { ArtistTracker, ChangePage, ImportBatchDetail, Song, TrackerLink } from "@unheard/shared";
import { SYNC_MESSAGES } from "@unheard/shared";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useMembers } from "../../test/fixtures.js";
import { createSiblingApp, describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import {
  LOCAL_SHEETS_ENV,
  type SheetServer,
  startSheetServer,
  TRACKER_SONGS,
  trackerSheet,
} from "../../test/sheet-server.js";
import { snapshotTables, tableNames } from "../../test/table-snapshot.js";

/** What a sync may write in the catalogue: an unchanged sheet must write none of it. */
const CATALOGUE = [
  "song",
  "song_artist",
  "era",
  "tracker_link_row",
  "import_batch",
  "import_change",
  "import_era_change",
  "artist_change",
  "notification",
];

describeEachDialect("tracker sync", (dialect) => {
  const ctx = useTestApp(dialect, { env: LOCAL_SHEETS_ENV });
  const people = useMembers(ctx, {
    boss: ["boss-sync@example.com", "super_admin"],
    fan: "fan-sync@example.com",
    uploader: "uploader-sync@example.com",
  });
  let sheet: SheetServer;
  beforeAll(async () => {
    sheet = await startSheetServer(trackerSheet());
  });
  afterAll(() => sheet.close());

  const api = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, cookie?: string, payload?: object) =>
    ctx.app.inject({ method, url, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {} });
  const linkOf = async (id: string): Promise<TrackerLink> =>
    (await api("GET", `/api/tracker-links/${id}`, people.boss.cookie)).json();
  const songsOf = async (artistId: string) => {
    const rows = await ctx.database.db
      .selectFrom("song")
      .innerJoin("song_artist", "song_artist.song_id", "song.id")
      .select(["song.id", "song.title", "song.availability", "song.quality", "song.tracker_removed_at"])
      .where("song_artist.artist_id", "=", artistId)
      .orderBy("song.title")
      .execute();
    return rows;
  };
  const sync = async (id: string) => {
    expect((await api("POST", `/api/tracker-links/${id}/sync`, people.boss.cookie)).statusCode).toBe(200);
    await ctx.app.jobs.drain();
    return linkOf(id);
  };
  const changes = async (artistId: string, cookie?: string): Promise<ChangePage> =>
    (await api("GET", `/api/artists/${artistId}/changes?limit=100`, cookie)).json();

  let link: TrackerLink;
  it("links a sheet; the first sync reads the sheet as it is and waits for an admin's approval", async () => {
    const res = await api("POST", "/api/tracker-links", people.boss.cookie, {
      artist: "Mara Quill",
      url: sheet.url,
      asVerified: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    link = res.json();
    expect(link).toMatchObject({ state: "awaiting_approval", intervalMinutes: 30, syncing: true });
    await ctx.app.jobs.drain();
    link = await linkOf(link.id);
    expect(link.syncing).toBe(false);
    expect(link.lastError).toBeNull();
    expect(link.pendingBatch).toMatchObject({ status: "awaiting_approval", holdReason: SYNC_MESSAGES.firstSync });
    // Nothing is in the catalogue yet.
    expect(await songsOf(link.artist.id)).toEqual([]);
    const detail: ImportBatchDetail = (
      await api("GET", `/api/imports/${link.pendingBatch?.id}`, people.boss.cookie)
    ).json();
    const preview = detail.preview;
    expect(preview?.sheets[0]).toMatchObject({ included: true, headerRow: 3, headerChosen: false });
    expect(preview?.summary).toMatchObject({ rows: 8, create: 8, skip: 0 });
    expect(preview?.eras.map((e) => [e.name, e.startsOn, e.endsOn])).toEqual([
      ["Harbor Lights", "2018", "2019"],
      ["Salt Years", "2020", "2021"],
    ]);
    expect(preview?.eras[0]?.counts).toEqual([
      { count: 1, label: "OG File(s)" },
      { count: 2, label: "Full" },
      { count: 1, label: "Snippet(s)" },
      { count: 1, label: "Unavailable" },
    ]);
  });

  it("applies the approved first sync: 8 songs in 2 eras, blank Era cells continued, marks and partial dates kept", async () => {
    const res = await api("POST", `/api/imports/${link.pendingBatch?.id}/approve`, people.boss.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: "done",
      createdCount: 8,
      source: "sync",
      approvedBy: { id: people.boss.id },
    });
    link = await linkOf(link.id);
    expect(link.state).toBe("active");
    const songs = await songsOf(link.artist.id);
    expect(songs.map((s) => s.title)).toEqual([
      "Ghost Pier",
      "Glass Coast",
      "Glass Tide",
      "Lantern Song",
      "Night Ferry",
      "Paper Moons",
      "Tidewater",
      "Undertow",
    ]);
    const song = async (title: string): Promise<Song> => {
      const id = songs.find((s) => s.title === title)?.id;
      return (await api("GET", `/api/songs/${id}`)).json();
    };
    expect(await song("Undertow")).toMatchObject({
      era: "Harbor Lights",
      tags: ["wanted"],
      leakDate: "2019",
      availability: "snippet",
      quality: "low",
    });
    expect(await song("Night Ferry")).toMatchObject({
      era: "Harbor Lights",
      links: ["https://example.com/nf-1", "https://example.com/nf-2"],
    });
    expect(await song("Lantern Song")).toMatchObject({ leakDate: "2019", quality: "cd_quality" });
    expect(await song("Glass Tide")).toMatchObject({ availability: "confirmed", quality: "not_available" });
    expect(await song("Ghost Pier")).toMatchObject({ era: "Salt Years", leakDate: "2021" });
    const tracker: ArtistTracker = (await api("GET", `/api/artists/${link.artist.id}/tracker`)).json();
    const eras = tracker.eras.map((e) => ({
      name: e.name,
      description: e.description,
      from: e.startsOn,
      to: e.endsOn,
    }));
    expect(eras).toEqual(
      expect.arrayContaining([
        {
          name: "Harbor Lights",
          description: "The first era, recorded at the harbour studio.",
          from: "2018",
          to: "2019",
        },
        { name: "Salt Years", description: "The second era, written on tour.", from: "2020", to: "2021" },
      ]),
    );
    expect(tracker.eras.find((e) => e.name === "Salt Years")?.sheetCounts).toEqual([
      { count: 2, label: "Full" },
      { count: 1, label: "Snippet(s)" },
    ]);
    expect(tracker.sync?.lastChangedAt).toBeTruthy();
    const log = await changes(link.artist.id);
    expect(log.items.map((c) => c.summary)).toContain("New: Undertow (snippet, LQ)");
    expect(log.items.every((c) => c.source === "sync")).toBe(true);
  });

  it("writes nothing when the sheet is unchanged: a 304, the same bytes, or only its Last updated row changed", async () => {
    const tables = await tableNames(ctx);
    const before = await snapshotTables(
      ctx,
      CATALOGUE.filter((t) => tables.includes(t)),
    );
    const fetched = sheet.fetched;
    await sync(link.id);
    expect(sheet.notModified).toBeGreaterThan(0);
    expect(sheet.fetched).toBe(fetched);
    // The server forgets its validators: the same bytes again.
    sheet.etags = false;
    await sync(link.id);
    expect(sheet.fetched).toBe(fetched + 1);
    // A new day on the sheet's announcement row: other bytes, the same rows.
    sheet.body = trackerSheet({ updated: "11/21/2026" });
    const checked = await sync(link.id);
    expect(sheet.fetched).toBe(fetched + 2);
    expect(checked.lastError).toBeNull();
    expect(
      await snapshotTables(
        ctx,
        CATALOGUE.filter((t) => tables.includes(t)),
      ),
    ).toEqual(before);
    sheet.etags = true;
  });

  it("applies a 10-row style change by itself: an upgrade and a new song, one notification per follower", async () => {
    expect((await api("PUT", `/api/artists/${link.artist.id}/follow`, people.fan.cookie)).statusCode).toBe(200);
    const rows = TRACKER_SONGS.map((r) =>
      r.startsWith(",🥇 Undertow") ? ",🥇 Undertow,,4:05,,??/??/2019,Full,CDQ," : r,
    );
    rows.splice(5, 0, ",Night Ferry II,,3:00,,2026-11-01,Snippet,LQ,");
    sheet.body = trackerSheet({ rows });
    link = await sync(link.id);
    expect(link.lastBatch).toMatchObject({ status: "done", createdCount: 1, updatedCount: 1, removedCount: 0 });
    const log = await changes(link.artist.id);
    expect(
      log.items
        .slice(0, 2)
        .map((c) => c.summary)
        .sort(),
    ).toEqual(["New: Night Ferry II (snippet, LQ)", "Undertow: snippet → full, CD quality"]);
    const notes = (await api("GET", "/api/notifications", people.fan.cookie)).json().items;
    const told = notes.filter((n: { kind: string }) => n.kind === "tracker_update");
    expect(told).toHaveLength(1);
    expect(told[0].payload).toMatchObject({ artistName: "Mara Quill", summary: "1 new song, 1 upgrade" });
  });

  it("recognises a rename where the rest of the row matches: the same song, renamed, with its votes", async () => {
    const before = await songsOf(link.artist.id);
    const paper = before.find((s) => s.title === "Paper Moons");
    const rows = (sheet.body as string).split("\n").map((r) => r.replace(",Paper Moons,", ",Paper Moon,"));
    sheet.body = rows.join("\n");
    link = await sync(link.id);
    expect(link.lastBatch).toMatchObject({ renamedCount: 1, createdCount: 0, removedCount: 0 });
    const after = await songsOf(link.artist.id);
    expect(after.find((s) => s.title === "Paper Moon")?.id).toBe(paper?.id);
    expect(after).toHaveLength(before.length);
    expect((await changes(link.artist.id)).items[0]?.summary).toBe("Renamed: Paper Moons → Paper Moon");
  });

  it("marks a row gone from the sheet removed from the tracker, never deleting it; back when the row returns", async () => {
    const full = sheet.body as string;
    sheet.body = full
      .split("\n")
      .filter((r) => !r.startsWith(",Glass Tide,"))
      .join("\n");
    link = await sync(link.id);
    expect(link.lastBatch).toMatchObject({ removedCount: 1 });
    const glass = (await songsOf(link.artist.id)).find((s) => s.title === "Glass Tide");
    expect(glass?.tracker_removed_at).toBeTruthy();
    const song: Song = (await api("GET", `/api/songs/${glass?.id}`)).json();
    expect(song.removedFromTrackerAt).toBeTruthy();
    expect((await changes(link.artist.id)).items[0]?.summary).toBe("Removed from the tracker: Glass Tide");
    sheet.body = full;
    link = await sync(link.id);
    expect((await songsOf(link.artist.id)).find((s) => s.title === "Glass Tide")?.tracker_removed_at).toBeNull();
    expect((await changes(link.artist.id)).items[0]?.summary).toBe("Back on the tracker: Glass Tide");
  });

  it("holds a large change for approval with its reason, and changes nothing until approved", async () => {
    const full = sheet.body as string;
    const lines = full.split("\n");
    // Four of nine songs gone: more than a fifth.
    sheet.body = lines
      .filter((r) => !/^,(Tidewater|Lantern Song|Glass Coast|Ghost Pier|⭐ Tidewater)/.test(r))
      .join("\n");
    const before = await songsOf(link.artist.id);
    link = await sync(link.id);
    expect(link.pendingBatch?.holdReason).toBe(SYNC_MESSAGES.largeRemoval(4, 9));
    expect(await songsOf(link.artist.id)).toEqual(before);
    const rejected = await api("POST", `/api/imports/${link.pendingBatch?.id}/reject`, people.boss.cookie);
    expect(rejected.json()).toMatchObject({ status: "rejected" });
    expect(await songsOf(link.artist.id)).toEqual(before);
    sheet.body = full;
    link = await sync(link.id);
    expect(link.pendingBatch).toBeNull();
  });

  it("keeps the last good state when the sheet fails, says why in words and backs off", async () => {
    const before = await songsOf(link.artist.id);
    sheet.status = 404;
    let failed = await sync(link.id);
    expect(failed.lastError).toMatch(/404/);
    expect(failed.failures).toBe(1);
    expect(Date.parse(failed.nextSyncAt ?? "")).toBeGreaterThan(Date.now() + 50 * 60_000);
    sheet.status = 200;
    sheet.body = "<html><body>Sign in</body></html>";
    sheet.contentType = "text/html";
    failed = await sync(link.id);
    expect(failed.lastError).toMatch(/web page, not a sheet/);
    expect(failed.failures).toBe(2);
    sheet.contentType = "text/csv";
    sheet.body = "Nothing,Here\n1,2\n";
    failed = await sync(link.id);
    expect(failed.lastError).toMatch(/not a tracker we can read/);
    expect(await songsOf(link.artist.id)).toEqual(before);
    sheet.body = trackerSheet();
    const good = await sync(link.id);
    expect(good).toMatchObject({ lastError: null, failures: 0 });
  });

  it("refuses redirects to private and link-local addresses, changing nothing", async () => {
    const port = new URL(sheet.url).port;
    for (const target of [
      "http://169.254.169.254/latest/meta-data/",
      `http://127.0.0.2:${port}/sheet.csv`,
      "http://10.0.0.1/x",
    ]) {
      sheet.redirectTo = target;
      const failed = await sync(link.id);
      expect(failed.lastError, target).toMatch(/^The sheet link redirected to .* public internet addresses only\.$/);
    }
    sheet.redirectTo = null;
    await sync(link.id);
  });

  it("never deletes a member's own upload: a sheet row takes it over, its removal only marks it", async () => {
    const upload = await api("GET", "/api/songs?limit=1");
    expect(upload.statusCode).toBe(200);
    // A pending song by the linked artist, uploaded by a member before the sheet listed it.
    const row = await ctx.database.db
      .selectFrom("song")
      .select("id")
      .where("title", "=", "Night Ferry")
      .executeTakeFirstOrThrow();
    await ctx.database.db
      .updateTable("song")
      .set({ submitted_by: people.uploader.id })
      .where("id", "=", row.id)
      .execute();
    sheet.body = (sheet.body as string)
      .split("\n")
      .filter((r) => !r.startsWith(",Night Ferry,"))
      .join("\n");
    await sync(link.id);
    const kept = await ctx.database.db
      .selectFrom("song")
      .select(["id", "submitted_by", "tracker_removed_at"])
      .where("id", "=", row.id)
      .executeTakeFirst();
    expect(kept).toMatchObject({ submitted_by: people.uploader.id });
    expect(kept?.tracker_removed_at).toBeTruthy();
    sheet.body = trackerSheet();
    await sync(link.id);
  });

  it("undoing a sync restores the songs and pauses the link so it is not applied again", async () => {
    sheet.body = trackerSheet({
      rows: TRACKER_SONGS.map((r) => (r.startsWith(",Glass Coast,") ? ",Glass Coast,,,,,OG File,Lossless," : r)),
    });
    link = await sync(link.id);
    const batchId = link.lastBatch?.id ?? "";
    const coast = async () => (await songsOf(link.artist.id)).find((s) => s.title === "Glass Coast");
    expect(await coast()).toMatchObject({ availability: "og_file" });
    const undo = await api("POST", `/api/imports/${batchId}/undo`, people.boss.cookie);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await coast()).toMatchObject({ availability: "full", quality: "high" });
    link = await linkOf(link.id);
    expect(link.state).toBe("paused");
    expect((await api("POST", `/api/tracker-links/${link.id}/sync`, people.boss.cookie)).statusCode).toBe(409);
    expect((await changes(link.artist.id)).items.some((c) => c.summary.startsWith("Glass Coast: full → OG file"))).toBe(
      false,
    );
    // Resumed: the sheet is read afresh and its change applied again.
    link = (await api("PATCH", `/api/tracker-links/${link.id}`, people.boss.cookie, { paused: false })).json();
    await ctx.app.jobs.drain();
    expect(await coast()).toMatchObject({ availability: "og_file" });
  });

  it("lets only admins who may import link, sync, approve and read links", async () => {
    for (const [method, url] of [
      ["GET", "/api/tracker-links"],
      ["POST", "/api/tracker-links"],
      ["GET", `/api/tracker-links/${link.id}`],
      ["PATCH", `/api/tracker-links/${link.id}`],
      ["DELETE", `/api/tracker-links/${link.id}`],
      ["POST", `/api/tracker-links/${link.id}/sync`],
    ] as const) {
      const payload = method === "POST" || method === "PATCH" ? { artist: "X", url: sheet.url } : undefined;
      expect((await api(method, url, people.fan.cookie, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await api(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
    const again = await api("POST", "/api/tracker-links", people.boss.cookie, { artist: "Mara Quill", url: sheet.url });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(SYNC_MESSAGES.artistLinked);
    const tooOften = await api("POST", "/api/tracker-links", people.boss.cookie, {
      artist: "Other",
      url: sheet.url,
      intervalMinutes: 1,
    });
    expect(tooOften.statusCode).toBe(400);
    expect(tooOften.json().error.message).toBe(SYNC_MESSAGES.intervalRange);
  });

  it("keeps a Sync now pressed while another sync of the link runs: it runs once that one is done", async () => {
    // Another instance's sync holds the link.
    const holdUntil = new Date(Date.now() + 60_000).toISOString();
    await ctx.database.db
      .updateTable("tracker_link")
      .set({ lease_until: holdUntil })
      .where("id", "=", link.id)
      .execute();
    sheet.body = trackerSheet({ updated: "12/02/2026" });
    sheet.etags = false;
    const fetched = sheet.fetched;
    expect((await api("POST", `/api/tracker-links/${link.id}/sync`, people.boss.cookie)).json().syncing).toBe(true);
    await ctx.app.jobs.drain();
    expect(sheet.fetched).toBe(fetched);
    // That sync ends; the press that came meanwhile runs at its retry.
    await ctx.database.db.updateTable("tracker_link").set({ lease_until: null }).where("id", "=", link.id).execute();
    await ctx.database.db
      .updateTable("job")
      .set({ run_after: new Date(Date.now() - 1000).toISOString() })
      .where("kind", "=", "tracker.sync")
      .where("status", "=", "queued")
      .execute();
    await ctx.app.jobs.drain();
    expect(sheet.fetched).toBe(fetched + 1);
    sheet.etags = true;
  });

  it("syncs once when two instances schedule and run the same due link at the same time", async () => {
    const sibling = await createSiblingApp(ctx as TestContext);
    try {
      sheet.body = trackerSheet({ updated: "12/01/2026" });
      sheet.etags = false;
      await ctx.database.db
        .updateTable("tracker_link")
        .set({ next_sync_at: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", link.id)
        .execute();
      const requests = sheet.requests;
      const queued = await Promise.all([ctx.app.trackerSync.tick(), sibling.app.trackerSync.tick()]);
      expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
      await Promise.all([ctx.app.jobs.drain(), sibling.app.jobs.drain()]);
      expect(sheet.requests - requests).toBe(1);
      const jobs = await ctx.database.db
        .selectFrom("job")
        .select("status")
        .where("kind", "=", "tracker.sync")
        .execute();
      expect(jobs.every((j) => j.status === "done")).toBe(true);
    } finally {
      sheet.etags = true;
      await sibling.close();
    }
  });
});

describeEachDialect("tracker sync without private networks allowed", (dialect) => {
  const ctx = useTestApp(dialect, { env: { SHEET_FETCH_ALLOW_HTTP: "true" } });
  const { boss } = useMembers(ctx, { boss: ["boss-ssrf@example.com", "super_admin"] });
  let sheet: SheetServer;
  beforeAll(async () => {
    sheet = await startSheetServer(trackerSheet());
  });
  afterAll(() => sheet.close());

  it("refuses a sheet on a loopback address before connecting, and says so", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/tracker-links",
      payload: { artist: "Loop Back", url: sheet.url },
      headers: { cookie: boss.cookie },
    });
    expect(res.statusCode).toBe(201);
    await ctx.app.jobs.drain();
    const link: TrackerLink = (
      await ctx.app.inject({
        method: "GET",
        url: `/api/tracker-links/${res.json().id}`,
        headers: { cookie: boss.cookie },
      })
    ).json();
    expect(link.lastError).toMatch(/^The sheet link points to .*\(loopback\).*public internet addresses only\.$/);
    expect(link.pendingBatch).toBeNull();
    expect(sheet.requests).toBe(0);
  });
});

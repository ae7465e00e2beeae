import { SYNC_MESSAGES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import type { ExistingSong } from "../imports/imports.repo.js";
import { readSheetFile } from "../imports/sheet-read.js";
import { type PreparedRow, readSheetRows } from "../imports/sheet-rows.js";
import { type KnownRow, planSync } from "./sync-diff.js";

const HEADER = "Era,Name,Available Length,Quality,Notes";
const NOW = "2026-11-28T10:00:00.000Z";

/** A sheet's song rows as a sync reads them. */
function rowsOf(lines: string[]): PreparedRow[] {
  const file = readSheetFile(Buffer.from([HEADER, ...lines].join("\n")), "sheet.csv");
  return readSheetRows(file, { defaultArtist: "Mara Quill" }, {}).rows;
}

/** What the link remembers after a sync of `rows`: each row a song of the same title. */
function remembered(rows: PreparedRow[]) {
  const known = new Map<string, KnownRow>();
  const songs = new Map<string, ExistingSong>();
  for (const r of rows) {
    const id = `song-${r.title}`;
    known.set(r.rowKey, { songId: id, contentHash: r.contentHash, restHash: r.restHash, removed: false });
    songs.set(id, {
      id,
      title: r.title,
      artistId: "mara",
      artistKeys: new Set(r.artistKeys),
      tracker_removed_at: null,
      ...r.leak,
    });
  }
  return { known, songs };
}

const plan = (before: string[], after: string[], existing = new Map<string, ExistingSong[]>()) => {
  const { known, songs } = remembered(rowsOf(before));
  return planSync({ rows: rowsOf(after), known, songs, existing, firstSync: false, now: NOW });
};

describe("a sync's plan", () => {
  const base = [
    "Harbor,Tidewater,OG File,Lossless,Played live",
    "Harbor,Undertow,Snippet,LQ,",
    "Harbor,Night Ferry,Full,HQ,Reference",
    "Salt,Paper Moons,Snippet,Recording,Tour bus",
    "Salt,Ghost Pier,Full,HQ,",
  ];

  it("changes nothing for the same rows, whatever their order", () => {
    const p = plan(base, [...base].reverse());
    expect([p.creates.length, p.updates.length, p.unchanged, p.holdReason]).toEqual([0, 0, 5, null]);
    expect(p.linkRows?.upsert).toEqual([]);
  });

  it("updates a changed row to the sheet, an emptied cell emptied too", () => {
    const p = plan(
      base,
      base.map((r) => (r.startsWith("Harbor,Tidewater") ? "Harbor,Tidewater,OG File,Lossless," : r)),
    );
    expect(p.updates).toHaveLength(1);
    expect(p.updates[0]).toMatchObject({ outcome: "update", set: { notes: null }, previous: { notes: "Played live" } });
  });

  it("pairs a renamed row with its song when the rest of it matches, and a moved one across eras", () => {
    const renamed = plan(
      base,
      base.map((r) => r.replace("Paper Moons", "Paper Moon")),
    );
    expect(renamed.creates).toEqual([]);
    expect(renamed.updates[0]).toMatchObject({
      outcome: "rename",
      songId: "song-Paper Moons",
      set: { title: "Paper Moon" },
      line: { summary: "Renamed: Paper Moons → Paper Moon" },
    });
    const moved = plan(
      base,
      base.map((r) => r.replace("Salt,Ghost Pier", "Harbor,Ghost Pier")),
    );
    expect(moved.updates[0]).toMatchObject({ outcome: "update", songId: "song-Ghost Pier", set: { era: "Harbor" } });
  });

  it("does not pair rows that say too little to tell apart: a new song and a removal instead", () => {
    const thin = ["Harbor,Alpha,Rumored,,", "Harbor,Beta,Rumored,,", ...base];
    const p = plan(
      thin,
      thin.map((r) => r.replace("Alpha", "Gamma").replace("Beta", "Delta")),
    );
    expect(p.creates.map((c) => c.row.title).sort()).toEqual(["Delta", "Gamma"]);
    expect(
      p.updates
        .filter((u) => u.outcome === "remove")
        .map((u) => u.title)
        .sort(),
    ).toEqual(["Alpha", "Beta"]);
  });

  it("does not call a row renamed when both its title and its era changed", () => {
    const p = plan(
      base,
      base.map((r) => r.replace("Salt,Paper Moons", "Harbor,Paper Sun")),
    );
    expect(p.creates.map((c) => c.row.title)).toEqual(["Paper Sun"]);
    expect(p.updates.map((u) => [u.outcome, u.title])).toEqual([["remove", "Paper Moons"]]);
  });

  it("marks a vanished row removed, never deleting it, and holds a removal of more than a fifth", () => {
    const one = plan(base, base.slice(1));
    expect(one.updates).toEqual([
      expect.objectContaining({
        outcome: "remove",
        set: { tracker_removed_at: NOW },
        previous: { tracker_removed_at: null },
      }),
    ]);
    expect(one.holdReason).toBeNull();
    const two = plan(base, base.slice(2));
    expect(two.holdReason).toBe(SYNC_MESSAGES.largeRemoval(2, 5));
  });

  it("takes over a song already on Unheard, filling in only what the sheet gives", () => {
    const uploaded: ExistingSong = {
      id: "upload",
      title: "Night Ferry II",
      artistId: "mara",
      artistKeys: new Set(["mara quill"]),
      tracker_removed_at: null,
      ...rowsOf(["Harbor,Night Ferry II,,,Uploaded by a member"])[0]?.leak,
    } as ExistingSong;
    const p = plan(base, [...base, "Harbor,Night Ferry II,Snippet,,"], new Map([["night ferry ii", [uploaded]]]));
    expect(p.creates).toEqual([]);
    expect(p.updates[0]).toMatchObject({ songId: "upload", set: { availability: "snippet" } });
    expect(p.updates[0]?.set).not.toHaveProperty("notes");
  });

  it("waits for approval on a link's first sync", () => {
    const { known, songs } = remembered([]);
    const p = planSync({ rows: rowsOf(base), known, songs, existing: new Map(), firstSync: true, now: NOW });
    expect(p.creates).toHaveLength(5);
    expect(p.holdReason).toBe(SYNC_MESSAGES.firstSync);
  });
});

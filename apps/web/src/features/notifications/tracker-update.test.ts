import { describe, expect, it } from "vitest";
import { trackerUpdateText } from "./tracker-update";

describe("a tracker update notification", () => {
  it("names the artist's tracker and what changed, a few songs' lines and the rest counted", () => {
    const update = trackerUpdateText({
      artistId: "a 1",
      artistName: "Mara Quill",
      summary: "2 new songs, 3 upgrades",
      items: [
        { songId: "s1", summary: "New: Night Ferry (snippet, LQ)" },
        { songId: "s2", summary: "New: Glass Tide" },
        { songId: "s3", summary: "Undertow: snippet → full" },
        { songId: "s4", summary: "Lantern: LQ → HQ" },
      ],
      more: 1,
    });
    expect(update.artist).toBe("Mara Quill's tracker");
    expect(update.summary).toBe("2 new songs, 3 upgrades");
    expect(update.lines).toEqual([
      "New: Night Ferry (snippet, LQ)",
      "New: Glass Tide",
      "Undertow: snippet → full",
      "and 2 more",
    ]);
    expect(update.to).toBe("/artists/a%201");
    expect(update.text).toBe(
      "Mara Quill's tracker: 2 new songs, 3 upgrades. New: Night Ferry (snippet, LQ); New: Glass Tide; Undertow: snippet → full; and 2 more",
    );
  });

  it("says something sensible of a payload that lacks parts", () => {
    const update = trackerUpdateText({ items: "nope", more: -2 });
    expect(update).toMatchObject({ artist: "A followed artist's tracker", summary: "updated", lines: [], to: "" });
    expect(update.text).toBe("A followed artist's tracker: updated");
  });
});

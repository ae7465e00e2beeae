import { describe, expect, it } from "vitest";
import { describeNew, describeRemoved, describeRenamed, describeUpdate, mattersToFollowers } from "./change-summary.js";

describe("changelog lines", () => {
  it("says what is new as trackers' Updates tabs do", () => {
    expect(describeNew("Night Ferry", { availability: "snippet", quality: "low" })).toEqual({
      kind: "new",
      summary: "New: Night Ferry (snippet, LQ)",
    });
    expect(describeNew("Night Ferry", { availability: null, quality: null }).summary).toBe("New: Night Ferry");
  });

  it("calls more of a song, or better quality, an upgrade, and says from what to what", () => {
    expect(
      describeUpdate(
        "Undertow",
        { availability: "snippet", quality: "low" },
        { availability: "full", quality: "cd_quality" },
      ),
    ).toEqual({ kind: "upgraded", summary: "Undertow: snippet → full, CD quality" });
    expect(
      describeUpdate("Undertow", { availability: "full", quality: "low" }, { availability: "full", quality: "high" }),
    ).toEqual({ kind: "upgraded", summary: "Undertow: LQ → HQ" });
    expect(
      describeUpdate("Undertow", { availability: null, quality: null }, { availability: "og_file", quality: null }),
    ).toEqual({
      kind: "upgraded",
      summary: "Undertow: OG file",
    });
  });

  it("calls a step back or other details a change, and says nothing when nothing a reader cares about moved", () => {
    expect(
      describeUpdate("Undertow", { availability: "full", quality: null }, { availability: "snippet", quality: null }),
    ).toEqual({
      kind: "changed",
      summary: "Undertow: full → snippet",
    });
    expect(
      describeUpdate("Undertow", { availability: "full", quality: null }, { availability: "full", quality: null }, [
        "notes",
        "leak date",
      ]),
    ).toEqual({ kind: "changed", summary: "Undertow: notes, leak date updated" });
    expect(
      describeUpdate("Undertow", { availability: "full", quality: null }, { availability: "full", quality: null }),
    ).toBeNull();
  });

  it("tells followers of new songs and upgrades only", () => {
    expect(mattersToFollowers(describeNew("A", { availability: null, quality: null }))).toBe(true);
    expect(mattersToFollowers(describeRemoved("A"))).toBe(false);
    expect(mattersToFollowers(describeRenamed("A", "B"))).toBe(false);
    expect(describeRenamed("Paper Moons", "Paper Moon").summary).toBe("Renamed: Paper Moons → Paper Moon");
  });
});

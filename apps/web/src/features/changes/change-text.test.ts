import { describe, expect, it } from "vitest";
import { changeText, summaryParts } from "./change-text";

describe("a changelog line's song link", () => {
  it("finds the title where each kind of line puts it", () => {
    expect(summaryParts("New: Night Ferry (snippet, LQ)", "Night Ferry")).toEqual({
      before: "New: ",
      title: "Night Ferry",
      after: " (snippet, LQ)",
    });
    expect(summaryParts("New: Night Ferry", "Night Ferry")?.after).toBe("");
    expect(summaryParts("Undertow: snippet → full, CD quality", "Undertow")).toEqual({
      before: "",
      title: "Undertow",
      after: ": snippet → full, CD quality",
    });
    expect(summaryParts("Removed from the tracker: Glass Tide", "Glass Tide")?.before).toBe(
      "Removed from the tracker: ",
    );
    expect(summaryParts("Back on the tracker: Glass Tide", "Glass Tide")?.title).toBe("Glass Tide");
  });

  it("takes the new name of a rename, and a title only where it stands as one", () => {
    expect(summaryParts("Renamed: Glass Tide → Glass Coast", "Glass Coast", "renamed")).toEqual({
      before: "Renamed: Glass Tide → ",
      title: "Glass Coast",
      after: "",
    });
    // "Full" is in the words of the line, but the title is at its start.
    expect(summaryParts("Full: snippet → full", "Full")?.before).toBe("");
    expect(summaryParts("Tide: snippet → full", "full", "upgraded")).toBeNull();
    expect(summaryParts("Renamed: Glass Tide → Glass Coast", "Glass Tide", "renamed")).toBeNull();
    // "Glass" is part of another word of the line, not the title.
    expect(summaryParts("New: Glass Tide (full)", "Glass")).toBeNull();
  });

  it("gives none when the song was renamed since or the line names no song", () => {
    expect(summaryParts("New: Old Name (full)", "New Name")).toBeNull();
    expect(summaryParts("New: Old Name", null)).toBeNull();
    expect(summaryParts("New: Old Name", "")).toBeNull();
  });

  it("says the artist when the list is everyone's", () => {
    const entry = { summary: "New: Night Ferry", artist: { id: "a", name: "Mara Quill" } };
    expect(changeText(entry, true)).toBe("Mara Quill · New: Night Ferry");
    expect(changeText(entry, false)).toBe("New: Night Ferry");
  });
});

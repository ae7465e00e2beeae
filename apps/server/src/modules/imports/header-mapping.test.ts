import { describe, expect, it } from "vitest";
import { guessMapping, headerField, headerWords } from "./header-mapping.js";

describe("header mapping", () => {
  it("turns headers into plain words", () => {
    expect(headerWords("Artist(s)")).toBe("artist s");
    expect(headerWords("  Éra – Name ")).toBe("era name");
  });

  it("guesses a mapping from header names; exact names win and each field is used once", () => {
    expect(
      guessMapping(["Era", "Name", "Artist(s)", "Prod.", "Feat", "Leak Date", "Type", "Quality", "Notes", "Length"]),
    ).toEqual([
      "era",
      "title",
      "artists",
      "producers",
      "features",
      "leakDate",
      "availability",
      "quality",
      "notes",
      "trackLength",
    ]);
    expect(guessMapping(["Song", "Track", "Date Leaked (approx)", "Producer(s)"])).toEqual([
      "title",
      "ignore",
      "leakDate",
      "producers",
    ]);
  });

  it("maps a community tracker's header row, Link(s) included (issue 37)", () => {
    expect(
      guessMapping([
        "Era",
        "Name",
        "Notes",
        "Track Length",
        "File Date",
        "Leak Date",
        "Available Length",
        "Quality",
        "Link(s)",
      ]),
    ).toEqual(["era", "title", "notes", "trackLength", "fileDate", "leakDate", "availability", "quality", "links"]);
    for (const header of ["Link", "Links", "Download", "Download Link", "Source", "Sources", "URL"])
      expect(headerField(header), header).toEqual({ field: "links", exact: true });
  });

  it("names a header written on several lines by its first line", () => {
    // A real tracker's header row: calls to action under the column names.
    expect(
      guessMapping([
        "Era",
        "Name\n(Check Out The Tracker Website!)",
        "Notes\n(Join The Discord If We Missed Anything)",
        "Track Length",
      ]),
    ).toEqual(["era", "title", "notes", "trackLength"]);
    expect(headerField("Name\n(Check Out The Tracker Website!)")).toEqual({ field: "title", exact: true });
    expect(headerField("Date Leaked (approx)")).toEqual({ field: "leakDate", exact: false });
    expect(headerField("Mara Quill Unreleased Tracker")).toBeNull();
    expect(headerField("")).toBeNull();
  });
});

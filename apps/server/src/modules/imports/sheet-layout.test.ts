import type { ImportField } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { callWithin } from "../../test/bounded-call.js";
import { guessMapping } from "./header-mapping.js";
import { classifyTab, findHeaderRow, parseEraStats, readEraHeader, readSectionRow } from "./sheet-layout.js";

/** The columns each field maps to, as the import reads them from a header row. */
function columnsOf(header: string[]): Partial<Record<ImportField, number[]>> {
  const columns: Partial<Record<ImportField, number[]>> = {};
  for (const [i, field] of guessMapping(header).entries()) columns[field] = [...(columns[field] ?? []), i];
  return columns;
}

// The layout of the community trackers (the Ye tracker and those copied from it): one row per song under an era
// header row whose Era cell counts the era's songs by availability.
const HEADER = [
  "Era",
  "Name",
  "Notes",
  "Track Length",
  "File Date",
  "Leak Date",
  "Available Length",
  "Quality",
  "Link(s)",
];
const COLUMNS = columnsOf(HEADER);
/** A row of the tracker by column name. */
const row = (cells: Partial<Record<(typeof HEADER)[number], string>>) => HEADER.map((h) => cells[h] ?? "");

/** The sheet: a title row and an announcement row above the header, eras written once. */
const SHEET: string[][] = [
  ["Mara Quill Unreleased Tracker"],
  ["Join the Discord for requests and trades · Last updated 11/20/2026", "", ""],
  HEADER,
  row({
    Era: "1 OG File(s)\n2 Full\n1 Snippet(s)\n1 Unavailable",
    Name: "Harbor Lights",
    Notes: "Recorded between tours in a rented house by the sea; shelved when the label changed hands.",
    "File Date": "(2018 - 2019)",
  }),
  row({ Name: "🥇 Undertow", "Track Length": "3:12", "File Date": "??/??/2019", "Available Length": "Full" }),
  row({ Name: "Ghost Pier", "Available Length": "Rumored" }),
  row({ Name: "Night Ferry" }),
];

describe("findHeaderRow", () => {
  it("finds the header under title and announcement rows", () => {
    expect(findHeaderRow(SHEET)).toBe(2);
    expect(findHeaderRow(SHEET.slice(2))).toBe(0);
  });

  it("needs a title column and two fields, prefers whole names, and takes the earlier row on a tie", () => {
    expect(findHeaderRow([["Name"], ["Era", "Notes", "Leak Date"]])).toBeNull();
    expect(findHeaderRow([["Name", "Artist"]])).toBe(0);
    // "Song Name | Date Leaked (approx)" names two fields by a word inside; "Name | Leak Date" by whole names.
    expect(
      findHeaderRow([
        ["Song Name", "Date Leaked (approx)"],
        ["Name", "Leak Date"],
      ]),
    ).toBe(1);
    expect(findHeaderRow([HEADER, HEADER])).toBe(0);
    // A real tracker's header, with calls to action under the names.
    expect(findHeaderRow([["Tracker"], ["Era", "Name\n(Check Out The Tracker Website!)", "Notes\n(Join Us)"]])).toBe(1);
  });

  it("searches only the first rows", () => {
    const rows = [...Array.from({ length: 31 }, (_, i) => [`Announcement ${i}`]), HEADER];
    expect(findHeaderRow(rows)).toBeNull();
    expect(findHeaderRow(rows, 40)).toBe(31);
  });

  it("never takes a song row or a long announcement", () => {
    expect(findHeaderRow(SHEET.slice(3))).toBeNull();
    // A sentence that names fields is an announcement, not a header ("Song Name" would be a title by its words).
    expect(
      findHeaderRow([[`Song Name, Artist and Leak Date in the columns below. ${"x".repeat(200)}`, "Artist"]]),
    ).toBeNull();
  });
});

describe("parseEraStats", () => {
  it("reads the counts as trackers write them", () => {
    expect(parseEraStats("1 OG File(s)\n2 Full\n1 Snippet(s)\n1 Unavailable")).toEqual([
      { count: 1, label: "OG File(s)", availability: "og_file" },
      { count: 2, label: "Full", availability: "full" },
      { count: 1, label: "Snippet(s)", availability: "snippet" },
      { count: 1, label: "Unavailable", availability: "confirmed" },
    ]);
    expect(
      parseEraStats("0 OG Files\n1 Full\n0 Tagged\n1 Partial\n0 Snippets\n2 Stem Bounces\n40 Unavailable"),
    ).toEqual([
      { count: 0, label: "OG Files", availability: "og_file" },
      { count: 1, label: "Full", availability: "full" },
      { count: 0, label: "Tagged", availability: "tagged" },
      { count: 1, label: "Partial", availability: "partial" },
      { count: 0, label: "Snippets", availability: "snippet" },
      { count: 2, label: "Stem Bounces", availability: "stem_bounce" },
      { count: 40, label: "Unavailable", availability: "confirmed" },
    ]);
    // On one line, and with a label no availability matches kept as written.
    expect(parseEraStats("3 Full · 2 AI")).toEqual([
      { count: 3, label: "Full", availability: "full" },
      { count: 2, label: "AI", availability: null },
    ]);
  });

  it("is null for era names and other text", () => {
    for (const text of [
      "",
      "Harbor Lights",
      "4 Your Eyez Only",
      "808s & Heartbreak",
      "2 Full Moons",
      "1 Full\nHarbor",
      "1Full",
    ])
      expect(parseEraStats(text), text).toBeNull();
  });
});

describe("readEraHeader", () => {
  it("reads the issue's era header row: counts in Era, name in Name, story in Notes, span in File Date", () => {
    expect(readEraHeader(SHEET[3] ?? [], COLUMNS)).toEqual({
      name: "Harbor Lights",
      description: "Recorded between tours in a rented house by the sea; shelved when the label changed hands.",
      startsOn: "2018",
      endsOn: "2019",
      counts: [
        { count: 1, label: "OG File(s)", availability: "og_file" },
        { count: 2, label: "Full", availability: "full" },
        { count: 1, label: "Snippet(s)", availability: "snippet" },
        { count: 1, label: "Unavailable", availability: "confirmed" },
      ],
    });
  });

  it("reads the Ye-style era header: span and other lines in the name cell, a description merged over the date columns", () => {
    const header = row({
      Era: "0 OG Files\n3 Full\n0 Tagged\n0 Partial\n2 Snippets\n3 Unavailable",
      Name: "Low Season\n(Collaboration with Orrin Vale)\n(2016 - 2017)",
      Notes: "(05/17/2017) (Low Season is released)\n(Early 2018) (Low Season 2 is scrapped)",
      "Leak Date": "A collaborative tape recorded over one winter, released on a now deleted page.",
    });
    expect(readEraHeader(header, COLUMNS)).toEqual({
      name: "Low Season",
      description:
        "(Collaboration with Orrin Vale)\n\n(05/17/2017) (Low Season is released)\n(Early 2018) (Low Season 2 is scrapped)\n\nA collaborative tape recorded over one winter, released on a now deleted page.",
      startsOn: "2016",
      endsOn: "2017",
      counts: expect.arrayContaining([{ count: 3, label: "Full", availability: "full" }]),
    });
    // The span after the name on its line, and a year alone.
    expect(readEraHeader(row({ Era: "2 Full", Name: "Tidal (2020 - Present)" }), COLUMNS)).toMatchObject({
      name: "Tidal",
      startsOn: "2020",
      endsOn: null,
    });
    expect(readEraHeader(row({ Era: "2 Full", Name: "Tidal\n(2016)" }), COLUMNS)).toMatchObject({
      startsOn: "2016",
      endsOn: "2016",
    });
    // A lone date in a date cell of an era header row states when the era was.
    expect(readEraHeader(row({ Era: "2 Full", Name: "Tidal", "File Date": "06/2016" }), COLUMNS)).toMatchObject({
      startsOn: "2016-06",
      endsOn: "2016-06",
    });
  });

  it("reads an era name in the Era cell over its counts, and counts with no name", () => {
    expect(readEraHeader(row({ Era: "Harbor Lights\n1 Full\n2 Snippets" }), COLUMNS)).toMatchObject({
      name: "Harbor Lights",
      counts: [
        { count: 1, label: "Full", availability: "full" },
        { count: 2, label: "Snippets", availability: "snippet" },
      ],
    });
    expect(readEraHeader(row({ Era: "1 Full\n2 Snippets" }), COLUMNS)).toMatchObject({ name: "", counts: [{}, {}] });
  });

  it("reads an era named with no song data: in the Era cell, or in Name with its counts in another cell", () => {
    expect(readEraHeader(row({ Era: "Tidal", Notes: "The second album's sessions." }), COLUMNS)).toEqual({
      name: "Tidal",
      description: "The second album's sessions.",
      startsOn: null,
      endsOn: null,
      counts: [],
    });
    expect(readEraHeader(row({ Era: "Tidal", Name: "Tidal", "File Date": "(2020 - 2021)" }), COLUMNS)).toMatchObject({
      name: "Tidal",
      description: null,
      startsOn: "2020",
      endsOn: "2021",
    });
    expect(readEraHeader(row({ Era: "Tidal", Name: "(Jan 2020 - Mar 2021)" }), COLUMNS)).toMatchObject({
      name: "Tidal",
      startsOn: "2020-01",
      endsOn: "2021-03",
    });
    // Counts in an unmapped column, the name alone in Name.
    const wide = [...HEADER, ""];
    expect(
      readEraHeader([...row({ Name: "Tidal", Notes: "Sessions." }), "2 Full\n1 Snippet"], columnsOf(wide)),
    ).toMatchObject({ name: "Tidal", description: "Sessions.", counts: [{ count: 2 }, { count: 1 }] });
  });

  it("never takes a song for an era", () => {
    const songs = [
      SHEET[4],
      // A song with an availability and nothing else, with or without its era written.
      row({ Name: "Ghost Pier", "Available Length": "Rumored" }),
      row({ Era: "Harbor Lights", Name: "Ghost Pier", "Available Length": "Rumored" }),
      // A title alone, with a blank Era cell or under an era written on every row.
      row({ Name: "Night Ferry" }),
      row({ Era: "Harbor Lights", Name: "Night Ferry" }),
      row({ Era: "Harbor Lights", Name: "Night Ferry", Notes: "Played once live." }),
      // An era name and song data, but no title: a song missing its title (the import says so), not an era.
      row({ Era: "Harbor Lights", "Track Length": "3:12" }),
      row({ Era: "Harbor Lights", Quality: "CDQ" }),
      row({ Era: "Harbor Lights", Quality: "OG File" }),
      row({ Era: "Harbor Lights", "Leak Date": "Jun 12, 2023" }),
      row({ Era: "Harbor Lights", "File Date": "2019" }),
      row({ Era: "Harbor Lights", "Link(s)": "https://pillowcase.su/f/abc" }),
      row({ Notes: "2 Full\n1 Snippet", Name: "Tidal", "Available Length": "Full" }),
      row({}),
    ];
    for (const cells of songs) expect(readEraHeader(cells ?? [], COLUMNS), JSON.stringify(cells)).toBeNull();
    // Features and producers are song data too.
    const credited = columnsOf([...HEADER, "Producer(s)", "Feat."]);
    expect(readEraHeader([...row({ Era: "Harbor Lights" }), "Kessler", ""], credited)).toBeNull();
    expect(readEraHeader([...row({ Era: "Harbor Lights" }), "", "Orrin Vale"], credited)).toBeNull();
    expect(readEraHeader([...row({ Era: "Harbor Lights" }), "", ""], credited)).toMatchObject({
      name: "Harbor Lights",
    });
  });
});

describe("readSectionRow", () => {
  it("reads a part of an era between its songs, and nothing else", () => {
    const year = row({ Name: "2016", Notes: "(01/01/2016)\n(12/31/2016)" });
    expect(readSectionRow(year, COLUMNS)).toEqual({ name: "2016", notes: "(01/01/2016)\n(12/31/2016)" });
    expect(readEraHeader(year, COLUMNS)).toBeNull();
    expect(
      readSectionRow(row({ Name: "Low Season II", Notes: "(03/04/2015) (Low Season 2 is released)" }), COLUMNS),
    ).toMatchObject({ name: "Low Season II" });
    for (const cells of [
      row({ Name: "Night Ferry", Notes: "Played once live." }),
      row({ Name: "Night Ferry", Notes: "(2019) Played once live.\nLeaked later." }),
      row({ Name: "Night Ferry", Notes: "(01/01/2016)", "Available Length": "Snippet" }),
      row({ Era: "Tidal", Name: "Night Ferry", Notes: "(01/01/2016)" }),
      row({ Name: "Night Ferry" }),
    ])
      expect(readSectionRow(cells, COLUMNS), JSON.stringify(cells)).toBeNull();
  });
});

describe("classifyTab", () => {
  const songs = SHEET;
  it("takes the tabs that list songs", () => {
    for (const name of ["Unreleased", "Released", "Stems", "Snippets", "Sessions"])
      expect(classifyTab(name, songs), name).toEqual({ songs: true });
    const stems = [
      [
        "Era",
        "Name",
        "Notes",
        "File Date",
        "Leak Date",
        "Track Length",
        "BPM",
        "Available Length",
        "Quality",
        "Link(s)",
      ],
    ];
    expect(classifyTab("Stems", stems)).toEqual({ songs: true });
  });

  it("leaves out the tabs that do not, with the reason", () => {
    // Even when the tab has a header row: a copy of the song list has the same one.
    for (const [name, reason] of [
      ["Updates", "Not a song list"],
      ["Update Log", "Not a song list"],
      ["Info", "Not a song list"],
      ["Legend", "Not a song list"],
      ["FAQ", "Not a song list"],
      ["⭐ Best Of", "A copy of other tabs"],
      ["Worst Of", "A copy of other tabs"],
      ["Grails", "A copy of other tabs"],
      ["Recent", "A copy of other tabs"],
      ["Fakes", "Lists fakes, not the artist's songs"],
    ] as const)
      expect(classifyTab(name, songs), name).toEqual({ songs: false, reason });
    expect(
      classifyTab("Notes", [
        ["Date", "Update"],
        ["11/20/2026", "Added Undertow"],
      ]),
    ).toEqual({
      songs: false,
      reason: "No header row found",
    });
  });
});

describe("sheet layout on hostile input", () => {
  it("reads hostile rows in linear time", async () => {
    const module = new URL("./sheet-layout.ts", import.meta.url);
    const big = (s: string) => s.repeat(Math.floor(10_000 / s.length));
    const cases: [string, unknown[]][] = [
      ["parseEraStats", [big("1 ")]],
      ["parseEraStats", [big("1 Full\n")]],
      ["readEraHeader", [row({ Era: big("1 Full\n"), Name: big("(") }), COLUMNS]],
      ["readEraHeader", [row({ Era: big("a"), Name: big(" "), Notes: big("(2019) ") }), COLUMNS]],
      ["readEraHeader", [HEADER.map(() => big("9 ")), COLUMNS]],
      ["readSectionRow", [row({ Name: "x", Notes: big("(01/01/2016)\n") }), COLUMNS]],
      ["findHeaderRow", [Array.from({ length: 30 }, () => Array.from({ length: 100 }, () => big("name ")))]],
      ["findHeaderRow", [Array.from({ length: 30 }, () => Array.from({ length: 100 }, () => "Leak Date (approx.)"))]],
      ["classifyTab", [big("best of "), []]],
    ];
    for (const [fn, args] of cases) {
      const { ms } = await callWithin(module, fn, args, 3_000);
      expect(ms, fn).toBeLessThan(1_000);
    }
  }, 60_000);
});

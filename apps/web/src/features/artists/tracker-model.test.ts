import type { ArtistTracker, TrackerSong } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import {
  countsLine,
  countWords,
  eraSpan,
  filterRows,
  nextSort,
  sheetCountsLine,
  sortRows,
  type TableState,
  tableFromParams,
  tableToParams,
  trackerRows,
  usedTags,
  viewFromParams,
} from "./tracker-model";

const song = (id: string, over: Partial<TrackerSong> = {}): TrackerSong => ({
  id,
  title: id,
  with: [],
  versionLabel: null,
  tags: [],
  aliases: [],
  features: [],
  producers: [],
  leakDate: null,
  fileDate: null,
  trackLength: null,
  availability: null,
  quality: null,
  notes: null,
  hasAudio: false,
  coverUrl: "",
  links: [],
  removedFromTracker: false,
  ...over,
});

const tracker: ArtistTracker = {
  total: 5,
  truncated: false,
  sync: null,
  counts: [],
  eras: [
    {
      name: "Salt Years",
      from: "2022-07-04",
      to: "2022-07-14",
      description: null,
      coverUrl: null,
      startsOn: null,
      endsOn: null,
      counts: [],
      sheetCounts: [],
      songs: [
        song("Paper Moons", { tags: ["special"], availability: "snippet", leakDate: "2022-07-14", quality: "low" }),
        song("Éclair", {
          aliases: ["Lightning"],
          availability: "og_file",
          leakDate: "2022-07-04",
          quality: "lossless",
        }),
      ],
    },
    {
      name: "Harbor Lights",
      from: "2019-09-30",
      to: "2019-09-30",
      description: null,
      coverUrl: null,
      startsOn: null,
      endsOn: null,
      counts: [],
      sheetCounts: [],
      songs: [
        song("Tidewater", { tags: ["best", "grail"], availability: "full", leakDate: "2019-09-30" }),
        song("undertow", { availability: "og_file", quality: "cd_quality" }),
      ],
    },
    {
      name: null,
      from: null,
      to: null,
      description: null,
      coverUrl: null,
      startsOn: null,
      endsOn: null,
      counts: [],
      sheetCounts: [],
      songs: [song("Loose End", { tags: ["best"] })],
    },
  ],
};

const none: TableState = { sort: null, dir: "asc", availability: "", quality: "", tag: "", q: "" };
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("the tracker's words", () => {
  it("says the counts as running text, plural where the word counts things", () => {
    expect(
      countsLine([
        { availability: "og_file", count: 12 },
        { availability: "full", count: 30 },
        { availability: "beat_only", count: 2 },
        { availability: "snippet", count: 1 },
        { availability: "unknown", count: 4 },
      ]),
    ).toBe("12 OG files · 30 full · 2 beat only · 1 snippet · 4 unknown");
    expect(countsLine([{ availability: "og_file", count: 1 }])).toBe("1 OG file");
    expect(countsLine([])).toBe("");
    // Issue 37: a stem bounce is a thing, counted like a snippet.
    expect(countWords("stem_bounce", 2)).toBe("2 stem bounces");
    expect(countWords("stem_bounce", 1)).toBe("1 stem bounce");
  });

  it("says the counts a sheet states for an era in its own words, its (s) settled by the count", () => {
    expect(
      sheetCountsLine([
        { count: 1, label: "OG File(s)" },
        { count: 2, label: "Full" },
        { count: 3, label: "Snippet(s)" },
        { count: 1, label: "Unavailable" },
      ]),
    ).toBe("1 OG file · 2 full · 3 snippets · 1 unavailable");
    expect(sheetCountsLine([{ count: 1200, label: "Stem  Bounce(s)" }])).toBe("1,200 stem bounces");
    expect(sheetCountsLine([])).toBe("");
  });

  it("gives an era's span by month: a range, one month, or nothing", () => {
    expect(eraSpan("2019-09-30", "2022-07-04")).toBe("Sep 2019 – Jul 2022");
    expect(eraSpan("2019-09-01", "2019-09-30")).toBe("Sep 2019");
    expect(eraSpan(null, "2020-01-15")).toBe("Jan 2020");
    expect(eraSpan(null, null)).toBe("");
    // An era's own dates may name a month only, or a year (issue 37).
    expect(eraSpan("2019-09", "2020-02")).toBe("Sep 2019 – Feb 2020");
    expect(eraSpan("2019", "2020-03-02")).toBe("2019 – Mar 2020");
    expect(eraSpan("2019", "2019")).toBe("2019");
  });

  it("lists the tags in use in their own order", () => {
    expect(usedTags(tracker)).toEqual(["best", "grail", "special"]);
  });
});

describe("the tracker's table", () => {
  const rows = trackerRows(tracker);

  it("keeps the tracker's order with each song's era", () => {
    expect(ids(rows)).toEqual(["Paper Moons", "Éclair", "Tidewater", "undertow", "Loose End"]);
    expect(rows.map((r) => r.era)).toEqual(["Salt Years", "Salt Years", "Harbor Lights", "Harbor Lights", null]);
  });

  it("filters by availability (unknown included), quality, tag and text in the title or an alias", () => {
    expect(ids(filterRows(rows, { ...none, availability: "og_file" }))).toEqual(["Éclair", "undertow"]);
    expect(ids(filterRows(rows, { ...none, availability: "unknown" }))).toEqual(["Loose End"]);
    expect(ids(filterRows(rows, { ...none, quality: "unknown" }))).toEqual(["Tidewater", "Loose End"]);
    expect(ids(filterRows(rows, { ...none, tag: "best" }))).toEqual(["Tidewater", "Loose End"]);
    expect(ids(filterRows(rows, { ...none, q: " eclair " }))).toEqual(["Éclair"]);
    expect(ids(filterRows(rows, { ...none, q: "light" }))).toEqual(["Éclair"]);
  });

  it("sorts by a column, songs without a value last both ways, ties in tracker order", () => {
    expect(ids(sortRows(rows, "name", "asc"))).toEqual(["Éclair", "Loose End", "Paper Moons", "Tidewater", "undertow"]);
    expect(ids(sortRows(rows, "leak", "asc"))).toEqual(["Tidewater", "Éclair", "Paper Moons", "undertow", "Loose End"]);
    expect(ids(sortRows(rows, "leak", "desc"))).toEqual([
      "Paper Moons",
      "Éclair",
      "Tidewater",
      "undertow",
      "Loose End",
    ]);
    expect(ids(sortRows(rows, "availability", "asc"))).toEqual([
      "Éclair",
      "undertow",
      "Tidewater",
      "Paper Moons",
      "Loose End",
    ]);
    expect(ids(sortRows(rows, "quality", "asc"))).toEqual([
      "Éclair",
      "undertow",
      "Paper Moons",
      "Tidewater",
      "Loose End",
    ]);
    expect(ids(sortRows(rows, null, "desc"))).toEqual(ids(rows));
  });

  it("sorts partial leak dates by time, a year before the months of that year", () => {
    const partial = [
      { ...song("June 5"), era: null, leakDate: "2019-06-05" },
      { ...song("Year"), era: null, leakDate: "2019" },
      { ...song("Older"), era: null, leakDate: "2018-12-31" },
      { ...song("June"), era: null, leakDate: "2019-06" },
      { ...song("Unknown"), era: null, leakDate: null },
      { ...song("Later"), era: null, leakDate: "2020" },
    ];
    expect(ids(sortRows(partial, "leak", "asc"))).toEqual(["Older", "Year", "June", "June 5", "Later", "Unknown"]);
    expect(ids(sortRows(partial, "leak", "desc"))).toEqual(["Later", "June 5", "June", "Year", "Older", "Unknown"]);
  });

  it("turns a sorted column around and starts another ascending", () => {
    expect(nextSort({ sort: null, dir: "asc" }, "leak")).toEqual({ sort: "leak", dir: "asc" });
    expect(nextSort({ sort: "leak", dir: "asc" }, "leak")).toEqual({ sort: "leak", dir: "desc" });
    expect(nextSort({ sort: "leak", dir: "desc" }, "name")).toEqual({ sort: "name", dir: "asc" });
  });

  it("keeps its state in the address, defaults left out and unknown values ignored", () => {
    const state: TableState = { sort: "leak", dir: "desc", availability: "og_file", quality: "", tag: "best", q: "x" };
    const params = tableToParams(new URLSearchParams("view=table"), state);
    expect(params.toString()).toBe("view=table&sort=leak&dir=desc&availability=og_file&tag=best&q=x");
    expect(tableFromParams(params)).toEqual(state);
    expect(viewFromParams(params)).toBe("table");
    expect(tableFromParams(new URLSearchParams("sort=bogus&availability=lots&quality=unknown"))).toEqual({
      ...none,
      quality: "unknown",
    });
    expect(tableToParams(new URLSearchParams("sort=leak&dir=desc"), none).toString()).toBe("");
    expect(viewFromParams(new URLSearchParams("view=grid"))).toBeNull();
  });
});

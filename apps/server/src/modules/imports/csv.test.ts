import { DEFAULT_TAG_LEGEND, IMPORT_LIMITS, IMPORT_MESSAGES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { callWithin } from "../../test/bounded-call.js";
import { CsvError, decodeText, detectDelimiter, parseDelimited, readTable } from "./csv.js";
import {
  guessMapping,
  parseAvailability,
  parseDate,
  parseGenre,
  parseLength,
  parseQuality,
  parseTagsCell,
  splitArtists,
  splitNames,
  splitTitle,
  tagsOf,
} from "./tracker-values.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("csv parser", () => {
  it("reads quotes, doubled quotes, delimiters and newlines inside quotes, CRLF and CR", () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\nlines"\r"",plain,"end"';
    expect(parseDelimited(text, ",")).toEqual([
      ["a", "b", "c"],
      ["x, y", 'say "hi"', "two\nlines"],
      ["", "plain", "end"],
    ]);
  });

  it("keeps empty cells, a trailing empty cell and blank lines; a final newline adds no row", () => {
    expect(parseDelimited("a,,c,\n\nd\n", ",")).toEqual([["a", "", "c", ""], [""], ["d"]]);
  });

  it("is lenient with stray and unclosed quotes", () => {
    expect(parseDelimited('He said "no",x\n"open,y', ",")).toEqual([['He said "no"', "x"], ["open,y"]]);
    expect(parseDelimited('"a"b,c', ",")).toEqual([["ab", "c"]]);
  });

  it("detects tab, comma and semicolon from the header line, ignoring quoted ones", () => {
    expect(detectDelimiter("Name\tArtist\tEra\nx,y\tz\tw")).toBe("\t");
    expect(detectDelimiter('"Name; or title",Artist,Era')).toBe(",");
    expect(detectDelimiter("Name;Artist;Era")).toBe(";");
    expect(detectDelimiter("Title")).toBe(",");
  });

  it("decodes UTF-8 with and without BOM, UTF-16 and Windows-1252, keeping emoji", () => {
    expect(decodeText(bytes("\uFEFFName\n🔥 Song"))).toBe("Name\n🔥 Song");
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Name\tÉra 💿", "utf16le")]))).toBe(
      "Name\tÉra 💿",
    );
    expect(decodeText(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe("Café");
  });

  it("refuses empty, binary and workbook files with a clear message", () => {
    expect(() => decodeText(bytes(""))).toThrow(IMPORT_MESSAGES.fileEmpty);
    expect(() => decodeText(bytes(" \n \n"))).toThrow(IMPORT_MESSAGES.fileEmpty);
    expect(() => decodeText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toThrow(
      IMPORT_MESSAGES.notText,
    );
    expect(() => decodeText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]))).toThrow(IMPORT_MESSAGES.workbook);
  });

  it("stops past the row limit", () => {
    const text = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    expect(() => parseDelimited(text, ",", 10)).toThrow(CsvError);
    expect(readTable(bytes("a\tb\n1\t2"), "x.tsv", 10)).toEqual({
      delimiter: "\t",
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
    });
  });

  it("refuses a cell longer than the cell limit, naming its row", () => {
    const long = `a${" ".repeat(30_000)}b`;
    expect(() => readTable(bytes(`Name,Artist\nok,x\nsong,"${long}"`), "t.csv", 10)).toThrow(
      IMPORT_MESSAGES.cellTooLong(3),
    );
    const fits = "x".repeat(IMPORT_LIMITS.maxCellChars);
    expect(readTable(bytes(`Name\n${fits}`), "t.csv", 10).rows[1]).toEqual([fits]);
  });
});

describe("tracker values", () => {
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
    // A community tracker's header row (issue 27).
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
    ).toEqual(["era", "title", "notes", "trackLength", "fileDate", "leakDate", "availability", "quality", "ignore"]);
    expect(guessMapping(["Song", "Track", "Date Leaked (approx)", "Producer(s)"])).toEqual([
      "title",
      "ignore",
      "leakDate",
      "producers",
    ]);
  });

  it("reads the documented date formats and refuses the rest", () => {
    for (const [raw, want] of [
      ["2021-01-05", "2021-01-05"],
      ["2021/1/5", "2021-01-05"],
      ["2021-01-05T10:00:00Z", "2021-01-05"],
      ["01/05/2021", "2021-01-05"],
      ["13/02/2021", "2021-02-13"],
      ["1/5/21", "2021-01-05"],
      ["05.01.2021", "2021-01-05"],
      ["Jan 5, 2021", "2021-01-05"],
      ["January 5th 2021", "2021-01-05"],
      ["5 Jan 2021", "2021-01-05"],
      ["44201", "2021-01-05"],
    ] as const) {
      expect(parseDate(raw, "Leak date"), raw).toEqual({ value: want });
    }
    expect(parseDate("", "Leak date")).toEqual({ value: null });
    expect(parseDate("???", "Leak date")).toEqual({ value: null });
    expect(parseDate("2021", "Leak date").warning).toBe('Leak date "2021" is not a full date: left empty');
    expect(parseDate("02/30/2021", "Leak date").warning).toContain("is not a date we can read");
    expect(parseDate("soon™", "Leak date")).toMatchObject({ value: null });
  });

  it("maps genres, availabilities and qualities from tracker wording", () => {
    expect(parseGenre("hip-hop")).toEqual({ value: "Rap" });
    expect(parseGenre("ROCK")).toEqual({ value: "Rock" });
    expect(parseGenre("")).toEqual({ value: "Other" });
    expect(parseGenre("Vaporwave")).toEqual({
      value: "Other",
      warning: 'Unknown genre "Vaporwave": imported as Other',
    });
    expect(parseAvailability("OG File").value).toBe("og_file");
    expect(parseAvailability("OG").value).toBe("og_file");
    expect(parseAvailability("Snippet (Recording)")).toEqual({ value: "snippet", quality: "recording" });
    expect(parseAvailability("Full").value).toBe("full");
    expect(parseAvailability("Partial").value).toBe("partial");
    expect(parseAvailability("Rap").warning).toBe('Unknown availability "Rap": left empty');
    // Issue 27: the values of a tracker's "Available Length" and "Quality" columns, each kept as itself.
    for (const [raw, want] of [
      ["Beat Only", "beat_only"],
      ["Tagged", "tagged"],
      ["Confirmed", "confirmed"],
      ["Rumored", "rumored"],
      ["Rumoured", "rumored"],
    ] as const)
      expect(parseAvailability(raw).value, raw).toBe(want);
    expect(parseQuality("CD Quality").value).toBe("cd_quality");
    expect(parseQuality("CDQ").value).toBe("cd_quality");
    expect(parseQuality("High Quality").value).toBe("high");
    expect(parseQuality("Low Quality").value).toBe("low");
    expect(parseQuality("Not Available").value).toBe("not_available");
    expect(parseQuality("HQ").value).toBe("high");
    expect(parseQuality("LQ").value).toBe("low");
    expect(parseQuality("Lossless").value).toBe("lossless");
    expect(parseQuality("Recording").value).toBe("recording");
    expect(parseQuality("Snippet (recording)").value).toBe("recording");
    expect(parseQuality("meh").warning).toContain("Unknown quality");
  });

  it("splits names, features out of artists, and feat./prod. out of titles", () => {
    expect(splitNames("A, B & C / D x E; a")).toEqual(["A", "B", "C", "D", "E"]);
    expect(splitArtists("Kanye West feat. Kid Cudi & Mr Hudson")).toEqual({
      artists: ["Kanye West"],
      features: ["Kid Cudi", "Mr Hudson"],
    });
    expect(splitTitle("Night Drive 🌙 (feat. Luna) [prod. Kay & Jay]")).toEqual({
      title: "Night Drive",
      features: ["Luna"],
      producers: ["Kay", "Jay"],
      references: [],
      aliases: [],
      versionLabel: null,
      marks: ["🌙"],
    });
  });

  it("takes marks, aliases, reference credits and version labels out of titles (issue 27)", () => {
    const parts = (raw: string) => {
      const p = splitTitle(raw);
      return { ...p, tags: tagsOf(p.marks, DEFAULT_TAG_LEGEND).value };
    };
    expect(parts("⭐ Tidewater (feat. Orrin Vale) (prod. Kessler & Mayo)")).toMatchObject({
      title: "Tidewater",
      features: ["Orrin Vale"],
      producers: ["Kessler", "Mayo"],
      tags: ["best"],
    });
    expect(parts("🏆 Undertow (Alt: Riptide) (prod. Kessler)")).toMatchObject({
      title: "Undertow",
      aliases: ["Riptide"],
      tags: ["grail"],
    });
    expect(parts("Night Ferry (ref. Dax Moreno)")).toMatchObject({ title: "Night Ferry", references: ["Dax Moreno"] });
    expect(parts("Lantern Song [V2]")).toMatchObject({ title: "Lantern Song", versionLabel: "V2" });
    expect(parts("✨ Paper Moons")).toMatchObject({ title: "Paper Moons", tags: ["special"] });
    expect(parts("🗑️ Filler Track")).toMatchObject({ title: "Filler Track", tags: ["worst"] });
    expect(parts("Coast [aka Night Swim, Low Tide] (Version 3)")).toMatchObject({
      title: "Coast",
      aliases: ["Night Swim", "Low Tide"],
      versionLabel: "V3",
    });
    // Tags that are part of the title stay; an alternate version is not an alias.
    expect(parts("Sunday (Alternate Version)")).toMatchObject({ title: "Sunday (Alternate Version)", aliases: [] });
    expect(parts("Refrain (Demo)")).toMatchObject({ title: "Refrain (Demo)", references: [] });
    // A mark the legend does not know is left out of the title, and said.
    expect(tagsOf(["🦄"], DEFAULT_TAG_LEGEND)).toEqual({
      value: [],
      warning: "Mark 🦄 is not in the legend: left out",
    });
    expect(tagsOf(["🦄"], { ...DEFAULT_TAG_LEGEND, "🦄": "wanted" })).toEqual({ value: ["wanted"] });
    expect(parseTagsCell("Best of, Grail, ✨", DEFAULT_TAG_LEGEND)).toEqual({ value: ["best", "grail", "special"] });
    expect(parseLength("3:45")).toEqual({ value: 225 });
    expect(parseLength("1:02:03")).toEqual({ value: 3723 });
    expect(parseLength("3m")).toMatchObject({ value: null });
  });

  // Issue 24: "a" + 3,000 spaces + "b" in an artists cell backtracked cubically through the name split and froze
  // the server for 25 s during a preview. Each value parser gets 30 KB cells built to make a backtracking regex
  // try every split of a run (blank runs before a word that never comes, unclosed brackets), on a worker thread
  // that is ended at the deadline: linear work is a few milliseconds, the old patterns never finished.
  it("splits and parses 30 KB adversarial cells in linear time", async () => {
    const module = new URL("./tracker-values.ts", import.meta.url);
    const spaces = " ".repeat(30_000);
    const cases: [string, string, unknown][] = [
      ["splitNames", `a${spaces}b`, ["a b"]],
      ["splitNames", `a${" \t".repeat(15_000)}x`, ["a x"]],
      ["splitNames", `a${spaces}x${spaces}b`, ["a", "b"]],
      ["splitNames", ",".repeat(30_000), []],
      ["splitArtists", `a${spaces}b`, { artists: ["a b"], features: [] }],
      ["splitArtists", `a${" feat".repeat(6_000)}`, undefined],
      [
        "splitTitle",
        `a${spaces}b`,
        { title: "a b", features: [], producers: [], references: [], aliases: [], versionLabel: null, marks: [] },
      ],
      ["splitTitle", `a${"(alt: b".repeat(4_000)}`, undefined],
      ["splitTitle", `a${"[ref. ".repeat(5_000)}`, undefined],
      ["splitTitle", `a${"(v".repeat(10_000)}`, undefined],
      ["splitTitle", "⭐".repeat(10_000), undefined],
      ["splitTitle", `a${"(feat. b".repeat(4_000)}`, undefined],
      ["splitTitle", `a${"[prod by ".repeat(3_000)}`, undefined],
      ["parseDate", `jan${spaces}x`, undefined],
      ["parseDate", `1${spaces}jan${spaces}x`, undefined],
      ["parseGenre", `${spaces}x`, undefined],
    ];
    for (const [fn, cell, expected] of cases) {
      const { value, ms } = await callWithin(module, fn, [cell, "Leak date"], 3_000);
      if (expected !== undefined) expect(value, fn).toEqual(expected);
      expect(ms, `${fn} on ${JSON.stringify(cell.slice(0, 20))}…`).toBeLessThan(1_000);
    }
  }, 60_000);
});

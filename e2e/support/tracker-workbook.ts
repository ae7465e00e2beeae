// Tracker workbooks and sheets as the community keeps them (issue 37), built in the test: a title and an
// announcement row above the header, an era header row with its statistics, blank Era cells under it, medal marks,
// dates with unknown parts and "Link" cells hyperlinked to their URL. SheetJS CE writes the .xlsx (the same library
// the server reads it with).
import * as XLSX from "@e965/xlsx";

/** The songs and era of one test's tracker, named after its tag. */
export type TrackerNames = {
  artist: string;
  era: string;
  eraStory: string;
  /** 🥇 in the sheet: "wanted" in the default legend. */
  wanted: string;
  /** A song with its "Link" cell hyperlinked to `linkUrl`. */
  linked: string;
  linkUrl: string;
  /** The Stems tab's song. */
  stem: string;
};

/** The names a tracker built from `tag` uses. */
export function trackerNames(tag: string): TrackerNames {
  return {
    artist: `Sheet Artist ${tag}`,
    era: `Tide Era ${tag}`,
    eraStory: `Recorded by the sea in the winter of ${tag}.`,
    wanted: `Undertow ${tag}`,
    linked: `Night Ferry ${tag}`,
    linkUrl: `https://files.example.com/night-ferry-${tag}`,
    stem: `Glass Tide ${tag}`,
  };
}

/** The header row of the Unreleased tab, its 3rd row. */
export const UNRELEASED_HEADER = [
  "Era",
  "Name",
  "Notes",
  "Track Length",
  "File Date",
  "Available Length",
  "Quality",
  "Link(s)",
];

/**
 * A three-tab .xlsx: Unreleased (a title row, an announcement row, the header on line 3, an era header row on line 4,
 * then songs with blank Era cells), Stems (one song) and Updates (a changelog, not a song list).
 */
export function trackerWorkbook(names: TrackerNames): Buffer {
  const unreleased = XLSX.utils.aoa_to_sheet([
    [`${names.artist} Unreleased Tracker`],
    ["Join the Discord for updates · Last updated 11/20/2026"],
    UNRELEASED_HEADER,
    ["1 OG File(s)\n2 Full\n1 Snippet(s)\n1 Unavailable", names.era, names.eraStory, "", "(2018 - 2019)"],
    ["", `🥇 ${names.wanted}`, "Played once on a livestream", "2:41", "??/??/2019", "Snippet", "LQ", ""],
    ["", names.linked, "", "3:05", "2019-03-02", "Full", "CDQ", "Link"],
  ]);
  // The "Link" cell (H6) is a hyperlink whose text differs from its URL: the URL is what is kept.
  const linkCell = unreleased.H6 as XLSX.CellObject;
  linkCell.l = { Target: names.linkUrl };
  const stems = XLSX.utils.aoa_to_sheet([
    ["Era", "Name", "Notes", "Available Length", "Quality"],
    [names.era, names.stem, "Vocals and drums", "OG File", "CDQ"],
  ]);
  const updates = XLSX.utils.aoa_to_sheet([
    ["Date", "Update"],
    ["11/20/2026", `Added ${names.linked}`],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, unreleased, "Unreleased");
  XLSX.utils.book_append_sheet(book, stems, "Stems");
  XLSX.utils.book_append_sheet(book, updates, "Updates");
  return XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
}

/** The MIME type of an .xlsx. */
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

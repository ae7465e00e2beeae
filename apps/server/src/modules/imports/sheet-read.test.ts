// Issue 37: a tracker downloaded whole (.xlsx, .ods, .xls) is read tab by tab, with its links and dates, and every
// bound (zip bomb, huge sheet, too many columns, formula-only file) refuses with a clear message. The workbooks are
// built here with SheetJS's writer (and fflate for zips), never checked in.
import * as XLSX from "@e965/xlsx";
import { IMPORT_LIMITS, IMPORT_MESSAGES } from "@unheard/shared";
import { deflateSync, strFromU8, strToU8, unzipSync, Zip, ZipDeflate, zipSync } from "fflate";
import { describe, expect, it, vi } from "vitest";
import { CsvError, readTable } from "./csv.js";
import { readSheetFile, SHEET_LIMITS, SheetError } from "./sheet-read.js";

type Cell = XLSX.CellObject;
type Row = (string | number | Cell | null)[];

/** A sheet from rows of values (strings, numbers) or whole cells (with a format, link or formula). */
function sheet(rows: Row[]): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = {};
  let width = 1;
  rows.forEach((row, r) => {
    width = Math.max(width, row.length);
    row.forEach((value, c) => {
      if (value === null) return;
      ws[XLSX.utils.encode_cell({ r, c })] =
        typeof value === "string" ? { t: "s", v: value } : typeof value === "number" ? { t: "n", v: value } : value;
    });
  });
  ws["!ref"] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(rows.length - 1, 0), c: width - 1 } });
  return ws;
}

function book(tabs: Record<string, XLSX.WorkSheet>, props: XLSX.WBProps = {}): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  for (const [name, ws] of Object.entries(tabs)) XLSX.utils.book_append_sheet(wb, ws, name);
  wb.Workbook = props;
  return wb;
}

function write(wb: XLSX.WorkBook, bookType: XLSX.BookType): Uint8Array {
  // SheetJS's ods writer complains on stderr about formats it writes anyway (a space in "m/d/yyyy h:mm").
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    return new Uint8Array(XLSX.write(wb, { type: "array", bookType }) as ArrayBuffer);
  } finally {
    quiet.mockRestore();
  }
}

/** A date serial (1900 system) shown with `z`. */
const date = (v: number, z = "m/d/yyyy"): Cell => ({ t: "n", v, z });
const link = (text: string, target: string): Cell => ({ t: "s", v: text, l: { Target: target } });

/** A tracker of three tabs as a community keeps it: title row, links, dates, a hidden Updates tab. */
function trackerBook(): XLSX.WorkBook {
  const unreleased = sheet([
    ["Ye Unreleased Tracker"],
    ["Era", "Name", "Notes", "Link(s)", "Leak Date", "Length", "Source", "Recorded"],
    [
      "Yandhi",
      "Hurricane",
      "Snippet",
      link("Link", "https://example.com/hurricane"),
      date(43_738),
      { t: "n", v: 225 / 86_400, z: "[h]:mm:ss" },
      link("https://example.com/direct", "https://example.com/direct"),
      date(43_832.75, "m/d/yyyy h:mm"),
    ],
    [
      "Yandhi",
      "New Body",
      { t: "s", v: "Listen", f: 'HYPERLINK("https://example.com/listen","Listen")' },
      link("Jump", "#Stems!A1"),
      { t: "n", v: 43_738, z: "mmm yyyy" },
      { t: "n", v: 1.25, z: "[h]:mm:ss" },
      link("Mail", "mailto:someone@example.com"),
      { t: "b", v: true },
      { t: "e", v: 0x2a },
      { t: "n", v: 1.5 },
      { t: "s", v: "" },
    ],
  ]);
  const stems = sheet([
    ["Name", "Stems"],
    ["Hurricane", "Vocals"],
  ]);
  const updates = sheet([
    ["Date", "Update"],
    [date(43_739), "Added Hurricane"],
  ]);
  return book(
    { Unreleased: unreleased, Stems: stems, Updates: updates },
    {
      Sheets: [
        { name: "Unreleased", Hidden: 0 },
        { name: "Stems", Hidden: 0 },
        { name: "Updates", Hidden: 1 },
      ],
    },
  );
}

/** The error a read throws (or fails the test when it reads). */
function refusal(bytes: Uint8Array, fileName = "tracker.xlsx"): SheetError {
  try {
    readSheetFile(bytes, fileName);
  } catch (err) {
    expect(err).toBeInstanceOf(SheetError);
    return err as SheetError;
  }
  throw new Error("the file was read");
}

/** Elapsed milliseconds of `fn`, with its result. */
function timed<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

describe("workbooks read tab by tab (issue 37)", () => {
  it("reads an .xlsx: every tab in order, hidden ones flagged, title rows kept, links, dates and shown text", () => {
    const file = readSheetFile(write(trackerBook(), "xlsx"), "Ye Tracker.xlsx");
    expect(file.format).toBe("xlsx");
    expect(file.delimiter).toBeNull();
    expect(file.tabs.map((t) => [t.name, t.hidden])).toEqual([
      ["Unreleased", false],
      ["Stems", false],
      ["Updates", true],
    ]);
    const [unreleased, stems, updates] = file.tabs;
    expect(unreleased?.rows).toEqual([
      ["Ye Unreleased Tracker"],
      ["Era", "Name", "Notes", "Link(s)", "Leak Date", "Length", "Source", "Recorded"],
      // A date typed as a date is ISO; a date-time keeps its day; a duration keeps what it shows.
      ["Yandhi", "Hurricane", "Snippet", "Link", "2019-09-30", "0:03:45", "https://example.com/direct", "2020-01-02"],
      // A month alone stays as shown (no day invented); a duration past a day is not a date; booleans as shown; an
      // error cell empty; the trailing empty cell trimmed.
      ["Yandhi", "New Body", "Listen", "Jump", "Sep 2019", "30:00:00", "Mail", "TRUE", "", "1.5"],
    ]);
    // Kept: a link whose text differs (the cell says "Link"), a HYPERLINK formula's URL. Not kept: a cell whose text
    // is its URL, a link inside the workbook, a mail link.
    expect(unreleased?.links).toEqual({
      "2:3": ["https://example.com/hurricane"],
      "3:2": ["https://example.com/listen"],
    });
    expect(stems?.rows).toEqual([
      ["Name", "Stems"],
      ["Hurricane", "Vocals"],
    ]);
    expect(updates?.rows[1]).toEqual(["2019-10-01", "Added Hurricane"]);
  });

  it("reads dates without the local time zone, and a 1904-based workbook's dates from 1904", () => {
    const bytes = write(trackerBook(), "xlsx");
    const before = process.env.TZ;
    try {
      for (const tz of ["Pacific/Kiritimati", "America/Los_Angeles", "Asia/Kolkata"]) {
        process.env.TZ = tz;
        expect(new Date(Date.UTC(2020, 0, 1)).getTimezoneOffset()).not.toBe(0);
        const rows = readSheetFile(bytes, "t.xlsx").tabs[0]?.rows;
        expect(rows?.[2]?.[4]).toBe("2019-09-30");
        expect(rows?.[2]?.[7]).toBe("2020-01-02");
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
    // 42,276 days after 1 January 1904 is 30 September 2019 (after 1900 it would be in 2015).
    const mac = book(
      { Dates: sheet([["Leak Date"], [date(42_276)], [date(59)], [date(61)]]) },
      {
        WBProps: { date1904: true },
      },
    );
    expect(readSheetFile(write(mac, "xlsx"), "mac.xlsx").tabs[0]?.rows).toEqual([
      ["Leak Date"],
      ["2019-09-30"],
      ["1904-02-29"],
      ["1904-03-02"],
    ]);
    // The 1900 system counts Excel's 29 February 1900, a day that never was: it stays as shown.
    const old = readSheetFile(write(book({ Dates: sheet([[date(59)], [date(60)], [date(61)]]) }), "xlsx"), "o.xlsx");
    expect(old.tabs[0]?.rows).toEqual([["1900-02-28"], ["2/29/1900"], ["1900-03-01"]]);
  });

  it("reads the same tracker as .ods: tabs, dates, durations and links", () => {
    const file = readSheetFile(write(trackerBook(), "ods"), "Ye Tracker.ods");
    expect(file.format).toBe("ods");
    expect(file.tabs.map((t) => t.name)).toEqual(["Unreleased", "Stems", "Updates"]);
    const rows = file.tabs[0]?.rows;
    expect(rows?.[0]).toEqual(["Ye Unreleased Tracker"]);
    expect(rows?.[2]).toEqual([
      "Yandhi",
      "Hurricane",
      "Snippet",
      "Link",
      "2019-09-30",
      "0:03:45",
      "https://example.com/direct",
      "2020-01-02",
    ]);
    expect(file.tabs[0]?.links).toEqual({
      "2:3": ["https://example.com/hurricane"],
      "3:2": ["https://example.com/listen"],
    });
    expect(file.tabs[2]?.rows[1]).toEqual(["2019-10-01", "Added Hurricane"]);
  });

  it("reads an .ods as LibreOffice writes it: hidden tabs, typed dates and times, a million repeated empty rows", () => {
    const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
<office:automatic-styles>
<style:style style:name="ta1" style:family="table" style:master-page-name="Default"><style:table-properties table:display="true" style:writing-mode="lr-tb"/></style:style>
<style:style style:name="ta2" style:family="table" style:master-page-name="Default"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Unreleased" table:style-name="ta1">
<table:table-row><table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Leak Date</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Length</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Link</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1020"/></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Hurricane</text:p></table:table-cell><table:table-cell office:value-type="date" office:date-value="2019-09-30"><text:p>09/30/19</text:p></table:table-cell><table:table-cell office:value-type="time" office:time-value="PT00H03M45S"><text:p>00:03:45</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p><text:a xlink:href="https://example.com/hurricane" xlink:type="simple">Link</text:a></text:p></table:table-cell><table:table-cell table:number-columns-repeated="1020"/></table:table-row>
<table:table-row table:number-rows-repeated="1048574"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
</table:table>
<table:table table:name="Info &amp; Rules" table:style-name="ta2">
<table:table-row><table:table-cell office:value-type="string"><text:p>Be nice</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="1048575"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document-content>`;
    const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
<manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
    const bytes = zipSync({
      mimetype: [strToU8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
      "content.xml": strToU8(content),
      "styles.xml": strToU8(
        '<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3"/>',
      ),
      "META-INF/manifest.xml": strToU8(manifest),
    });
    const { value: file, ms } = timed(() => readSheetFile(bytes, "libre.ods"));
    expect(file.format).toBe("ods");
    expect(file.tabs).toEqual([
      {
        name: "Unreleased",
        hidden: false,
        rows: [
          ["Name", "Leak Date", "Length", "Link"],
          ["Hurricane", "2019-09-30", "00:03:45", "Link"],
        ],
        links: { "1:3": ["https://example.com/hurricane"] },
      },
      { name: "Info & Rules", hidden: true, rows: [["Be nice"]], links: {} },
    ]);
    expect(ms).toBeLessThan(2000);
  });

  it("reads an .xls (BIFF8): tabs, hidden tabs, dates, links", () => {
    const file = readSheetFile(write(trackerBook(), "biff8"), "old.xls");
    expect(file.format).toBe("xls");
    expect(file.tabs.map((t) => [t.name, t.hidden])).toEqual([
      ["Unreleased", false],
      ["Stems", false],
      ["Updates", true],
    ]);
    expect(file.tabs[0]?.rows[2]?.slice(0, 6)).toEqual([
      "Yandhi",
      "Hurricane",
      "Snippet",
      "Link",
      "2019-09-30",
      "0:03:45",
    ]);
    expect(file.tabs[0]?.links["2:3"]).toEqual(["https://example.com/hurricane"]);
  });

  it("reads a 2,000-row, 12-column tracker quickly", () => {
    const header = ["Era", "Name", "Notes", "Track Length", "File Date", "Leak Date", "Type", "Available", "Quality"];
    const rows: Row[] = [
      ["Big Tracker"],
      [...header, "Link(s)", "Producers", "Features"],
      ...Array.from(
        { length: 2000 },
        (_, i): Row => [
          `Era ${Math.floor(i / 100)}`,
          `Song ${i}`,
          "Some notes about the song, its story and where it leaked from.",
          { t: "n", v: (180 + (i % 120)) / 86_400, z: "[h]:mm:ss" },
          date(43_000 + i),
          date(43_500 + i),
          "Snippet",
          "Partial",
          "CD Quality",
          link("Link", `https://example.com/s/${i}`),
          "Producer A, Producer B",
          "Feature",
        ],
      ),
    ];
    const bytes = write(book({ Unreleased: sheet(rows) }), "xlsx");
    const { value: file, ms } = timed(() => readSheetFile(bytes, "big.xlsx"));
    console.log(`read a 2,000 x 12 xlsx (${(bytes.length / 1024).toFixed(0)} KB) in ${ms.toFixed(0)} ms`);
    expect(file.tabs[0]?.rows).toHaveLength(2002);
    expect(file.tabs[0]?.rows[2001]?.[5]).toBe("2024-07-26");
    expect(Object.keys(file.tabs[0]?.links ?? {})).toHaveLength(2000);
    expect(ms).toBeLessThan(5000);
  });
});

/** Bytes of a zip built by hand: entries as given, and a central directory listing `directory` (default: all). */
type DirectoryEntry = { name: string; entry: number; method: 0 | 8; compressed: number; size: number; at?: number };

function handZip(
  entries: { name: string; method: 0 | 8; data: Uint8Array; size: number; crc: number }[],
  directory?: DirectoryEntry[],
): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = 0;
  const push = (b: Uint8Array) => {
    parts.push(b);
    at += b.length;
  };
  for (const e of entries) {
    offsets.push(at);
    push(localHeader(e.name, e.method, e.data.length, e.size, e.crc));
    push(e.data);
  }
  const cdStart = at;
  const list: DirectoryEntry[] =
    directory ??
    entries.map((e, i) => ({ name: e.name, entry: i, method: e.method, compressed: e.data.length, size: e.size }));
  for (const d of list) {
    const name = strToU8(d.name);
    const h = new DataView(new ArrayBuffer(46));
    h.setUint32(0, 0x02014b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, 20, true);
    h.setUint16(10, d.method, true);
    h.setUint32(16, entries[d.entry]?.crc ?? 0, true);
    h.setUint32(20, d.compressed, true);
    h.setUint32(24, d.size, true);
    h.setUint16(28, name.length, true);
    h.setUint32(42, d.at ?? offsets[d.entry] ?? 0, true);
    push(new Uint8Array(h.buffer));
    push(name);
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, list.length, true);
  end.setUint16(10, list.length, true);
  end.setUint32(12, at - cdStart, true);
  end.setUint32(16, cdStart, true);
  push(new Uint8Array(end.buffer));
  const out = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function localHeader(name: string, method: number, compressed: number, size: number, crc: number): Uint8Array {
  const n = strToU8(name);
  const h = new DataView(new ArrayBuffer(30));
  h.setUint32(0, 0x04034b50, true);
  h.setUint16(4, 20, true);
  h.setUint16(8, method, true);
  h.setUint32(14, crc, true);
  h.setUint32(18, compressed, true);
  h.setUint32(22, size, true);
  h.setUint16(26, n.length, true);
  const out = new Uint8Array(30 + n.length);
  out.set(new Uint8Array(h.buffer));
  out.set(n, 30);
  return out;
}

/**
 * A workbook zip of zeros: `parts` sheets of `mb` MB each, deflated as a stream, so the test never holds what it
 * inflates to.
 */
function zerosWorkbook(parts: number, mb: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    chunks.push(data);
  });
  const types = new ZipDeflate("[Content_Types].xml");
  zip.add(types);
  types.push(
    strToU8(
      '<Types><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
    true,
  );
  const zeros = new Uint8Array(1024 * 1024);
  for (let sheet = 1; sheet <= parts; sheet++) {
    const bomb = new ZipDeflate(`xl/worksheets/sheet${sheet}.xml`, { level: 9 });
    zip.add(bomb);
    for (let i = 0; i < mb; i++) bomb.push(zeros, i === mb - 1);
  }
  zip.end();
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

describe("workbook bounds (issue 37)", () => {
  it("refuses a zip bomb fast, counting what it really inflates", async () => {
    // 120 MB of zeros in three sheets of 40 MB.
    const bytes = zerosWorkbook(3, 40);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const { value: err, ms } = timed(() => refusal(bytes));
    console.log(`zip bomb: ${(bytes.length / 1024).toFixed(0)} KB unpacking to 120 MB, refused in ${ms.toFixed(0)} ms`);
    expect(err.message).toBe(IMPORT_MESSAGES.workbookUnpacksTooLarge(100));
    expect(SHEET_LIMITS.maxUnzippedBytes).toBe(100 * 1024 * 1024);
    expect(ms).toBeLessThan(5000);
  });
  it("refuses one part that unpacks past its own bound, though the whole stays under the total", async () => {
    // 70 MB of zeros in one sheet: under the 100 MB total, over the 60 MB a part may take.
    const bytes = zerosWorkbook(1, 70);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const { value: err, ms } = timed(() => refusal(bytes));
    console.log(`one 70 MB part: ${(bytes.length / 1024).toFixed(0)} KB, refused in ${ms.toFixed(0)} ms`);
    expect(err.message).toBe(IMPORT_MESSAGES.workbookPartTooLarge(60));
    expect(SHEET_LIMITS.maxPartBytes).toBe(60 * 1024 * 1024);
    expect(ms).toBeLessThan(5000);
  });

  it("hands SheetJS only what it counted: a central directory listing a hidden bomb again and again does not reach it", () => {
    // A plain workbook, then a central directory that also lists, 40 times, a deflated 8 MB hidden inside a
    // stored entry's bytes (where a walk of the entries never inflates it): 320 MB for a reader of the directory.
    const plain = unzipSync(write(book({ Songs: sheet([["Name"], ["Hurricane"]]) }), "xlsx"));
    const hiddenData = new Uint8Array(8 * 1024 * 1024);
    const deflated = deflateSync(hiddenData, { level: 9 });
    const hiddenHeader = localHeader("xl/worksheets/sheet1.xml", 8, deflated.length, hiddenData.length, 0);
    const carrier = new Uint8Array(hiddenHeader.length + deflated.length);
    carrier.set(hiddenHeader);
    carrier.set(deflated, hiddenHeader.length);
    const entries = [
      ...Object.entries(plain).map(([name, data]) => ({ name, method: 0 as const, data, size: data.length, crc: 0 })),
      { name: "docProps/custom.bin", method: 0 as const, data: carrier, size: carrier.length, crc: 0 },
    ];
    let carrierAt = 0;
    for (const e of entries.slice(0, -1)) carrierAt += 30 + strToU8(e.name).length + e.data.length;
    // The copies come first: a reader of the directory finds the bomb's "sheet1.xml" before the real one.
    const directory = [
      ...Array.from({ length: 40 }, (_, i) => ({
        name: `xl/worksheets/copy${i}.xml`,
        entry: entries.length - 1,
        method: 8 as const,
        compressed: deflated.length,
        size: hiddenData.length,
        at: carrierAt + 30 + strToU8("docProps/custom.bin").length,
      })),
      ...entries.map((e, i) => ({ name: e.name, entry: i, method: e.method, compressed: e.data.length, size: e.size })),
    ];
    const bytes = handZip(entries, directory);
    const { value: file, ms } = timed(() => readSheetFile(bytes, "overlap.xlsx"));
    expect(file.tabs).toEqual([{ name: "Songs", hidden: false, rows: [["Name"], ["Hurricane"]], links: {} }]);
    expect(ms).toBeLessThan(1000);
  });

  it("refuses a zip of more than 5,000 entries", () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i <= SHEET_LIMITS.maxZipEntries; i++) files[`xl/media/part${i}.xml`] = strToU8("<x/>");
    expect(refusal(zipSync(files)).message).toBe(IMPORT_MESSAGES.workbookTooManyParts(5000));
  });

  it("refuses a zip that is not a workbook, and bytes that only start like one", () => {
    const mp3s = zipSync({ "01 Hurricane.mp3": new Uint8Array(4096).fill(7), "02 New Body.mp3": new Uint8Array(10) });
    expect(refusal(mp3s, "songs.zip").message).toBe(IMPORT_MESSAGES.workbookNotSpreadsheet);
    const docx = zipSync({
      "[Content_Types].xml": strToU8(
        '<Types><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      "word/document.xml": strToU8("<w:document/>"),
    });
    expect(refusal(docx, "notes.docx").message).toBe(IMPORT_MESSAGES.workbookNotSpreadsheet);
    const random = new Uint8Array(5000).map((_, i) => (i * 7919 + 13) % 251);
    random.set([0x50, 0x4b]);
    expect(refusal(random).message).toBe(IMPORT_MESSAGES.workbookUnreadable);
    // A zip whose workbook part is broken, and an OLE file that holds no workbook (a Word document, say).
    const broken = zipSync(unzipSync(write(trackerBook(), "xlsx")), { level: 0 });
    const workbookAt = strFromU8(broken, true).indexOf("<workbook");
    broken.set(strToU8("<<<<<<<<<"), workbookAt);
    expect(refusal(broken).message).toBe(IMPORT_MESSAGES.workbookUnreadable);
    const ole = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(ole, "WordDocument", new Uint8Array(600).fill(1));
    const oleBytes = new Uint8Array(XLSX.CFB.write(ole, { type: "array" }) as ArrayBuffer);
    expect(refusal(oleBytes, "letter.doc").message).toBe(IMPORT_MESSAGES.workbookUnreadable);
  });

  it("refuses a tab with more rows than an import takes, reading only up to the bound", () => {
    const limit = IMPORT_LIMITS.headerScanRows + IMPORT_LIMITS.maxRows;
    const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => [`Song ${i}`]);
    const over = write(
      book({ Small: sheet([["Name"], ["a"]]), Huge: sheet(rows(IMPORT_LIMITS.maxRows + 100)) }),
      "xlsx",
    );
    const { value: err, ms } = timed(() => refusal(over));
    console.log(`${(IMPORT_LIMITS.maxRows + 100).toLocaleString("en-US")}-row tab refused in ${ms.toFixed(0)} ms`);
    expect(err.message).toBe(IMPORT_MESSAGES.tooManyRows);
    // At the bound: read whole.
    const at = readSheetFile(write(book({ Full: sheet(rows(limit)) }), "xlsx"), "full.xlsx");
    expect(at.tabs[0]?.rows).toHaveLength(limit);
    expect(at.tabs[0]?.rows[limit - 1]).toEqual([`Song ${limit - 1}`]);
  }, 30_000);

  it("refuses a value past the 100th column, and a cell longer than an import reads", () => {
    const wide = Array.from({ length: IMPORT_LIMITS.maxColumns + 1 }, (_, c) => `Column ${c}`);
    expect(refusal(write(book({ Wide: sheet([["Name"], wide]) }), "xlsx")).message).toBe(
      IMPORT_MESSAGES.tooManyColumns,
    );
    // Empty cells past it are not values.
    const padded = [...wide.slice(0, IMPORT_LIMITS.maxColumns), { t: "s", v: "" } as Cell];
    expect(readSheetFile(write(book({ Fine: sheet([padded]) }), "xlsx"), "f.xlsx").tabs[0]?.rows[0]).toHaveLength(100);
    const long = "x".repeat(IMPORT_LIMITS.maxCellChars + 1);
    expect(
      refusal(
        write(
          book({
            Long: sheet([
              ["Name", "Notes"],
              ["a", "ok"],
              ["b", long],
            ]),
          }),
          "ods",
        ),
      ).message,
    ).toBe(IMPORT_MESSAGES.cellTooLong(3));
  });

  it("refuses a workbook of more tabs than an import takes", () => {
    const tabs: Record<string, XLSX.WorkSheet> = {};
    for (let i = 0; i <= IMPORT_LIMITS.maxTabs; i++) tabs[`Tab ${i}`] = sheet([["Name"]]);
    expect(refusal(write(book(tabs), "xlsx")).message).toBe(IMPORT_MESSAGES.tooManyTabs);
  });

  it("refuses a workbook of formulas saved without their values, and reads one whose formulas have them", () => {
    const formulas = (withValues: boolean) =>
      sheet([
        ["Name", "Count", "Total"],
        ...Array.from(
          { length: 20 },
          (_, i): Row => [
            { t: "s", f: `"Song "&${i}`, ...(withValues ? { v: `Song ${i}` } : {}) } as Cell,
            { t: "n", f: `${i}*2`, ...(withValues ? { v: i * 2 } : {}) } as Cell,
            { t: "n", f: `B${i + 2}+1`, ...(withValues ? { v: i * 2 + 1 } : {}) } as Cell,
          ],
        ),
      ]);
    const unvalued = write(book({ Songs: formulas(false) }), "xlsx");
    expect(refusal(unvalued).message).toBe(IMPORT_MESSAGES.workbookFormulasOnly);
    // As other programs write them (no type, no value): SheetJS drops such cells unless asked to keep stubs.
    const parts = unzipSync(unvalued);
    const sheetXml = strFromU8(parts["xl/worksheets/sheet1.xml"] ?? new Uint8Array());
    expect(sheetXml).toMatch(/<f>/);
    parts["xl/worksheets/sheet1.xml"] = strToU8(sheetXml.replace(/ t="(e|str)"(?=><f>)/g, ""));
    expect(refusal(zipSync(parts)).message).toBe(IMPORT_MESSAGES.workbookFormulasOnly);
    const valued = readSheetFile(write(book({ Songs: formulas(true) }), "xlsx"), "v.xlsx");
    expect(valued.tabs[0]?.rows[1]).toEqual(["Song 0", "0", "1"]);
  });
});

describe("CSV and TSV through readSheetFile (issue 37)", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it("reads them as before, as one tab named after the file", () => {
    const csv = "Name,Artist\nHurricane,Ye\n";
    expect(readSheetFile(bytes(csv), "uploads/Ye Tracker.csv")).toEqual({
      format: "csv",
      delimiter: "comma",
      tabs: [{ name: "Ye Tracker", hidden: false, rows: readTable(bytes(csv), "t.csv", 10).rows, links: {} }],
    });
    const tsv = readSheetFile(bytes("Name\tNotes\tLink\nA\t\t\n\n\n"), "t.tsv");
    expect(tsv.delimiter).toBe("tab");
    expect(tsv.tabs[0]?.rows).toEqual([["Name", "Notes", "Link"], ["A"]]);
    expect(readSheetFile(bytes("Name;Artist\nA;B"), "t.txt").delimiter).toBe("semicolon");
  });

  it("refuses what csv.ts refuses, with the same error type", () => {
    expect(CsvError).toBe(SheetError);
    expect(refusal(new Uint8Array(), "t.csv").message).toBe(IMPORT_MESSAGES.fileEmpty);
    expect(refusal(new Uint8Array([1, 2, 0, 4, 5]), "t.csv").message).toBe(IMPORT_MESSAGES.notText);
    const wide = Array.from({ length: IMPORT_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`).join(",");
    expect(refusal(bytes(`Name\n${wide}`), "t.csv").message).toBe(IMPORT_MESSAGES.tooManyColumns);
    const tooMany = `Name\n${"a\n".repeat(IMPORT_LIMITS.headerScanRows + IMPORT_LIMITS.maxRows)}`;
    expect(refusal(bytes(tooMany), "t.csv").message).toBe(IMPORT_MESSAGES.tooManyRows);
  });
});

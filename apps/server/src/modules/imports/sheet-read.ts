// Reading a tracker file into tabs (issue 37): a workbook (.xlsx, .ods, .xls) through SheetJS, else CSV/TSV text
// through csv.ts. Every bound is checked before or while reading, never after holding the whole thing: a zip is
// walked and inflated here first (counting what it really unpacks to, not what its headers claim) and handed to
// SheetJS rebuilt from what was counted; a sheet is read only up to the rows an import may hold. Heavy: callers on
// the server run it on the audio pool's threads (AudioPool.readSheet), never on the event loop.
import * as XLSX from "@e965/xlsx";
import { IMPORT_LIMITS, IMPORT_MESSAGES } from "@unheard/shared";
import { strFromU8, Unzip, UnzipInflate, zipSync } from "fflate";
import { type Delimiter, readTable, SheetError } from "./csv.js";

export { SheetError };

/** One tab of a sheet file. */
export type SheetTab = {
  /** The tab's name; a CSV/TSV is one tab named after the file without its extension. */
  name: string;
  /** A hidden tab in a workbook. */
  hidden: boolean;
  /** Cell text; trailing empty cells and rows trimmed. */
  rows: string[][];
  /** Hyperlink targets of cells whose target differs from their text, keyed `${rowIndex}:${colIndex}` (0-based). */
  links: Record<string, string[]>;
};

/** A file read whole: its format, a CSV's delimiter, its tabs in order. */
export type SheetFile = {
  format: "csv" | "xlsx" | "ods" | "xls";
  delimiter: "comma" | "tab" | "semicolon" | null;
  tabs: SheetTab[];
};

/**
 * Bounds of reading a file: what a workbook's zip may unpack to (bytes actually inflated) and how many entries it may
 * hold; the rows a tab (or a CSV) may hold: the rows above the header searched for it, then the songs.
 */
export const SHEET_LIMITS = {
  maxUnzippedBytes: 100 * 1024 * 1024,
  /**
   * One XML part (a tab): SheetJS holds a part as one string, and a single allocation far past a thread's heap
   * bound ends the whole process rather than the thread; real trackers' tabs are a few MB.
   */
  maxPartBytes: 60 * 1024 * 1024,
  maxZipEntries: 5_000,
  maxTabRows: IMPORT_LIMITS.headerScanRows + IMPORT_LIMITS.maxRows,
} as const;

const MAX_TAB_ROWS = SHEET_LIMITS.maxTabRows;
/** Compressed bytes fed to the inflater at a time: deflate expands at most ~1,032x, so ~16 MB out per step. */
const ZIP_CHUNK = 16 * 1024;
/** Dates past 9999-12-31 are not dates a spreadsheet shows. */
const MAX_DATE_SERIAL = 2_958_465;

const DELIMITER_NAMES = { ",": "comma", "\t": "tab", ";": "semicolon" } as const satisfies Record<
  Delimiter,
  SheetFile["delimiter"]
>;

// SheetJS types its number-format library as `any`: the calls used, typed.
const SSF = XLSX.SSF as {
  is_date(fmt: string): boolean;
  get_table(): Record<number, string | undefined>;
  format(fmt: string, value: number): string;
};

/** Read any accepted file: workbook by magic bytes (zip: xlsx or ods by its content; OLE: xls), else CSV/TSV text. */
export function readSheetFile(bytes: Uint8Array, fileName: string): SheetFile {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const { format, zip, hiddenTabs } = unpackZip(bytes);
    return { format, delimiter: null, tabs: readWorkbook(zip, format, hiddenTabs) };
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0)
    return { format: "xls", delimiter: null, tabs: readWorkbook(bytes, "xls") };
  // As many rows as a workbook tab: a CSV may have title rows above its header too.
  const table = readTable(bytes, fileName, MAX_TAB_ROWS - 1);
  const rows = trimRows(table.rows);
  for (const row of rows)
    if (row.length > IMPORT_LIMITS.maxColumns) throw new SheetError(IMPORT_MESSAGES.tooManyColumns);
  return {
    format: "csv",
    delimiter: DELIMITER_NAMES[table.delimiter],
    tabs: [{ name: tabName(fileName), hidden: false, rows, links: {} }],
  };
}

/** A CSV's tab name: the file's name without folders and extension. */
function tabName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  return base.replace(/\.[^.]*$/, "") || "Sheet1";
}

/** Rows without their trailing empty cells, and without trailing empty rows. */
function trimRows(rows: string[][]): string[][] {
  const out = rows.map((row) => {
    let end = row.length;
    while (end > 0 && row[end - 1] === "") end--;
    return end === row.length ? row : row.slice(0, end);
  });
  while (out.length > 0 && out[out.length - 1]?.length === 0) out.pop();
  return out;
}

/**
 * Walk a zip's entries as they are stored, one after the other, inflating each in small steps and counting the bytes
 * that really come out (headers may lie) and the entries; stop past either bound. Tell an xlsx from an ods by its
 * content, and rebuild the zip from what was counted (stored, not compressed): SheetJS reads entries through the
 * central directory, which could list the same compressed bytes many times over (an overlapping-entries bomb).
 */
function unpackZip(bytes: Uint8Array): { format: "xlsx" | "ods"; zip: Uint8Array; hiddenTabs: Set<string> } {
  const files: Record<string, Uint8Array> = {};
  let total = 0;
  let entries = 0;
  let refusal: string | undefined;
  let broken = false;
  const unzip = new Unzip((file) => {
    if (refusal || broken) return;
    if (++entries > SHEET_LIMITS.maxZipEntries) {
      refusal = IMPORT_MESSAGES.workbookTooManyParts(SHEET_LIMITS.maxZipEntries);
      return;
    }
    // SheetJS reads only the XML parts (and an ods's mimetype); images and the like are counted, then dropped.
    const keep = /\.(xml|rels)$/i.test(file.name) || file.name === "mimetype";
    const chunks: Uint8Array[] = [];
    let part = 0;
    file.ondata = (err, data, final) => {
      if (refusal || broken) return;
      if (err) {
        broken = true;
        return;
      }
      total += data.length;
      part += data.length;
      if (total > SHEET_LIMITS.maxUnzippedBytes || part > SHEET_LIMITS.maxPartBytes) {
        refusal =
          total > SHEET_LIMITS.maxUnzippedBytes
            ? IMPORT_MESSAGES.workbookUnpacksTooLarge(SHEET_LIMITS.maxUnzippedBytes / 1024 / 1024)
            : IMPORT_MESSAGES.workbookPartTooLarge(SHEET_LIMITS.maxPartBytes / 1024 / 1024);
        file.terminate();
        return;
      }
      if (keep && data.length > 0) chunks.push(data);
      if (final && keep) files[file.name] = concat(chunks);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !refusal && !broken; at += ZIP_CHUNK) {
      const end = Math.min(at + ZIP_CHUNK, bytes.length);
      unzip.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch {
    broken = true;
  }
  if (refusal) throw new SheetError(refusal);
  const format = zipFormat(files);
  // Bytes that only start like a zip hold no entry: not a zip of something else, just not readable.
  if (!format)
    throw new SheetError(
      broken || entries === 0 ? IMPORT_MESSAGES.workbookUnreadable : IMPORT_MESSAGES.workbookNotSpreadsheet,
    );
  if (broken) throw new SheetError(IMPORT_MESSAGES.workbookUnreadable);
  const content = files["content.xml"];
  const hiddenTabs = format === "ods" && content ? odsHiddenTabs(content) : new Set<string>();
  return { format, zip: zipSync(files, { level: 0 }), hiddenTabs };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** An Excel workbook (also macro-enabled or a template, not binary .xlsb), an OpenDocument spreadsheet, or neither. */
function zipFormat(files: Record<string, Uint8Array>): "xlsx" | "ods" | undefined {
  const types = files["[Content_Types].xml"];
  if (
    types &&
    /spreadsheetml\.(sheet|template)\.main\+xml|ms-excel\.(sheet|template)\.macroEnabled\.main\+xml/.test(
      strFromU8(types),
    )
  )
    return "xlsx";
  const mimetype = files.mimetype;
  if (mimetype && strFromU8(mimetype).trim().startsWith("application/vnd.oasis.opendocument.spreadsheet")) return "ods";
  const manifest = files["META-INF/manifest.xml"];
  if (
    manifest &&
    files["content.xml"] &&
    /manifest:full-path="\/"[^>]*media-type="application\/vnd\.oasis\.opendocument\.spreadsheet|media-type="application\/vnd\.oasis\.opendocument\.spreadsheet[^"]*"[^>]*full-path="\/"/.test(
      strFromU8(manifest),
    )
  )
    return "ods";
  return undefined;
}

/**
 * The hidden tabs of an ods (SheetJS does not read them): tables whose automatic style says table:display="false".
 * Found by searching the bytes, so a large content.xml is never decoded whole here.
 */
function odsHiddenTabs(content: Uint8Array): Set<string> {
  const xml = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const hidden = new Set<string>();
  const body = xml.indexOf("<office:body");
  const styles = xml.toString("utf8", 0, body < 0 ? xml.length : body);
  const hiddenStyles = new Set<string>();
  for (const m of styles.matchAll(/<style:style\s([^>]*)>([\s\S]*?)<\/style:style>/g)) {
    const attrs = m[1] ?? "";
    const name = /style:name="([^"]*)"/.exec(attrs)?.[1];
    if (name && /style:family="table"/.test(attrs) && /table:display="false"/.test(m[2] ?? "")) hiddenStyles.add(name);
  }
  if (hiddenStyles.size === 0) return hidden;
  for (let at = xml.indexOf("<table:table ", body); at >= 0; at = xml.indexOf("<table:table ", at + 1)) {
    const end = xml.indexOf(">", at);
    if (end < 0) break;
    const tag = xml.toString("utf8", at, end);
    const style = /table:style-name="([^"]*)"/.exec(tag)?.[1];
    const name = /table:name="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined && style && hiddenStyles.has(style)) hidden.add(unescapeXml(name));
  }
  return hidden;
}

function unescapeXml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-f]+|#\d+);/gi, (all, e: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (named[e]) return named[e];
    const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** Parse a workbook with SheetJS (at most the rows a tab may hold) and turn each tab into text, links and checks. */
function readWorkbook(
  data: Uint8Array,
  format: "xlsx" | "ods" | "xls",
  hiddenTabs: Set<string> = new Set(),
): SheetTab[] {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(data, {
      type: "array",
      dense: true,
      // Formulas: a HYPERLINK's target, and telling a file saved without its values.
      cellFormula: true,
      cellNF: true,
      cellHTML: false,
      cellStyles: false,
      // One row past the bound, so a tab that reaches it is seen to; the rest is never read.
      sheetRows: MAX_TAB_ROWS + 1,
      // An xlsx formula saved without its value is dropped unless stubs are kept. Not for ods: a LibreOffice file
      // ends each tab with a million repeated empty rows, which stubs would build.
      sheetStubs: format === "xlsx",
    });
  } catch (err) {
    throw new SheetError(
      err instanceof Error && /password|encrypt/i.test(err.message)
        ? IMPORT_MESSAGES.workbookProtected
        : IMPORT_MESSAGES.workbookUnreadable,
    );
  }
  if (wb.SheetNames.length > IMPORT_LIMITS.maxTabs) throw new SheetError(IMPORT_MESSAGES.tooManyTabs);
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const props = wb.Workbook?.Sheets ?? [];
  let unvalued = 0;
  let filled = 0;
  const tabs = wb.SheetNames.map((name, index): SheetTab => {
    const ws = wb.Sheets[name];
    const prop = props.find((p) => p.name === name) ?? props[index];
    // SheetJS leaves an ods tab's name escaped as in the XML ("Info &amp; Rules").
    const shown = format === "ods" ? unescapeXml(name) : name;
    const tab: SheetTab = { name: shown, hidden: Boolean(prop?.Hidden) || hiddenTabs.has(shown), rows: [], links: {} };
    if (!ws) return tab;
    // SheetJS stopped reading at sheetRows and says how far the tab goes.
    if (ws["!fullref"]) throw new SheetError(IMPORT_MESSAGES.tooManyRows);
    const data: (XLSX.CellObject | undefined)[][] = ws["!data"] ?? [];
    for (let r = 0; r < data.length; r++) {
      const cells = data[r] ?? [];
      const row: string[] = [];
      for (let c = 0; c < cells.length; c++) {
        const cell = cells[c];
        if (!cell) {
          row.push("");
          continue;
        }
        const text = cellText(cell, date1904);
        if (text.length > IMPORT_LIMITS.maxCellChars) throw new SheetError(IMPORT_MESSAGES.cellTooLong(r + 1));
        row.push(text);
        // A formula without its value: a file written by a program that left the computing to a spreadsheet app.
        const noValue = cell.f !== undefined && (cell.t === "z" || cell.v === undefined);
        if (noValue) unvalued++;
        if (noValue || text !== "") filled++;
        const target = linkTarget(cell, text);
        if (target) tab.links[`${r}:${c}`] = [target];
      }
      tab.rows.push(row);
    }
    tab.rows = trimRows(tab.rows);
    if (tab.rows.length > MAX_TAB_ROWS) throw new SheetError(IMPORT_MESSAGES.tooManyRows);
    for (const row of tab.rows)
      if (row.length > IMPORT_LIMITS.maxColumns) throw new SheetError(IMPORT_MESSAGES.tooManyColumns);
    // Links past the trimmed rows sit on empty cells: nothing to keep them for.
    for (const key of Object.keys(tab.links)) {
      const [r = 0, c = 0] = key.split(":").map(Number);
      if ((tab.rows[r]?.length ?? 0) <= c) delete tab.links[key];
    }
    return tab;
  });
  if (unvalued > 0 && unvalued * 2 > filled) throw new SheetError(IMPORT_MESSAGES.workbookFormulasOnly);
  return tabs;
}

/** The text a cell shows; a date as YYYY-MM-DD. */
function cellText(cell: XLSX.CellObject, date1904: boolean): string {
  switch (cell.t) {
    case "s":
      return typeof cell.v === "string" ? cell.v : (cell.w ?? "");
    case "n": {
      if (typeof cell.v !== "number") return cell.w ?? "";
      const fmt = typeof cell.z === "number" ? SSF.get_table()[cell.z] : cell.z;
      if (fmt && SSF.is_date(fmt)) {
        const date = serialDate(cell.v, fmt, date1904);
        if (date) return date;
        // A time or duration whose file keeps no shown text (SheetJS's own ods): shown as its format says.
        if (cell.w === undefined || cell.w === String(cell.v)) {
          try {
            return String(SSF.format(fmt, cell.v));
          } catch {
            // An odd format: the number as it is.
          }
        }
      }
      return cell.w ?? String(cell.v);
    }
    case "b":
      return cell.w ?? (cell.v ? "TRUE" : "FALSE");
    case "d":
      return cell.v instanceof Date && !Number.isNaN(cell.v.getTime())
        ? cell.v.toISOString().slice(0, 10)
        : (cell.w ?? "");
    default:
      // Errors (#N/A, #REF!) and empty stubs.
      return "";
  }
}

/**
 * A date-formatted number as YYYY-MM-DD, in UTC arithmetic (no local time zone: SSF.parse_date_code counts days with
 * local dates). Null, to keep the shown text, for what is not a calendar day: a time of day or a duration (below 1,
 * or a format without a day such as [h]:mm:ss), a month or year alone (nothing invented), Excel's 29 February 1900.
 */
function serialDate(serial: number, fmt: string, date1904: boolean): string | null {
  if (serial < 1 || serial > MAX_DATE_SERIAL || !formatHasDay(fmt)) return null;
  // To the nearest second, as a spreadsheet shows it: 23:59:59.9996 is the next day.
  const days = Math.floor(Math.round(serial * 86_400) / 86_400);
  let epoch: number;
  if (date1904) epoch = Date.UTC(1904, 0, 1);
  else if (days === 60) return null;
  // Excel counts a 29 February 1900 that never was: serials before it start a day later.
  else epoch = days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  return new Date(epoch + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether a number format shows the day of the month (d or dd, not the weekday ddd/dddd), outside quoted text. */
function formatHasDay(fmt: string): boolean {
  const codes = fmt
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/[_*]./g, "")
    .toLowerCase();
  return /(^|[^d])d{1,2}(?!d)/.test(codes);
}

/** A cell's web link when it differs from the cell's text: its hyperlink, else a HYPERLINK("url", …) formula's. */
function linkTarget(cell: XLSX.CellObject, text: string): string | undefined {
  let target = cell.l?.Target;
  if (!target && cell.f) {
    // The URL as a literal, closed before the next argument: a URL built from other cells is not known here.
    const m = /^\s*=?\s*(?:_xlfn\.)?HYPERLINK\s*\(\s*"((?:[^"]|"")*)"\s*[,;)]/i.exec(cell.f);
    target = m?.[1]?.replace(/""/g, '"');
  }
  target = target?.trim();
  // Links inside the workbook (#Sheet!A1) and mail links are not a song's links.
  if (!target || !/^https?:\/\/\S/i.test(target) || target === text.trim()) return undefined;
  return target;
}

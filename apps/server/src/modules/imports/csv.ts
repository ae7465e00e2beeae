import { IMPORT_LIMITS, IMPORT_MESSAGES } from "@unheard/shared";

/** A delimiter a tracker export uses. */
export type Delimiter = "," | "\t" | ";";

/** A delimited text file as rows of cells. */
export type Table = { delimiter: Delimiter; rows: string[][] };

/**
 * A file that can't be read (CSV, TSV or workbook: sheet-read.ts re-exports it); its message is shown to the admin.
 * Defined here so the CSV reader throws it without importing the workbook reader (and SheetJS with it).
 */
export class SheetError extends Error {
  override name = "SheetError";
}
/** The same error under its first name. */
export { SheetError as CsvError };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The text of an uploaded spreadsheet export: UTF-8 (with or without a byte order mark), UTF-16 with its mark
 * (Excel's "Unicode text"), else Windows-1252 (older Excel CSV exports). Refuses empty and binary files, with a
 * hint for a workbook uploaded as it is.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new SheetError(IMPORT_MESSAGES.fileEmpty);
  // A zip (xlsx, ods) or an old binary workbook (xls): the admin needs to export a sheet first.
  if ((bytes[0] === 0x50 && bytes[1] === 0x4b) || (bytes[0] === 0xd0 && bytes[1] === 0xcf))
    throw new SheetError(IMPORT_MESSAGES.workbook);
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  else {
    const body = UTF8_BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(3) : bytes;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      text = new TextDecoder("windows-1252").decode(body);
    }
  }
  // Text files hold no NUL and almost no other control characters; images, audio and archives do.
  let control = 0;
  const sample = Math.min(text.length, 65_536);
  for (let i = 0; i < sample; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) throw new SheetError(IMPORT_MESSAGES.notText);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) control++;
  }
  if (control > sample / 100) throw new SheetError(IMPORT_MESSAGES.notText);
  if (text.trim() === "") throw new SheetError(IMPORT_MESSAGES.fileEmpty);
  return text;
}

/** The delimiter of a file: whichever of tab, comma and semicolon its header line (outside quotes) has most of. */
export function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { "\t": 0, ",": 0, ";": 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && (c === "\t" || c === "," || c === ";")) counts[c]++;
  }
  // Ties go to tab, then comma: a tab is never part of a title, a comma often is.
  let best: Delimiter = "\t";
  for (const d of [",", ";"] as const) if (counts[d] > counts[best]) best = d;
  return counts[best] > 0 ? best : ",";
}

/**
 * Rows of cells of a delimited text (RFC 4180, leniently): quoted cells may hold delimiters, newlines and
 * doubled quotes; rows end with LF, CRLF or CR; a quote inside an unquoted cell is kept as it is; an unclosed
 * quote runs to the end of the file. Stops with SheetError past `maxRows` rows or at a cell longer than `maxCell`
 * characters (the value parsers then never see an oversized cell).
 */
export function parseDelimited(
  text: string,
  delimiter: Delimiter,
  maxRows = Number.POSITIVE_INFINITY,
  maxCell = Number.POSITIVE_INFINITY,
): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  const n = text.length;
  const d = delimiter.charCodeAt(0);
  let i = 0;
  const endRow = () => {
    rows.push(row);
    row = [];
    if (rows.length > maxRows) throw new SheetError(IMPORT_MESSAGES.tooManyRows);
  };
  while (i <= n) {
    if (i === n) {
      // A final newline ends the last row; it does not start an empty one.
      if (row.length > 0) endRow();
      break;
    }
    let cell: string;
    if (text.charCodeAt(i) === 34) {
      // Quoted cell: read up to the closing quote, "" standing for one quote.
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) {
          value += text.slice(j);
          j = n;
          break;
        }
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      // Anything between the closing quote and the next delimiter is kept (`"a"b` reads as `ab`).
      let k = j;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (c === d || c === 10 || c === 13) break;
        k++;
      }
      cell = value + text.slice(j, k);
      i = k;
    } else {
      let k = i;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (c === d || c === 10 || c === 13) break;
        k++;
      }
      cell = text.slice(i, k);
      i = k;
    }
    if (cell.length > maxCell) throw new SheetError(IMPORT_MESSAGES.cellTooLong(rows.length + 1));
    row.push(cell);
    if (i >= n) {
      endRow();
      break;
    }
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      // A delimiter at the very end leaves one more, empty, cell.
      if (i === n) {
        row.push("");
        endRow();
        break;
      }
      continue;
    }
    // CRLF, LF or CR.
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    endRow();
  }
  return rows;
}

/** Decode, detect the delimiter and parse an uploaded file. */
export function readTable(bytes: Uint8Array, fileName: string, maxRows: number): Table {
  const text = decodeText(bytes);
  const delimiter = /\.tsv$|\.tab$/i.test(fileName) ? "\t" : detectDelimiter(text);
  return { delimiter, rows: parseDelimited(text, delimiter, maxRows + 1, IMPORT_LIMITS.maxCellChars) };
}

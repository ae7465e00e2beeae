import { IMPORT_LIMITS, IMPORT_MESSAGES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { CsvError, decodeText, detectDelimiter, parseDelimited, readTable } from "./csv.js";

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

import { EXPORT_CSV_COLUMNS, type ExportSong, exportSongSchema } from "@unheard/shared";
import { compileSerializer } from "../../lib/serializer.js";
import { toIso } from "../../lib/time.js";
import type { ExportRow, OpenDataRepo } from "./open-data.repo.js";

/** Songs read per query: big enough that queries are few, small enough that a page is a few hundred KB. */
const PAGE_SIZE = 1000;
/**
 * Songs per chunk written: a chunk's text stays well under V8's large-object size (128 KB), so it dies young in
 * a cheap scavenge; page-sized strings would pile up in the large-object space until a full collection.
 */
const CHUNK_SIZE = 100;

/** A page in chunks of CHUNK_SIZE songs, each made into text by `record`. */
function* chunks(page: ExportSong[], record: (s: ExportSong) => string, separator: string): Generator<string> {
  for (let i = 0; i < page.length; i += CHUNK_SIZE)
    yield page
      .slice(i, i + CHUNK_SIZE)
      .map(record)
      .join(separator);
}

const exportSongJson = compileSerializer(exportSongSchema);

/** A JSON array column (producers, features) as names; anything else is no names. */
function names(value: string | null): string[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/** One row as the export shows it. */
function toExportSong(row: ExportRow, publicUrl: string): ExportSong {
  const artists = typeof row.credits === "string" ? JSON.parse(row.credits) : (row.credits ?? []);
  return {
    id: row.id,
    title: row.title,
    artists,
    genre: row.genre,
    releaseDate: row.release_date,
    soundcloudUrl: row.soundcloud_url,
    verifiedAt: toIso(row.verified_at),
    upvotes: Number(row.upvotes),
    downvotes: Number(row.downvotes),
    favoriteCount: Number(row.favorite_count),
    era: row.era,
    producers: names(row.producers),
    features: names(row.features),
    leakDate: row.leak_date,
    availability: row.availability,
    quality: row.quality,
    notes: row.notes,
    versionOf: row.version_of,
    versionKind: row.version_kind,
    url: `${publicUrl}/song/${encodeURIComponent(row.id)}`,
    createdAt: toIso(row.created_at),
  };
}

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection): =HYPERLINK(...) in a song
// title would become a live link or worse in whoever opens the file. Such text cells get a leading apostrophe,
// which spreadsheets hide and treat as "this is text"; numbers are written as they are.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Whether a spreadsheet may read `text` as a formula: it starts with = + - @, a tab or CR, or a compatibility form
 * of one (fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, super- and subscript signs), which spreadsheets set up for East
 * Asian input fold to the plain sign as the cell is entered (issue 38).
 */
function startsFormula(text: string): boolean {
  const first = String.fromCodePoint(text.codePointAt(0) ?? 0x20);
  return FORMULA_START.test(text) || FORMULA_START.test(first.normalize("NFKC"));
}

/** One CSV field per RFC 4180: quoted when it holds a comma, quote or line break; text guarded against formulas. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = startsFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A song as one CSV record (CRLF-terminated), in EXPORT_CSV_COLUMNS order. */
function csvRecord(s: ExportSong): string {
  const fields: (string | number | null)[] = [
    s.id,
    s.title,
    s.artists.map((a) => a.name).join("; "),
    s.genre,
    s.releaseDate,
    s.soundcloudUrl,
    s.verifiedAt,
    s.upvotes,
    s.downvotes,
    s.favoriteCount,
    s.era,
    s.producers.join("; "),
    s.features.join("; "),
    s.leakDate,
    s.availability,
    s.quality,
    s.notes,
    s.versionOf,
    s.versionKind,
    s.url,
    s.createdAt,
  ];
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** The open data exports: every verified song, produced page by page so memory stays flat whatever the size. */
export function createOpenDataService(deps: { repo: OpenDataRepo; publicUrl: string }) {
  const { repo, publicUrl } = deps;

  /** Every exported song (verified, not hidden, not resolved as fake), a page at a time, in id order. */
  async function* pages(): AsyncGenerator<ExportSong[]> {
    let after = "";
    while (true) {
      const rows = await repo.page(after, PAGE_SIZE);
      const shown = rows.filter((r) => r.status === "verified" && !r.is_hidden && !r.fake_at);
      if (shown.length > 0) yield shown.map((r) => toExportSong(r, publicUrl));
      if (rows.length < PAGE_SIZE) return;
      after = rows[rows.length - 1]?.id ?? after;
    }
  }

  return {
    /**
     * The CSV export in chunks of text: a UTF-8 byte order mark (without it Excel reads the file as the
     * system's legacy code page and mangles every accent), the header row, then one record per song.
     */
    async *csv(): AsyncGenerator<string> {
      yield `\uFEFF${EXPORT_CSV_COLUMNS.join(",")}\r\n`;
      for await (const page of pages()) yield* chunks(page, csvRecord, "");
    },

    /** The JSON export in chunks of text: one array, an element per line. */
    async *json(): AsyncGenerator<string> {
      yield "[";
      let first = true;
      for await (const page of pages()) {
        for (const chunk of chunks(page, exportSongJson, ",\n")) {
          yield (first ? "\n" : ",\n") + chunk;
          first = false;
        }
      }
      yield first ? "]\n" : "\n]\n";
    },
  };
}

/** The open data service type. */
export type OpenDataService = ReturnType<typeof createOpenDataService>;

// Deciding what each row of a sheet means (issue 37), on the audio pool's threads (a sheet's rows are read in tens of
// microseconds each: thousands of them would hold the event loop): which tabs list songs, where each tab's header row is, which
// rows state an era rather than a song, the era a song belongs to (a blank Era cell continues the era above), and
// each song row's values, identity and content hash. Reading the file is sheet-read.ts; applying is batch-apply.ts.
import { createHash } from "node:crypto";
import {
  DEFAULT_TAG_LEGEND,
  type Genre,
  IMPORT_FIELDS,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  type ImportColumn,
  type ImportEra,
  type ImportField,
  type ImportPreview,
  type ImportSheet,
  LEAK_LIMITS,
  type SheetReading,
  SONG_TAGS,
  type SongTag,
} from "@unheard/shared";
import { nameKey } from "../../lib/text.js";
import { parseDate } from "./cell-dates.js";
import {
  isBlank,
  limitNames,
  limitText,
  parseAvailability,
  parseGenre,
  parseLength,
  parseLinks,
  parseQuality,
  parseSoundcloud,
} from "./cell-words.js";
import { SheetError } from "./csv.js";
import { guessMapping, headerWords } from "./header-mapping.js";
import type { LeakValues } from "./imports.repo.js";
import { classifyTab, findHeaderRow, readEraHeader, readSectionRow } from "./sheet-layout.js";
import type { SheetFile, SheetTab } from "./sheet-read.js";
import { markKey, parseTagsCell, splitArtists, splitNames, splitTitle, tagsOf } from "./title-parts.js";

/** One song row of the sheet, read through its tab's mapping. */
export type PreparedRow = {
  tab: string;
  /** The row's line in its tab (the first row is 1). */
  line: number;
  title: string;
  artists: string[];
  titleKey: string;
  artistKeys: string[];
  genre: Genre;
  releaseDate: string | null;
  soundcloudUrl: string | null;
  leak: LeakValues;
  /** The marks before or after the title. */
  marks: string[];
  warnings: string[];
  /** Why the row is skipped whatever the database holds (missing title, a duplicate of an earlier row). */
  skip: string | undefined;
  /** The row's identity across fetches of a linked sheet: title, era and version label. */
  rowKey: string;
  /** Everything the row says, hashed: an unchanged row is skipped without reading its song. */
  contentHash: string;
  /** Everything but the title and era: a renamed row (or one moved to another era) keeps it. */
  restHash: string;
};

/** An era header row as read: the era the sheet states. */
export type SheetEra = ImportEra;

/** A tab's header row and mapping, remembered under the header's key when the admin chose the mapping. */
export type TabMapping = { tab: string; headerKey: string; mapping: ImportField[]; given: boolean };

/** What a sheet says, row by row: what a dry run shows and a run or sync applies. */
export type SheetRows = {
  format: SheetFile["format"];
  delimiter: SheetFile["delimiter"];
  sheets: ImportSheet[];
  eras: SheetEra[];
  rows: PreparedRow[];
  /** What stops the import altogether. */
  problems: string[];
  marks: ImportPreview["marks"];
  mappings: TabMapping[];
};

/** Rows of a tab shown to pick another header row from (every row a header may be on), and the cells of each. */
const TOP_ROWS = IMPORT_LIMITS.headerScanRows;
const TOP_CELLS = 8;

/** A tab's song list defaults: trackers keep snippets and stems on tabs of their own, the Available Length blank. */
const TAB_AVAILABILITY: [RegExp, LeakValues["availability"]][] = [
  [/\bsnippets?\b/i, "snippet"],
  [/\bstems?\b/i, "og_file"],
];

const unique = (names: string[]) => splitNames(names.join("\n"));
const hash = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 22);

/** A legend keyed as titles' marks are (variation selectors dropped), over the default one. */
export function legendOf(given: SheetReading["legend"]): Readonly<Record<string, SongTag | "ignore">> {
  const own = Object.fromEntries(Object.entries(given ?? {}).map(([mark, tag]) => [markKey(mark.trim()), tag]));
  return { ...DEFAULT_TAG_LEGEND, ...own };
}

/** A key of a header row, under which the admin's mapping is remembered. */
export function headerKeyOf(headers: string[]): string {
  return createHash("sha256").update(headers.map(headerWords).join("\t")).digest("hex");
}

/** The identity of a sheet row: its title, era and version label, folded as names are. */
export function rowKeyOf(titleKey: string, era: string | null, versionLabel: string | null): string {
  return [titleKey, nameKey(era ?? ""), (versionLabel ?? "").toLowerCase()].join("\u001f");
}

/** The columns each field maps to. */
function columnsOf(mapping: ImportField[]): Record<ImportField, number[]> {
  const out = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, [] as number[]])) as Record<ImportField, number[]>;
  mapping.forEach((f, i) => {
    out[f].push(i);
  });
  return out;
}

/** One song row's values through the mapping: cleaned, with warnings. */
function prepareRow(
  tab: SheetTab,
  index: number,
  columns: Record<ImportField, number[]>,
  era: string | null,
  defaultArtist: string | undefined,
  legend: Readonly<Record<string, SongTag | "ignore">>,
): PreparedRow {
  const cells = tab.rows[index] ?? [];
  const values = (field: ImportField) =>
    columns[field].map((i) => (cells[i] ?? "").trim()).filter((v) => v !== "" && !isBlank(v));
  const first = (field: ImportField) => values(field)[0] ?? "";
  const warnings: string[] = [];
  const take = <T>(cleaned: { value: T; warning?: string }): T => {
    if (cleaned.warning) warnings.push(cleaned.warning);
    return cleaned.value;
  };
  const named = splitTitle(first("title"));
  const credited = splitArtists(values("artists").join(", "));
  let artists = credited.artists;
  if (artists.length === 0 && defaultArtist) artists = [defaultArtist];
  const features = unique([...named.features, ...credited.features, ...values("features").flatMap(splitNames)]).filter(
    (f) => !artists.some((a) => a.toLowerCase() === f.toLowerCase()),
  );
  const producers = unique([...named.producers, ...values("producers").flatMap(splitNames)]);
  const availability = parseAvailability(first("availability"));
  take(availability);
  const quality = parseQuality(first("quality"));
  take(quality);
  const tabAvailability = TAB_AVAILABILITY.find(([re]) => re.test(tab.name))?.[1] ?? null;
  const tags = new Set([
    ...take(tagsOf(named.marks, legend)),
    ...values("tags").flatMap((v) => take(parseTagsCell(v, legend))),
  ]);
  const tagList = SONG_TAGS.filter((t) => tags.has(t));
  // Every link of the link cells, and the hyperlinks behind them (a cell whose text is "Link").
  const linkCells = columns.links.map((i) => ({
    text: (cells[i] ?? "").trim(),
    targets: tab.links[`${index}:${i}`] ?? [],
  }));
  const links = linkCells.some((c) => c.text || c.targets.length > 0)
    ? take(
        parseLinks(
          linkCells.map((c) => c.text).join("\n"),
          linkCells.flatMap((c) => c.targets),
        ),
      )
    : [];
  const json = (list: readonly string[]) => (list.length > 0 ? JSON.stringify(list) : null);
  const leak: LeakValues = {
    era: era === null ? null : take(limitText(era, LEAK_LIMITS.era, "era")),
    producers: json(take(limitNames(producers, "producers"))),
    features: json(take(limitNames(features, "features"))),
    reference_names: json(
      take(limitNames(unique([...named.references, ...values("references").flatMap(splitNames)]), "references")),
    ),
    aliases: json(
      take(
        limitNames(
          unique([...named.aliases, ...values("aliases").flatMap(splitNames)]).filter(
            (a) => nameKey(a) !== nameKey(named.title),
          ),
          "aliases",
        ),
      ),
    ),
    version_label:
      named.versionLabel ?? take(limitText(first("versionLabel"), LEAK_LIMITS.versionLabel, "versionLabel")),
    tags: json(tagList),
    leak_date: take(parseDate(first("leakDate"), "Leak date")),
    file_date: take(parseDate(first("fileDate"), "File date")),
    track_length: take(parseLength(first("trackLength"))),
    availability: availability.value ?? quality.availability ?? tabAvailability,
    quality: quality.value ?? availability.quality ?? null,
    notes: take(limitText(values("notes").join(" · "), LEAK_LIMITS.notes, "notes")),
    links: json(links),
  };
  let skip: string | undefined;
  if (!named.title) skip = "Missing title";
  else if (artists.length === 0) skip = "Missing artist";
  else if (named.title.length > 200) skip = "Title is longer than 200 characters";
  else if (artists.some((a) => a.length > 100)) skip = "An artist name is longer than 100 characters";
  if (artists.length > 10) {
    warnings.push(`Only the first 10 of ${artists.length} artists are credited`);
    artists = artists.slice(0, 10);
  }
  const genre = take(parseGenre(first("genre")));
  const releaseDate = take(parseDate(first("releaseDate"), "Release date"));
  const soundcloudUrl = take(parseSoundcloud(first("soundcloudUrl")));
  const titleKey = nameKey(named.title);
  const artistKeys = artists.map(nameKey);
  const { era: _era, ...rest } = leak;
  return {
    tab: tab.name,
    line: index + 1,
    title: named.title,
    artists,
    titleKey,
    artistKeys,
    genre,
    releaseDate,
    soundcloudUrl,
    leak,
    marks: named.marks,
    warnings,
    skip,
    rowKey: rowKeyOf(titleKey, leak.era, leak.version_label),
    contentHash: hash([named.title, artistKeys, genre, releaseDate, soundcloudUrl, leak]),
    restHash: hash([artistKeys, genre, releaseDate, soundcloudUrl, rest]),
  };
}

/** A header row's cells, each column named (blank headers as "Column N"). */
const headerCells = (row: string[] | undefined, width: number) =>
  Array.from({ length: width }, (_, i) => (row?.[i] ?? "").trim());

/**
 * Read every tab of a sheet file (`remembered`: the admins' mappings by header key): which are imported, each one's header row (found among the first rows, or as the
 * admin picked) and mapping (given, remembered for its header, or guessed), its era header rows and song rows.
 */
export function readSheetRows(
  file: SheetFile,
  reading: SheetReading,
  remembered: Readonly<Record<string, readonly string[]>>,
): SheetRows {
  const legend = legendOf(reading.legend);
  const oneTab = file.tabs.length === 1;
  const sheets: ImportSheet[] = [];
  const eras: SheetEra[] = [];
  const rows: PreparedRow[] = [];
  const problems: string[] = [];
  const mappings: TabMapping[] = [];
  for (const tab of file.tabs) {
    const width = Math.max(0, ...tab.rows.map((r) => r.length));
    if (width > IMPORT_LIMITS.maxColumns) throw new SheetError(IMPORT_MESSAGES.tooManyColumns);
    const topRows = tab.rows.slice(0, TOP_ROWS).map((cells, i) => ({
      line: i + 1,
      cells: cells.slice(0, TOP_CELLS).map((c) => (c.length > 40 ? `${c.slice(0, 39)}…` : c)),
    }));
    const chosen = reading.headerRows?.[tab.name];
    const found = findHeaderRow(tab.rows, IMPORT_LIMITS.headerScanRows);
    let included = true;
    let reason: string | null = null;
    if (reading.tabs) {
      if (!reading.tabs.includes(tab.name)) [included, reason] = [false, "Not chosen"];
    } else if (!oneTab) {
      const kind = classifyTab(tab.name, tab.rows);
      if (tab.hidden) [included, reason] = [false, "A hidden tab"];
      else if (!kind.songs) [included, reason] = [false, kind.reason];
      else if (found === null && chosen === undefined) [included, reason] = [false, "No header row found"];
    }
    // A one-tab file (a CSV) without a header row found reads its first non-empty row as the header, as before.
    const headerIndex =
      chosen !== undefined
        ? chosen - 1
        : (found ??
          Math.max(
            0,
            tab.rows.findIndex((r) => r.some((c) => c.trim() !== "")),
          ));
    const header = headerCells(tab.rows[headerIndex], width);
    const headerKey = headerKeyOf(header);
    const given = reading.mappings?.[tab.name] ?? (oneTab ? reading.mapping : undefined);
    let mapping: ImportField[];
    let mappingSource: ImportSheet["mappingSource"];
    if (given) {
      if (given.length !== width) throw new SheetError(IMPORT_MESSAGES.mappingLength);
      [mapping, mappingSource] = [given, "given"];
    } else {
      const kept = included ? remembered[headerKey] : undefined;
      if (kept?.length === width && kept.every((f) => (IMPORT_FIELDS as readonly string[]).includes(f)))
        [mapping, mappingSource] = [kept as ImportField[], "remembered"];
      else [mapping, mappingSource] = [guessMapping(header), "guessed"];
    }
    const columns = columnsOf(mapping);
    const body = tab.rows.slice(headerIndex + 1);
    const described: ImportColumn[] = header.map((h, index) => {
      const samples = new Set<string>();
      for (const row of body) {
        const v = (row[index] ?? "").trim();
        if (v) samples.add(v.length > 60 ? `${v.slice(0, 59)}…` : v);
        if (samples.size === 3) break;
      }
      return { index, header: h || `Column ${index + 1}`, field: mapping[index] ?? "ignore", samples: [...samples] };
    });
    let songRows = 0;
    if (included) {
      mappings.push({ tab: tab.name, headerKey, mapping, given: Boolean(given) });
      const where = oneTab ? "" : `${tab.name}: `;
      if (!mapping.includes("title")) problems.push(`${where}${IMPORT_MESSAGES.titleUnmapped}`);
      if (!mapping.includes("artists") && !reading.defaultArtist)
        problems.push(`${where}${IMPORT_MESSAGES.artistsUnmapped}`);
      // The era a row belongs to: the latest era header, or the latest Era cell written above (trackers write an
      // era once and leave the cells under it blank).
      let era: string | null = null;
      for (let index = headerIndex + 1; index < tab.rows.length; index++) {
        const cells = tab.rows[index] ?? [];
        if (cells.every((c) => c.trim() === "")) continue;
        const stated = readEraHeader(cells, columns);
        if (stated) {
          // An era header without a name only restates the counts: the era above goes on.
          if (stated.name) {
            era = stated.name;
            eras.push({
              tab: tab.name,
              line: index + 1,
              ...stated,
              counts: stated.counts.map(({ count, label }) => ({ count, label })),
            });
          }
          continue;
        }
        // A part of an era between its songs ("2016" with its dated events): neither a song nor an era.
        if (readSectionRow(cells, columns)) continue;
        const own = columns.era.map((i) => (cells[i] ?? "").trim()).find((v) => v !== "" && !isBlank(v));
        if (own) era = own;
        rows.push(prepareRow(tab, index, columns, era, reading.defaultArtist || undefined, legend));
        songRows++;
      }
    }
    sheets.push({
      name: tab.name,
      included,
      reason,
      // A tab read (chosen, or a one-tab file) reads its header where it is; one left out says none was found.
      headerRow: included || found !== null || chosen !== undefined ? headerIndex + 1 : null,
      headerChosen: chosen !== undefined,
      topRows,
      columns: described,
      mappingSource,
      rows: songRows,
    });
  }
  markDuplicates(rows);
  if (!sheets.some((s) => s.included)) problems.push(IMPORT_MESSAGES.noSongTabs);
  else if (rows.length === 0 && problems.length === 0) throw new SheetError(IMPORT_MESSAGES.noRows);
  return {
    format: file.format,
    delimiter: file.delimiter,
    sheets,
    eras,
    rows,
    problems: [...new Set(problems)],
    marks: marksOf(rows, legend),
    mappings,
  };
}

/**
 * A second row for the same song is skipped: the same title and version label with an artist in common (a song on
 * both the Unreleased and the Stems tab, say).
 */
function markDuplicates(rows: PreparedRow[]): void {
  const seen = new Map<string, { where: string; artistKeys: string[] }[]>();
  const manyTabs = new Set(rows.map((r) => r.tab)).size > 1;
  for (const r of rows) {
    if (r.skip) continue;
    const key = `${r.titleKey}\u001f${(r.leak.version_label ?? "").toLowerCase()}`;
    const earlier = seen.get(key) ?? [];
    const twin = earlier.find((e) => e.artistKeys.some((k) => r.artistKeys.includes(k)));
    if (twin) r.skip = `Duplicate of ${twin.where}`;
    else
      seen.set(key, [
        ...earlier,
        { where: manyTabs ? `${r.tab} row ${r.line}` : `row ${r.line}`, artistKeys: r.artistKeys },
      ]);
  }
}

/** The marks of the rows' titles, most rows first, with what the legend makes of each. */
function marksOf(rows: PreparedRow[], legend: Readonly<Record<string, SongTag | "ignore">>): ImportPreview["marks"] {
  const counts = new Map<string, number>();
  for (const r of rows) for (const mark of new Set(r.marks)) counts.set(mark, (counts.get(mark) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([mark, n]) => ({ mark, rows: n, tag: legend[mark] ?? null }));
}

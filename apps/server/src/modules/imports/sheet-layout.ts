import type { Availability, ImportField } from "@unheard/shared";
import { parseDate, parseSpan } from "./cell-dates.js";
import { isBlank, parseAvailability, parseLength, parseLinks, parseQuality } from "./cell-words.js";
import { headerField, headerWords } from "./header-mapping.js";

// How a tracker lays its songs out (issue 37): where the header row is among the rows above it, which rows head an
// era rather than list a song, and which tabs of a workbook list songs. Pure functions over rows of cells.

/** Longest cell read as a header name: headers are a few words, announcements above them are sentences. */
const HEADER_CELL_CHARS = 200;

/**
 * The index of the header row among the first `scan` rows (title, last-updated and announcement rows above it), or
 * null. Each row scores the fields its cells name, a whole header name ("Leak Date") more than a word inside one
 * ("Date Leaked (approx)"); it needs a title column and two fields at least. The best score wins, the earlier row
 * on a tie.
 */
export function findHeaderRow(rows: string[][], scan = 30): number | null {
  let best: { index: number; score: number } | null = null;
  for (const [index, cells] of rows.slice(0, scan).entries()) {
    const fields = new Map<ImportField, number>();
    for (const cell of cells) {
      if (cell.length > HEADER_CELL_CHARS) continue;
      const found = headerField(cell);
      if (found) fields.set(found.field, Math.max(fields.get(found.field) ?? 0, found.exact ? 2 : 1));
    }
    if (!fields.has("title") || fields.size < 2) continue;
    const score = [...fields.values()].reduce((a, b) => a + b, 0);
    if (!best || score > best.score) best = { index, score };
  }
  return best?.index ?? null;
}

/** One line of an era's statistics: "2 Full" is { count: 2, label: "Full", availability: "full" }. */
export type EraCount = { count: number; label: string; availability: Availability | null };

/** An era header row as the sheet states it. */
export type EraHeader = {
  /** The era's name; "" when the row states counts but names no era (it starts no era of its own). */
  name: string;
  description: string | null;
  startsOn: string | null;
  endsOn: string | null;
  counts: EraCount[];
};

/** The labels era statistics use, each for the availability it counts ("Unavailable": known, nothing circulates). */
const STAT_LABELS: Readonly<Record<string, Availability>> = {
  og: "og_file",
  ogs: "og_file",
  "og file": "og_file",
  "og files": "og_file",
  "og file s": "og_file",
  "stem bounce": "stem_bounce",
  "stem bounces": "stem_bounce",
  "stem bounce s": "stem_bounce",
  full: "full",
  tagged: "tagged",
  "beat only": "beat_only",
  "beats only": "beat_only",
  partial: "partial",
  partials: "partial",
  snippet: "snippet",
  snippets: "snippet",
  "snippet s": "snippet",
  confirmed: "confirmed",
  unavailable: "confirmed",
  "not available": "confirmed",
  rumored: "rumored",
  rumoured: "rumored",
};

/** Statistics start with a count: every other cell is refused before it is split. */
const STARTS_WITH_COUNT = /^\s*\d/;
/** A cell that may hold statistics: a line of a count, a space and a word ("2 Full"), first or below a name. */
const mayHoldStats = (text: string) => /(?:^|\n)[ \t]*\d{1,6}[ \t]+[^\d\s]/.test(text);

/** Longest cell read for statistics: a few short lines. */
const STATS_CELL_CHARS = 1000;

/**
 * Availability statistics as trackers write them in an era header's Era cell ("1 OG File(s)\n2 Full\n1
 * Snippet(s)\n1 Unavailable"; lines may also be split by "·", "|", ";" or ","), or null. Every line is a count
 * and a label, and one label at least is an availability: "4 Your Eyez Only" is an era's name, not a count.
 */
export function parseEraStats(text: string): EraCount[] | null {
  if (text.length > STATS_CELL_CHARS || !STARTS_WITH_COUNT.test(text)) return null;
  const lines = text
    .split(/[\n·|;,]/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "");
  if (lines.length === 0) return null;
  const counts: EraCount[] = [];
  for (const line of lines) {
    const m = /^(\d{1,6}) (\S.*)$/.exec(line);
    if (!m) return null;
    const label = (m[2] ?? "").trim();
    counts.push({ count: Number(m[1]), label, availability: STAT_LABELS[headerWords(label)] ?? null });
  }
  return counts.some((c) => c.availability !== null) ? counts : null;
}

/** The columns of a mapping: for each field, the indexes of the columns it maps. */
type Columns = Partial<Record<ImportField, number[]>>;

/** The cells of a row as text, with helpers over the columns of a field (each cell trimmed and judged once). */
function rowReader(cells: string[], columns: Columns) {
  const texts = cells.map((c) => c.trim());
  const fills = texts.map((t) => t !== "" && !isBlank(t));
  const text = (i: number) => texts[i] ?? "";
  const filled = (i: number) => fills[i] ?? false;
  const indexes = (field: ImportField) => (columns[field] ?? []).filter((i) => i >= 0 && i < cells.length);
  const values = (field: ImportField) => indexes(field).filter(filled).map(text);
  return { text, filled, indexes, values };
}

/**
 * Whether a row holds what only a song has: an availability, quality, track length, leak or file date (not a span),
 * links, a SoundCloud link, features or producers. Notes are not song data: an era header's Notes is its story.
 */
function hasSongData(cells: string[], columns: Columns): boolean {
  const { values } = rowReader(cells, columns);
  const isDate = (v: string) => parseDate(v, "").value !== null;
  return (
    values("availability").some((v) => parseAvailability(v).value !== null) ||
    values("quality").some((v) => {
      const q = parseQuality(v);
      return q.value !== null || q.availability !== undefined;
    }) ||
    values("trackLength").some((v) => parseLength(v).value !== null) ||
    [...values("leakDate"), ...values("fileDate")].some(isDate) ||
    [...values("links"), ...values("soundcloudUrl")].some((v) => parseLinks(v).value.length > 0) ||
    values("features").length > 0 ||
    values("producers").length > 0
  );
}

/** An era name cell's parts: the name (first line), a span after it ("Name (2018 - 2019)" or on a line of its own), and its other lines. */
function splitEraName(cell: string): { name: string; span: ReturnType<typeof parseSpan>; more: string[] } {
  const [first = "", ...rest] = cell
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  let name = first;
  let span: ReturnType<typeof parseSpan> = null;
  const open = first.lastIndexOf("(");
  if (open > 0 && first.endsWith(")")) {
    span = parseSpan(first.slice(open));
    if (span) name = first.slice(0, open).trim();
  }
  const more: string[] = [];
  for (const line of rest) {
    const lineSpan = span ? null : parseSpan(line);
    if (lineSpan) span = lineSpan;
    else more.push(line);
  }
  return { name, span, more };
}

/** The statistics of an Era cell, and the era's name when the cell gives it on a line above them. */
function statsCell(text: string): { counts: EraCount[]; name: string | null } | null {
  if (!mayHoldStats(text)) return null;
  const counts = parseEraStats(text);
  if (counts) return { counts, name: null };
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  const below = parseEraStats(text.slice(newline + 1));
  const name = text.slice(0, newline).trim();
  return below && name ? { counts: below, name } : null;
}

/**
 * Whether a row is an era header, and the era it states: availability statistics in the Era cell (the era's
 * name then in the Name cell, its story in Notes, its span in a date cell or after the name, e.g. "(2018 - 2019)"),
 * or an era name (in the Era cell, or alone in the Name cell of a row whose Era column holds stats elsewhere) with
 * no song data. `columns` says which column indexes each import field maps to.
 *
 * A row with statistics in another cell than the Era cell, or with an era name and no statistics, is an era
 * header only without song data (hasSongData). With no statistics, the Era cell must name the era and the Name
 * cell be blank, the same name, or only a span: a row whose Name holds another title is a song, however little
 * else it says, and so is a row with a title and a blank Era cell.
 */
export function readEraHeader(cells: string[], columns: Columns): EraHeader | null {
  const { text, filled, indexes } = rowReader(cells, columns);
  const eraColumns = indexes("era").filter(filled);
  const titleColumns = indexes("title").filter(filled);
  const songData = () => hasSongData(cells, columns);

  let statsAt = -1;
  let stats: { counts: EraCount[]; name: string | null } | null = null;
  for (const i of eraColumns) {
    stats = statsCell(text(i));
    if (stats) {
      statsAt = i;
      break;
    }
  }
  // Statistics in another cell count only on a row without song data (asked last: it reads every value).
  if (!stats && cells.some((c, i) => !eraColumns.includes(i) && mayHoldStats(c)) && !songData()) {
    for (const [i] of cells.entries()) {
      if (eraColumns.includes(i) || !filled(i)) continue;
      stats = statsCell(text(i));
      if (stats) {
        statsAt = i;
        break;
      }
    }
  }

  // Where the era's name is: the Era cell's own line above its statistics, the Name cell, or the Era cell.
  let nameAt = -1;
  let named: ReturnType<typeof splitEraName> | null = null;
  if (stats) {
    const candidates = [...titleColumns, ...eraColumns].filter((i) => i !== statsAt);
    nameAt = stats.name !== null ? statsAt : (candidates[0] ?? -1);
    named = stats.name !== null ? splitEraName(stats.name) : nameAt >= 0 ? splitEraName(text(nameAt)) : null;
  } else {
    const eraAt = eraColumns[0];
    if (eraAt === undefined) return null;
    const era = splitEraName(text(eraAt));
    const titleAt = titleColumns[0];
    if (titleAt !== undefined && titleAt !== eraAt) {
      const title = splitEraName(text(titleAt));
      const sameName = headerWords(title.name) === headerWords(era.name);
      const onlySpan = parseSpan(text(titleAt)) !== null;
      if (!sameName && !onlySpan) return null;
      if (onlySpan && !era.span) era.span = parseSpan(text(titleAt));
      else if (!era.span) era.span = title.span;
      era.more.push(...title.more);
    }
    if (songData()) return null;
    nameAt = eraAt;
    named = era;
  }

  // Its span: a date cell ("(2018 - 2019)", or a lone date), else what the name cell says.
  let span = named?.span ?? null;
  const used = new Set<number>([statsAt, nameAt, ...(stats ? [] : titleColumns)]);
  for (const i of [...indexes("fileDate"), ...indexes("leakDate"), ...indexes("releaseDate")]) {
    if (!filled(i) || used.has(i)) continue;
    const cellSpan = parseSpan(text(i));
    const lone = cellSpan ? null : parseDate(text(i), "").value;
    if (cellSpan || lone) {
      used.add(i);
      if (!span || cellSpan) span = cellSpan ?? { startsOn: lone ?? null, endsOn: lone ?? null };
      break;
    }
  }

  // Its story: the name cell's other lines, then Notes, then any other text on the row (a description merged over
  // the columns to the right lands in whichever column its first cell is).
  const story: string[] = [...(named?.more ?? [])];
  const notes = indexes("notes").filter((i) => filled(i) && !used.has(i));
  for (const i of [...notes, ...cells.keys()]) {
    if (used.has(i) || !filled(i)) continue;
    used.add(i);
    if (!story.includes(text(i))) story.push(text(i));
  }
  return {
    name: named?.name ?? "",
    description: story.length > 0 ? story.join("\n\n") : null,
    startsOn: span?.startsOn ?? null,
    endsOn: span?.endsOn ?? null,
    counts: stats?.counts ?? [],
  };
}

/** A line of dated events trackers write under an era or a part of one: "(03/13/2020) Low Season is released". */
function isDatedLine(line: string): boolean {
  const m = /^\(([^()]{1,40})\)/.exec(line);
  return m !== null && (parseDate(m[1] ?? "", "").value !== null || parseSpan(`(${m[1]})`) !== null);
}

/**
 * A row that heads a part of an era (a year, "Low Season II") between its songs, as the Ye-style trackers
 * write them: a name in the Name cell, a blank Era cell, Notes made only of dated events ("(01/01/2020)\n(03/13/2020)
 * Low Season is released"), no song data. It is neither a song nor an era; null for any other row.
 */
export function readSectionRow(cells: string[], columns: Columns): { name: string; notes: string } | null {
  const { values } = rowReader(cells, columns);
  const [title] = values("title");
  const notes = values("notes").join("\n");
  if (!title || values("era").length > 0 || notes === "" || notes.length > 2000) return null;
  const lines = notes.split("\n").map((l) => l.trim());
  if (!lines.every((l) => l === "" || isDatedLine(l)) || hasSongData(cells, columns)) return null;
  return { name: title.replace(/\s+/g, " ").trim(), notes };
}

/** Tab names that list no songs of their own, each with why, as the dry run says it. */
const NOT_SONG_TABS: readonly [RegExp, string][] = [
  [
    /^(?:updates?|update log|changelog|change log|changes|recent changes|news|announcements?)(?: \d+)?$/,
    "Not a song list",
  ],
  [
    /^(?:info|information|about|faq|faqs|rules|credits|editors|contributors|contact|discord|links|resources|guide|help|read ?me|welcome|home|intro|introduction|legend|key|emoji key|stats|statistics|graphs?|charts?|template|music videos?|videos?)$/,
    "Not a song list",
  ],
  [
    /^(?:best of|worst of|grails?|wanted|most wanted|grails or wanted|special|specials|favou?rites|highlights|top \d+|recent|recent leaks|recently leaked|new leaks|ai|ai songs|ai tracks|tracklists?)$/,
    "A copy of other tabs",
  ],
  [/^(?:fakes?|fake leaks|fakes and ai)$/, "Lists fakes, not the artist's songs"],
];

/**
 * Whether a workbook tab lists songs: Unreleased, Released, Stems, Snippets… yes; Updates, Info, Legend, FAQ, and
 * copies such as Best Of, no (with the reason in words). A tab of any other name lists songs when it has a header
 * row (findHeaderRow).
 */
export function classifyTab(name: string, rows: string[][]): { songs: true } | { songs: false; reason: string } {
  const words = headerWords(name);
  const known = NOT_SONG_TABS.find(([re]) => re.test(words));
  if (known) return { songs: false, reason: known[1] };
  if (findHeaderRow(rows) === null) return { songs: false, reason: "No header row found" };
  return { songs: true };
}

import {
  type ArtistTracker,
  AVAILABILITY_LABELS,
  QUALITIES,
  type Quality,
  SONG_TAGS,
  type SongTag,
  TRACKER_AVAILABILITY_ORDER,
  type TrackerAvailability,
  type TrackerCounts,
  type TrackerSong,
} from "@unheard/shared";
import { partialDateOrder } from "../../lib/format";

// The artist page's tracker (issue 27 part 3), without React: words, spans, and the table's filters and sorting.

/** Every availability of the tracker with its label, "Unknown" for songs that say nothing. */
export const TRACKER_AVAILABILITY_LABELS: Readonly<Record<TrackerAvailability, string>> = {
  ...AVAILABILITY_LABELS,
  unknown: "Unknown",
};

/** The availabilities counted as things ("3 snippets", "2 stem bounces"); the others are states ("3 full"). */
const COUNTABLE: ReadonlySet<TrackerAvailability> = new Set(["og_file", "stem_bounce", "snippet"]);

/** A label lower-cased for running text, an acronym kept ("OG file" -> "OG file", "Beat only" -> "beat only"). */
function inText(label: string): string {
  return label
    .split(" ")
    .map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()))
    .join(" ");
}

/** One count as running text: '12 OG files', '1 snippet', '30 full', '4 unknown'. */
export function countWords(availability: TrackerAvailability, count: number): string {
  const word = inText(TRACKER_AVAILABILITY_LABELS[availability]);
  return `${count.toLocaleString("en-US")} ${word}${count !== 1 && COUNTABLE.has(availability) ? "s" : ""}`;
}

/** Counts as one line: '12 OG files · 30 full · 8 snippets · 4 unknown' (empty when there is nothing). */
export function countsLine(counts: TrackerCounts): string {
  return counts
    .filter((c) => c.count > 0)
    .map((c) => countWords(c.availability, c.count))
    .join(" · ");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** 'YYYY-MM-DD' or 'YYYY-MM' as 'Sep 2019', 'YYYY' as '2019' (all that is known of it); null unless such a date. */
function periodOf(date: string | null): string | null {
  if (date && /^\d{4}$/.test(date)) return date;
  const m = date ? /^(\d{4})-(\d{2})(?:-\d{2})?$/.exec(date) : null;
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${m[1]}` : null;
}

/**
 * An era's span of leaks: 'Sep 2019 – Jul 2022', one month when it is one ('Sep 2019'), a year when only the year is
 * known ('2019 – Mar 2020'), '' when unknown.
 */
export function eraSpan(from: string | null, to: string | null): string {
  const a = periodOf(from);
  const b = periodOf(to);
  if (a && b) return a === b ? a : `${a} – ${b}`;
  return a ?? b ?? "";
}

/**
 * One of the counts a tracker sheet states for an era, as running text: the sheet's own label, lower-cased but for
 * acronyms, its "(s)" settled by the count ('1 OG File(s)' -> '1 OG file', '2 Snippet(s)' -> '2 snippets').
 */
export function sheetCountWords({ count, label }: { count: number; label: string }): string {
  const text = inText(label.replace(/\s+/g, " ").trim()).replace(/\(s\)/gi, count === 1 ? "" : "s");
  return `${count.toLocaleString("en-US")} ${text}`;
}

/** The sheet's counts of an era as one line, in its order: '1 OG file · 2 full · 1 snippet' ('' when none). */
export function sheetCountsLine(counts: readonly { count: number; label: string }[]): string {
  return counts.map(sheetCountWords).join(" · ");
}

/** The tags the tracker's songs carry, in SONG_TAGS order (its legend shows these). */
export function usedTags(tracker: ArtistTracker): SongTag[] {
  const used = new Set<SongTag>();
  for (const era of tracker.eras) for (const song of era.songs) for (const tag of song.tags) used.add(tag);
  return SONG_TAGS.filter((t) => used.has(t));
}

/** A song of the table: the tracker's song and the name of its era. */
export type TrackerRow = TrackerSong & { era: string | null };

/** The tracker's songs in its own order (eras newest first, then leak date), each with its era. */
export function trackerRows(tracker: ArtistTracker): TrackerRow[] {
  return tracker.eras.flatMap((era) => era.songs.map((song) => ({ ...song, era: era.name })));
}

// ---- the table's view: in the address, so a link reproduces it ----

export const TRACKER_VIEWS = ["eras", "table", "cards"] as const;
export type TrackerView = (typeof TRACKER_VIEWS)[number];

export const SORT_KEYS = ["name", "leak", "availability", "quality"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

/** The table's sort (null: the tracker's own order) and filters ("" means any). */
export type TableState = {
  sort: SortKey | null;
  dir: SortDir;
  availability: TrackerAvailability | "";
  quality: Quality | "unknown" | "";
  tag: SongTag | "";
  q: string;
};

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | null =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : null;

/** The view the address asks for, or null when it names none (the page then picks its default). */
export function viewFromParams(params: URLSearchParams): TrackerView | null {
  return oneOf(TRACKER_VIEWS, params.get("view"));
}

/** The table's state from the address; anything unknown there is ignored. */
export function tableFromParams(params: URLSearchParams): TableState {
  return {
    sort: oneOf(SORT_KEYS, params.get("sort")),
    dir: params.get("dir") === "desc" ? "desc" : "asc",
    availability: oneOf(TRACKER_AVAILABILITY_ORDER, params.get("availability")) ?? "",
    quality: oneOf([...QUALITIES, "unknown"] as const, params.get("quality")) ?? "",
    tag: oneOf(SONG_TAGS, params.get("tag")) ?? "",
    q: params.get("q") ?? "",
  };
}

/** `params` with the table's state written in (defaults left out, so a plain page keeps a plain address). */
export function tableToParams(params: URLSearchParams, state: TableState): URLSearchParams {
  const out = new URLSearchParams(params);
  const put = (name: string, value: string | null) => (value ? out.set(name, value) : out.delete(name));
  put("sort", state.sort);
  put("dir", state.sort && state.dir === "desc" ? "desc" : null);
  put("availability", state.availability || null);
  put("quality", state.quality || null);
  put("tag", state.tag || null);
  put("q", state.q || null);
  return out;
}

/** Lower-case text without accents, for the text filter. */
function fold(s: string): string {
  return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** True when any filter is set. */
export function isFiltered(state: TableState): boolean {
  return Boolean(state.availability || state.quality || state.tag || state.q.trim());
}

/** The rows the filters let through: availability, quality, a tag, and text in the title or an alias. */
export function filterRows(rows: readonly TrackerRow[], state: TableState): TrackerRow[] {
  const q = fold(state.q.trim());
  return rows.filter(
    (r) =>
      (!state.availability || (r.availability ?? "unknown") === state.availability) &&
      (!state.quality || (r.quality ?? "unknown") === state.quality) &&
      (!state.tag || r.tags.includes(state.tag)) &&
      (!q || fold(r.title).includes(q) || r.aliases.some((a) => fold(a).includes(q))),
  );
}

/** Quality from the best copy to none: what "ascending" means for the Quality column. */
const QUALITY_RANK: readonly Quality[] = [...QUALITIES].reverse();

/** A row's place in a column's ascending order; null (no value) always sorts last. */
function sortValue(row: TrackerRow, key: SortKey): string | number | null {
  switch (key) {
    case "name":
      return row.title;
    case "leak":
      // A year alone sorts before the months of that year (partialDateOrder).
      return partialDateOrder(row.leakDate);
    case "availability":
      // Most circulating first, the tracker's order; a song that says nothing is "unknown", last of all.
      return TRACKER_AVAILABILITY_ORDER.indexOf(row.availability ?? "unknown");
    case "quality":
      return row.quality === null ? null : QUALITY_RANK.indexOf(row.quality);
  }
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/**
 * The rows in the table's order: by the sorted column (songs without a value last, either way), ties in the
 * tracker's own order; unsorted, the tracker's order.
 */
export function sortRows(rows: readonly TrackerRow[], sort: SortKey | null, dir: SortDir): TrackerRow[] {
  if (!sort) return [...rows];
  const sign = dir === "desc" ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: sortValue(row, sort) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) {
        return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      }
      const c =
        typeof a.value === "number" && typeof b.value === "number"
          ? a.value - b.value
          : collator.compare(String(a.value), String(b.value));
      return c !== 0 ? sign * c : a.index - b.index;
    })
    .map((x) => x.row);
}

/** The order a column header click gives: the same column turns around, another starts ascending. */
export function nextSort(state: Pick<TableState, "sort" | "dir">, key: SortKey): Pick<TableState, "sort" | "dir"> {
  return state.sort === key ? { sort: key, dir: state.dir === "asc" ? "desc" : "asc" } : { sort: key, dir: "asc" };
}

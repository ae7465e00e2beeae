// What a batch will do, decided before anything is written (issue 37): the songs it creates, the songs it changes
// (details, a rename, marked removed from the tracker or back on it) with their previous values for the undo, and
// the changelog line of each. A file import plans here (planFileImport); a sync of a linked sheet in
// tracker-sync/sync-diff.ts. batch-apply.ts writes a plan; previewOf shows it as a dry run.
import { IMPORT_LIMITS, type ImportPreview, type ImportRow } from "@unheard/shared";
import { newId } from "../../lib/ids.js";
import { type ChangeLine, describeNew, describeUpdate } from "../changelog/change-summary.js";
import { type ExistingSong, LEAK_COLUMNS, type LeakColumn } from "./imports.repo.js";
import type { PreparedRow, SheetRows } from "./sheet-rows.js";

/**
 * The song columns a batch may change on an existing song (and its undo puts back); a changed title also moves the
 * song's search words (batch-apply.ts).
 */
export const RESTORABLE_COLUMNS = [...LEAK_COLUMNS, "title", "title_key", "tracker_removed_at"] as const;
export type RestorableColumn = (typeof RESTORABLE_COLUMNS)[number];
/** Values of some restorable columns. */
export type SongColumns = Partial<Record<RestorableColumn, string | number | null>>;

/** A song the batch creates (its id chosen now, so a linked sheet's row can name it). */
export type PlannedCreate = { op: "create"; id: string; row: PreparedRow; line: ChangeLine };
/** A song the batch changes. */
export type PlannedUpdate = {
  op: "update";
  songId: string;
  /** The song's title after the change. */
  title: string;
  /** Its first credited artist: whose changelog the line goes to. */
  artistId: string | null;
  outcome: "update" | "rename" | "remove";
  set: SongColumns;
  previous: SongColumns;
  line: ChangeLine | null;
  row: PreparedRow | null;
  reasons: string[];
};
/** A row the batch leaves alone, and why. */
export type PlannedSkip = { row: PreparedRow; songId: string | null; reason: string };
/** A linked sheet's row as the link remembers it after the batch. */
export type LinkRowWrite = {
  key: string;
  songId: string;
  contentHash: string | null;
  restHash: string | null;
  removed: boolean;
};

/** Everything a batch will do. */
export type Plan = {
  creates: PlannedCreate[];
  updates: PlannedUpdate[];
  skips: PlannedSkip[];
  /** A sync's bookkeeping of the link's rows (writes only for rows that changed); null for a file import. */
  linkRows: { upsert: LinkRowWrite[]; remove: string[] } | null;
};

/** Leak columns as words in the dry run and the changelog ("leak date"). */
export const COLUMN_LABELS: Record<LeakColumn | "title", string> = {
  title: "title",
  era: "era",
  producers: "producers",
  features: "features",
  reference_names: "references",
  aliases: "aliases",
  version_label: "version label",
  tags: "tags",
  leak_date: "leak date",
  file_date: "file date",
  track_length: "track length",
  availability: "availability",
  quality: "quality",
  notes: "notes",
  links: "links",
};

/** What a row's leak columns change on a song: only columns the row fills in (a blank cell clears nothing). */
export function filledChanges(row: PreparedRow, song: ExistingSong): LeakColumn[] {
  return LEAK_COLUMNS.filter((c) => row.leak[c] !== null && row.leak[c] !== song[c]);
}

/** The update of a song to a row's values in `columns`, with its changelog line. */
export function updateOf(
  song: ExistingSong,
  row: PreparedRow,
  columns: readonly LeakColumn[],
  extra: {
    set?: SongColumns;
    previous?: SongColumns;
    outcome?: PlannedUpdate["outcome"];
    line?: ChangeLine | null;
  } = {},
): PlannedUpdate {
  const set: SongColumns = { ...extra.set };
  const previous: SongColumns = { ...extra.previous };
  for (const c of columns) {
    set[c] = row.leak[c];
    previous[c] = song[c];
  }
  const line =
    extra.line !== undefined
      ? extra.line
      : describeUpdate(
          song.title,
          { availability: song.availability, quality: song.quality },
          { availability: row.leak.availability, quality: row.leak.quality },
          columns.map((c) => COLUMN_LABELS[c]),
        );
  return {
    op: "update",
    songId: song.id,
    title: typeof set.title === "string" ? set.title : song.title,
    artistId: song.artistId,
    outcome: extra.outcome ?? "update",
    set,
    previous,
    line,
    row,
    reasons: [`Already on Unheard: sets ${columns.map((c) => COLUMN_LABELS[c]).join(", ")}`],
  };
}

/** A new song for a row. */
export function createOf(row: PreparedRow): PlannedCreate {
  return {
    op: "create",
    id: newId(),
    row,
    line: describeNew(row.title, { availability: row.leak.availability, quality: row.leak.quality }),
  };
}

/**
 * The song on Unheard a row is: the same title (as name keys fold it) with an artist in common, the same version
 * label preferred, else one without a label; each song taken by one row at most.
 */
export function matchSong(
  row: PreparedRow,
  existing: Map<string, ExistingSong[]>,
  taken: Set<string>,
): ExistingSong | undefined {
  const candidates = (existing.get(row.titleKey) ?? []).filter(
    (s) => !taken.has(s.id) && row.artistKeys.some((k) => s.artistKeys.has(k)),
  );
  const label = (row.leak.version_label ?? "").toLowerCase();
  return (
    candidates.find((s) => (s.version_label ?? "").toLowerCase() === label) ??
    candidates.find((s) => s.version_label === null)
  );
}

/**
 * A file import (issue 16's rules): a row matching a song fills in the leak details its cells give, else creates
 * the song; a row that would change nothing is skipped, so importing the same file again changes nothing.
 */
export function planFileImport(rows: PreparedRow[], existing: Map<string, ExistingSong[]>): Plan {
  const plan: Plan = { creates: [], updates: [], skips: [], linkRows: null };
  const taken = new Set<string>();
  for (const row of rows) {
    if (row.skip) {
      plan.skips.push({ row, songId: null, reason: row.skip });
      continue;
    }
    const song = matchSong(row, existing, taken);
    if (!song) {
      plan.creates.push(createOf(row));
      continue;
    }
    taken.add(song.id);
    const changes = filledChanges(row, song);
    if (changes.length === 0)
      plan.skips.push({ row, songId: song.id, reason: "Already on Unheard with these details" });
    else plan.updates.push(updateOf(song, row, changes));
  }
  return plan;
}

/** A plan as a dry run: per row what the batch does and why, the counts, the sheet as read. */
export function previewOf(fileName: string, sheet: SheetRows, plan: Plan): ImportPreview {
  const byRow = new Map<PreparedRow, { outcome: ImportRow["outcome"]; songId: string | null; reasons: string[] }>();
  for (const c of plan.creates) byRow.set(c.row, { outcome: "create", songId: null, reasons: [] });
  for (const u of plan.updates)
    if (u.row) byRow.set(u.row, { outcome: u.outcome, songId: u.songId, reasons: u.reasons });
  for (const s of plan.skips) byRow.set(s.row, { outcome: "skip", songId: s.songId, reasons: [s.reason] });
  const summary = { rows: sheet.rows.length, create: 0, update: 0, skip: 0, remove: 0, rename: 0, warnings: 0 };
  const shown = { create: 0, update: 0, skip: 0, remove: 0, rename: 0 };
  const rows: ImportRow[] = [];
  const show = (r: ImportRow) => {
    summary[r.outcome]++;
    if (shown[r.outcome]++ < IMPORT_LIMITS.rowsShownPerOutcome) rows.push(r);
  };
  for (const p of sheet.rows) {
    const d =
      sheet.problems.length > 0 ? { outcome: "skip" as const, songId: null, reasons: sheet.problems } : byRow.get(p);
    if (!d) continue;
    if (p.warnings.length > 0) summary.warnings++;
    show({
      tab: p.tab,
      line: p.line,
      outcome: d.outcome,
      title: p.title,
      artists: p.artists,
      songId: d.songId,
      reasons: d.reasons,
      warnings: p.warnings,
    });
  }
  // Songs a sync marks removed have no row in the sheet any more.
  if (sheet.problems.length === 0)
    for (const u of plan.updates)
      if (!u.row)
        show({
          tab: "",
          line: 0,
          outcome: u.outcome,
          title: u.title,
          artists: [],
          songId: u.songId,
          reasons: u.reasons,
          warnings: [],
        });
  return {
    fileName,
    format: sheet.format,
    delimiter: sheet.delimiter,
    sheets: sheet.sheets,
    problems: sheet.problems,
    summary,
    rows,
    rowsTruncated: rows.length < summary.create + summary.update + summary.skip + summary.remove + summary.rename,
    marks: sheet.marks,
    eras: sheet.eras,
  };
}

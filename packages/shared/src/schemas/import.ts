import { z } from "zod";
import { SONG_TAGS } from "../leak-values.js";
import { LEAK_FIELDS } from "./leak.js";

/** What a column of a tracker spreadsheet can be imported as (issue 16, bulk import); `ignore` drops it. */
export const IMPORT_FIELDS = [
  "ignore",
  "title",
  "artists",
  "genre",
  "releaseDate",
  ...LEAK_FIELDS,
  "soundcloudUrl",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
/** "releaseDate" as "Release date". */
const sentenceCase = (name: string) =>
  name.charAt(0).toUpperCase() + name.slice(1).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
/** Each field as the mapping step names it: its name in sentence case, but for SoundCloud's own spelling. */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  ...(Object.fromEntries(IMPORT_FIELDS.map((f) => [f, sentenceCase(f)])) as Record<ImportField, string>),
  soundcloudUrl: "SoundCloud URL",
};

/** Limits of one import: the file's size and rows, and the rows a dry run lists per outcome. */
export const IMPORT_LIMITS = {
  maxMb: 20,
  /** Rows above the header searched for it (title, last-updated and announcement rows come first). */
  headerScanRows: 30,
  /** Tabs of a workbook. */
  maxTabs: 50,
  maxRows: 50_000,
  maxColumns: 100,
  rowsShownPerOutcome: 1000,
  /** Longest cell read: 5x the longest value kept (notes, 2,000); a longer cell is a mistake or an attack. */
  maxCellChars: 10_000,
} as const;

/** What an import refuses and reports, worded for the admin. */
export const IMPORT_MESSAGES = {
  noPermission: "You do not have permission to import songs.",
  fileRequired: "Please choose a tracker file to import: CSV, TSV or a workbook (.xlsx, .ods, .xls).",
  fileEmpty: "The file is empty.",
  notText:
    "This is not a tracker file we can read. Download the sheet as CSV, TSV or a workbook (.xlsx, .ods) and try again.",
  workbook: "This is a workbook, not a CSV or TSV text: upload it as a workbook (.xlsx, .ods, .xls).",
  tooLarge: `The file is too large (max ${IMPORT_LIMITS.maxMb} MB).`,
  tooManyRows: `The file has too many rows (max ${IMPORT_LIMITS.maxRows.toLocaleString("en-US")}).`,
  tooManyColumns: `The file has too many columns (max ${IMPORT_LIMITS.maxColumns}).`,
  cellTooLong: (row: number) =>
    `Row ${row.toLocaleString("en-US")} has a cell longer than ${IMPORT_LIMITS.maxCellChars.toLocaleString("en-US")} characters. Shorten it and try again.`,
  tooManyTabs: `The workbook has too many tabs (max ${IMPORT_LIMITS.maxTabs}). Remove the tabs you don't need, or export the tab as CSV, and try again.`,
  workbookUnreadable:
    "This file is not a workbook or CSV we can read. Upload the tracker as .xlsx, .ods or CSV (File → Download) and try again.",
  workbookNotSpreadsheet:
    "This zip file is not a spreadsheet. Upload the tracker as .xlsx, .ods or CSV (File → Download) and try again.",
  workbookUnpacksTooLarge: (mb: number) =>
    `This workbook unpacks to more than ${mb.toLocaleString("en-US")} MB, far more than a tracker needs. Remove images and tabs you don't need, or export the tab as CSV, and try again.`,
  workbookPartTooLarge: (mb: number) =>
    `One tab of this workbook unpacks to more than ${mb.toLocaleString("en-US")} MB, far more than a tracker needs. Export the tab as CSV, or split it, and try again.`,
  workbookTooManyParts: (parts: number) =>
    `This workbook is made of more than ${parts.toLocaleString("en-US")} parts, far more than a tracker needs. Remove images and tabs you don't need, or export the tab as CSV, and try again.`,
  workbookFormulasOnly:
    "This workbook holds formulas without their values. Open it in a spreadsheet app and download it again as .xlsx, or export the tab as CSV.",
  workbookProtected: "This workbook is password-protected. Remove the password, save it again and try again.",
  workbookTooComplex:
    "This workbook is too large or complex to read. Remove tabs you don't need, or export the tab as CSV, and try again.",
  noRows: "The file has a header row but no songs.",
  noSongTabs: "No tab of this workbook lists songs. Choose the tabs to import.",
  mappingLength: "The mapping must name a field for every column.",
  legendInvalid: "The legend must say what each mark means (a tag or ignore).",
  headerRowInvalid: `Pick the header row among the first ${IMPORT_LIMITS.headerScanRows} rows.`,
  tabsInvalid: "Choose the tabs to import by their names.",
  titleUnmapped: "Map a column to Title.",
  artistsUnmapped: "Map a column to Artists, or give a default artist.",
  running: "Another import is running. Wait for it to finish.",
  notFound: "Import not found",
  alreadyUndone: "This import has already been undone.",
  stillRunning: "This import is still running.",
  notApplied: "This sync was never applied: there is nothing to undo.",
} as const;

/** A mapping: one field per column of a header row. */
const mappingSchema = z.array(z.enum(IMPORT_FIELDS)).max(IMPORT_LIMITS.maxColumns);

/** The sheet's legend: what each mark before a title means (a tag, or "ignore"). */
export const importLegendSchema = z
  .record(z.string().min(1).max(16), z.enum([...SONG_TAGS, "ignore"], { error: IMPORT_MESSAGES.legendInvalid }), {
    error: IMPORT_MESSAGES.legendInvalid,
  })
  .refine((l) => Object.keys(l).length <= 50, IMPORT_MESSAGES.legendInvalid);

/** How a sheet is read (issue 37): its tabs, each tab's header row and mapping, the legend. Kept with a sync link. */
export const sheetReadingSchema = z.object({
  /** One field per column of the header row of a one-tab file (a CSV); absent: the remembered mapping, else the guess. */
  mapping: mappingSchema.optional(),
  /** The same per workbook tab, by the tab's name. */
  mappings: z.record(z.string().max(100), mappingSchema).optional(),
  /** The header row's line (1-based) per tab name, when the admin picked another than the one found. */
  headerRows: z
    .record(
      z.string().max(100),
      z
        .number({ error: IMPORT_MESSAGES.headerRowInvalid })
        .int(IMPORT_MESSAGES.headerRowInvalid)
        .min(1, IMPORT_MESSAGES.headerRowInvalid)
        .max(IMPORT_LIMITS.headerScanRows, IMPORT_MESSAGES.headerRowInvalid),
    )
    .optional(),
  /** The tabs to import, by name; absent: every tab that lists songs. */
  tabs: z.array(z.string().max(100), { error: IMPORT_MESSAGES.tabsInvalid }).max(IMPORT_LIMITS.maxTabs).optional(),
  /** The artist of rows whose artist cell is blank (a tracker kept for one artist often has no artist column). */
  defaultArtist: z.string().trim().max(100).optional(),
  /** Marks it leaves out mean what DEFAULT_TAG_LEGEND says. */
  legend: importLegendSchema.optional(),
});
export type SheetReading = z.infer<typeof sheetReadingSchema>;

/** The form fields sent beside the file (multipart): how to read it, and whether the songs start verified. */
export const importOptionsSchema = sheetReadingSchema.extend({
  /** Import the songs as verified (they skip the community vote); otherwise they start pending. */
  asVerified: z.boolean().default(false),
});
export type ImportOptions = z.input<typeof importOptionsSchema>;

/** A column of the file: its header, the field it maps to and a few of its values. */
export const importColumnSchema = z.object({
  index: z.number().int(),
  header: z.string(),
  field: z.enum(IMPORT_FIELDS),
  samples: z.array(z.string()),
});
export type ImportColumn = z.infer<typeof importColumnSchema>;

/** A count of rows or songs. */
const count = z.number().int();

/** create/update/skip for any import; a sync also removes (marks removed from the tracker) and renames. */
export const IMPORT_OUTCOMES = ["create", "update", "skip", "remove", "rename"] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** What the import does with one row, and why. */
export const importRowSchema = z.object({
  /** The tab the row is on ("" for a CSV). */
  tab: z.string(),
  /** The row's number in its sheet (the first row is 1). */
  line: count,
  outcome: z.enum(IMPORT_OUTCOMES),
  title: z.string(),
  artists: z.array(z.string()),
  /** The existing song an update (or a skip as unchanged) matches. */
  songId: z.string().nullable(),
  /** Why a row is skipped, or what an update fills in. */
  reasons: z.array(z.string()),
  /** Values that were cleaned up or left out (bad date, unknown genre, ...). */
  warnings: z.array(z.string()),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** The counts of a dry run. */
export const importSummarySchema = z.object({
  rows: count,
  create: count,
  update: count,
  skip: count,
  remove: count,
  rename: count,
  /** Rows with at least one warning. */
  warnings: count,
});

/** An era as an era header row of the sheet states it: its name, story, span and counts. */
export const importEraSchema = z.object({
  tab: z.string(),
  line: count,
  name: z.string(),
  description: z.string().nullable(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  counts: z.array(z.object({ count, label: z.string() })),
});
export type ImportEra = z.infer<typeof importEraSchema>;

/** A tab of the file as read: whether it is imported (and why not), its header row and its columns. */
export const importSheetSchema = z.object({
  name: z.string(),
  included: z.boolean(),
  /** Why a tab is left out ("Not a song list", "A copy of other tabs", "No header row found", "Not chosen"). */
  reason: z.string().nullable(),
  /** The header row's line (1-based), found or chosen; null when none was found. */
  headerRow: count.nullable(),
  /** Whether the admin chose the header row (else it was found). */
  headerChosen: z.boolean(),
  /** The first rows as they are (a few cells each, cut short), to pick another header row from. */
  topRows: z.array(z.object({ line: count, cells: z.array(z.string()) })),
  columns: z.array(importColumnSchema),
  /** Where the mapping came from: the request, the one remembered for this header row, or a guess. */
  mappingSource: z.enum(["given", "remembered", "guessed"]),
  /** Song rows under the header (era header rows not counted). */
  rows: count,
});
export type ImportSheet = z.infer<typeof importSheetSchema>;

/** A dry run: the file as read, the mapping used, and per row what an import would do. */
export const importPreviewSchema = z.object({
  fileName: z.string(),
  format: z.enum(["csv", "xlsx", "ods", "xls"]),
  /** The delimiter of a CSV or TSV; null for a workbook. */
  delimiter: z.enum(["comma", "tab", "semicolon"]).nullable(),
  sheets: z.array(importSheetSchema),
  /** What stops an import altogether (no title column, ...). */
  problems: z.array(z.string()),
  summary: importSummarySchema,
  /** The rows, at most IMPORT_LIMITS.rowsShownPerOutcome of each outcome, in file order. */
  rows: z.array(importRowSchema),
  rowsTruncated: z.boolean(),
  /** The marks found before titles, how many rows carry each and the tag it becomes (null: not in the legend). */
  marks: z.array(z.object({ mark: z.string(), rows: count, tag: z.enum([...SONG_TAGS, "ignore"]).nullable() })),
  /** The eras the sheet's era header rows state. */
  eras: z.array(importEraSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** A sync's batch may wait for an admin's approval of its dry run, and be rejected (issue 37). */
export const IMPORT_STATUSES = ["awaiting_approval", "running", "done", "failed", "undone", "rejected"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One import run: its progress, counts and whether it was undone. */
export const importBatchSchema = z.object({
  id: z.string(),
  /** An uploaded file, or a sync of a linked sheet. */
  source: z.enum(["file", "sync"]),
  /** The sync link a sync batch came from (null once the link is gone). */
  linkId: z.string().nullable(),
  fileName: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  status: z.enum(IMPORT_STATUSES),
  /** Why a sync waits for approval, in words. */
  holdReason: z.string().nullable(),
  asVerified: z.boolean(),
  totalRows: count,
  processedRows: count,
  createdCount: count,
  updatedCount: count,
  skippedCount: count,
  removedCount: count,
  renamedCount: count,
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
  undoneAt: z.string().nullable(),
  approvedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  /** A few of the songs it created, for links on the done screen. */
  createdSongs: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;

export const importBatchListSchema = z.object({ items: z.array(importBatchSchema) });

/** A batch with the dry run it was approved on, or waits for approval of. */
export const importBatchDetailSchema = importBatchSchema.extend({ preview: importPreviewSchema.nullable() });
export type ImportBatchDetail = z.infer<typeof importBatchDetailSchema>;

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
  maxRows: 50_000,
  maxColumns: 100,
  rowsShownPerOutcome: 1000,
  /** Longest cell read: 5x the longest value kept (notes, 2,000); a longer cell is a mistake or an attack. */
  maxCellChars: 10_000,
} as const;

/** What an import refuses and reports, worded for the admin. */
export const IMPORT_MESSAGES = {
  noPermission: "You do not have permission to import songs.",
  fileRequired: "Please choose a CSV or TSV file to import.",
  fileEmpty: "The file is empty.",
  notText: "This is not a CSV or TSV file. Export the sheet as CSV or TSV (File → Download) and try again.",
  workbook: "This is a spreadsheet workbook. Export the sheet as CSV or TSV (File → Download) and try again.",
  tooLarge: `The file is too large (max ${IMPORT_LIMITS.maxMb} MB).`,
  tooManyRows: `The file has too many rows (max ${IMPORT_LIMITS.maxRows.toLocaleString("en-US")}).`,
  tooManyColumns: `The file has too many columns (max ${IMPORT_LIMITS.maxColumns}).`,
  cellTooLong: (row: number) =>
    `Row ${row.toLocaleString("en-US")} has a cell longer than ${IMPORT_LIMITS.maxCellChars.toLocaleString("en-US")} characters. Shorten it and try again.`,
  noRows: "The file has a header row but no songs.",
  mappingLength: "The mapping must name a field for every column.",
  legendInvalid: "The legend must say what each mark means (a tag or ignore).",
  titleUnmapped: "Map a column to Title.",
  artistsUnmapped: "Map a column to Artists, or give a default artist.",
  running: "Another import is running. Wait for it to finish.",
  notFound: "Import not found",
  alreadyUndone: "This import has already been undone.",
  stillRunning: "This import is still running.",
} as const;

/** The form fields sent beside the file (multipart): the mapping, one field per column, and the options. */
export const importOptionsSchema = z.object({
  /** One field per column of the header row; absent: the remembered mapping, else the guess. */
  mapping: z.array(z.enum(IMPORT_FIELDS)).max(IMPORT_LIMITS.maxColumns).optional(),
  /** Import the songs as verified (they skip the community vote); otherwise they start pending. */
  asVerified: z.boolean().default(false),
  /** The artist of rows whose artist cell is blank (a tracker kept for one artist often has no artist column). */
  defaultArtist: z.string().trim().max(100).optional(),
  /**
   * The sheet's legend: what each mark before a title means (a tag, or "ignore"); marks it leaves out mean what
   * DEFAULT_TAG_LEGEND says.
   */
  legend: z
    .record(z.string().min(1).max(16), z.enum([...SONG_TAGS, "ignore"], { error: IMPORT_MESSAGES.legendInvalid }), {
      error: IMPORT_MESSAGES.legendInvalid,
    })
    .refine((l) => Object.keys(l).length <= 50, IMPORT_MESSAGES.legendInvalid)
    .optional(),
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

export const IMPORT_OUTCOMES = ["create", "update", "skip"] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** What the import does with one row, and why. */
export const importRowSchema = z.object({
  /** The row's number in the spreadsheet (the header row is 1). */
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
  /** Rows with at least one warning. */
  warnings: count,
});

/** A dry run: the file as read, the mapping used, and per row what an import would do. */
export const importPreviewSchema = z.object({
  fileName: z.string(),
  delimiter: z.enum(["comma", "tab", "semicolon"]),
  columns: z.array(importColumnSchema),
  /** Where the mapping came from: the request, the one remembered for this header row, or a guess. */
  mappingSource: z.enum(["given", "remembered", "guessed"]),
  /** What stops an import altogether (no title column, ...). */
  problems: z.array(z.string()),
  summary: importSummarySchema,
  /** The rows, at most IMPORT_LIMITS.rowsShownPerOutcome of each outcome, in file order. */
  rows: z.array(importRowSchema),
  rowsTruncated: z.boolean(),
  /** The marks found before titles, how many rows carry each and the tag it becomes (null: not in the legend). */
  marks: z.array(z.object({ mark: z.string(), rows: count, tag: z.enum([...SONG_TAGS, "ignore"]).nullable() })),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const IMPORT_STATUSES = ["running", "done", "failed", "undone"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One import run: its progress, counts and whether it was undone. */
export const importBatchSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  status: z.enum(IMPORT_STATUSES),
  asVerified: z.boolean(),
  totalRows: count,
  processedRows: count,
  createdCount: count,
  updatedCount: count,
  skippedCount: count,
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
  undoneAt: z.string().nullable(),
  /** A few of the songs it created, for links on the done screen. */
  createdSongs: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;

export const importBatchListSchema = z.object({ items: z.array(importBatchSchema) });

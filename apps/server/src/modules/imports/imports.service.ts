import { createHash } from "node:crypto";
import {
  DEFAULT_TAG_LEGEND,
  type Genre,
  IMPORT_FIELDS,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportColumn,
  type ImportField,
  type ImportOutcome,
  type ImportPreview,
  type ImportRow,
  LEAK_LIMITS,
  SONG_TAGS,
  type SongTag,
} from "@unheard/shared";
import type { FastifyBaseLogger } from "fastify";
import { type Insertable, type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB, SongTable } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import { searchNormalize } from "../../lib/search-text.js";
import { nameKey } from "../../lib/text.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { SongsRepo } from "../songs/songs.repo.js";
import { CsvError, type Delimiter, readTable } from "./csv.js";
import {
  type BatchRow,
  type ExistingSong,
  type ImportsRepo,
  LEAK_COLUMNS,
  type LeakColumn,
  type LeakValues,
} from "./imports.repo.js";
import {
  guessMapping,
  headerWords,
  isBlank,
  limitNames,
  limitText,
  markKey,
  parseAvailability,
  parseDate,
  parseGenre,
  parseLength,
  parseQuality,
  parseSoundcloud,
  parseTagsCell,
  splitArtists,
  splitNames,
  splitTitle,
  tagsOf,
} from "./tracker-values.js";

/** An uploaded file and the choices sent with it. */
export type ImportInput = {
  fileName: string;
  bytes: Buffer;
  mapping?: ImportField[] | undefined;
  asVerified: boolean;
  defaultArtist?: string | undefined;
  /** The sheet's own legend of marks (on top of DEFAULT_TAG_LEGEND). */
  legend?: Record<string, SongTag | "ignore"> | undefined;
};

/** One data row of the file, read through the mapping. */
type Prepared = {
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
};

/** What happens to a row, given the songs that exist. */
type Decision = {
  outcome: ImportOutcome;
  match: ExistingSong | undefined;
  changes: LeakColumn[];
  reasons: string[];
};

/** Rows per transaction while an import runs; a file of at most this many rows finishes within the request. */
const CHUNK_ROWS = 500;
/** A batch still marked running after this long was cut off (the server stopped): it no longer blocks imports. */
const STALE_RUN_MS = 30 * 60 * 1000;
const DELIMITER_NAMES = { ",": "comma", "\t": "tab", ";": "semicolon" } as const satisfies Record<
  Delimiter,
  ImportPreview["delimiter"]
>;
const COLUMN_LABELS: Record<LeakColumn, string> = {
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
};

const unique = (names: string[]) => splitNames(names.join("\n"));

/** A legend keyed as titles' marks are (variation selectors dropped). */
function legendKeys(legend: Record<string, SongTag | "ignore">): Record<string, SongTag | "ignore"> {
  return Object.fromEntries(Object.entries(legend).map(([mark, tag]) => [markKey(mark.trim()), tag]));
}

/** The marks of the file's titles, most rows first, with what the legend makes of each. */
function marksOf(prepared: Prepared[], legend: Readonly<Record<string, SongTag | "ignore">>): ImportPreview["marks"] {
  const rows = new Map<string, number>();
  for (const p of prepared) for (const mark of new Set(p.marks)) rows.set(mark, (rows.get(mark) ?? 0) + 1);
  return [...rows].sort((a, b) => b[1] - a[1]).map(([mark, n]) => ({ mark, rows: n, tag: legend[mark] ?? null }));
}

/** A key of the header row, under which the admin's mapping is remembered. */
function headerKeyOf(headers: string[]): string {
  return createHash("sha256").update(headers.map(headerWords).join("\t")).digest("hex");
}

/** Read rows through a mapping: values cleaned, warnings noted, rows that cannot be imported marked. */
function prepare(
  rows: string[][],
  mapping: ImportField[],
  defaultArtist: string | undefined,
  legend: Readonly<Record<string, SongTag | "ignore">>,
): Prepared[] {
  const out: Prepared[] = [];
  // Earlier rows by title key, for duplicates within the file (same title, an artist in common).
  const seen = new Map<string, { line: number; artistKeys: string[] }[]>();
  const columnsOf = (field: ImportField) => mapping.flatMap((f, i) => (f === field ? [i] : []));
  const columns = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, columnsOf(f)])) as Record<ImportField, number[]>;
  for (const [index, cells] of rows.entries()) {
    if (cells.every((c) => c.trim() === "")) continue;
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
    const features = unique([
      ...named.features,
      ...credited.features,
      ...values("features").flatMap(splitNames),
    ]).filter((f) => !artists.some((a) => a.toLowerCase() === f.toLowerCase()));
    const producers = unique([...named.producers, ...values("producers").flatMap(splitNames)]);
    const availability = parseAvailability(first("availability"));
    take(availability);
    const quality = take(parseQuality(first("quality"))) ?? availability.quality ?? null;
    const producerList = take(limitNames(producers, "producers"));
    const featureList = take(limitNames(features, "features"));
    const referenceList = take(
      limitNames(unique([...named.references, ...values("references").flatMap(splitNames)]), "references"),
    );
    const aliasList = take(
      limitNames(
        unique([...named.aliases, ...values("aliases").flatMap(splitNames)]).filter(
          (a) => nameKey(a) !== nameKey(named.title),
        ),
        "aliases",
      ),
    );
    const tags = new Set([
      ...take(tagsOf(named.marks, legend)),
      ...values("tags").flatMap((v) => take(parseTagsCell(v, legend))),
    ]);
    const tagList = SONG_TAGS.filter((t) => tags.has(t));
    const json = (list: readonly string[]) => (list.length > 0 ? JSON.stringify(list) : null);
    const leak: LeakValues = {
      era: take(limitText(first("era"), LEAK_LIMITS.era, "era")),
      producers: json(producerList),
      features: json(featureList),
      reference_names: json(referenceList),
      aliases: json(aliasList),
      version_label:
        named.versionLabel ?? take(limitText(first("versionLabel"), LEAK_LIMITS.versionLabel, "versionLabel")),
      tags: json(tagList),
      leak_date: take(parseDate(first("leakDate"), "Leak date")),
      file_date: take(parseDate(first("fileDate"), "File date")),
      track_length: take(parseLength(first("trackLength"))),
      availability: availability.value,
      quality,
      notes: take(limitText(values("notes").join(" · "), LEAK_LIMITS.notes, "notes")),
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
    const line = index + 2;
    const titleKey = nameKey(named.title);
    const artistKeys = artists.map(nameKey);
    if (!skip) {
      const earlier = seen.get(titleKey) ?? [];
      const twin = earlier.find((e) => e.artistKeys.some((k) => artistKeys.includes(k)));
      if (twin) skip = `Duplicate of row ${twin.line}`;
      else seen.set(titleKey, [...earlier, { line, artistKeys }]);
    }
    out.push({
      line,
      title: named.title,
      artists,
      titleKey,
      artistKeys,
      genre: take(parseGenre(first("genre"))),
      releaseDate: take(parseDate(first("releaseDate"), "Release date")),
      soundcloudUrl: take(parseSoundcloud(first("soundcloudUrl"))),
      leak,
      marks: named.marks,
      warnings,
      skip,
    });
  }
  return out;
}

/** Create, update or skip: a row matches a song with its title and an artist in common (as upload duplicates do). */
function decide(p: Prepared, existing: Map<string, ExistingSong[]>): Decision {
  if (p.skip) return { outcome: "skip", match: undefined, changes: [], reasons: [p.skip] };
  const match = existing.get(p.titleKey)?.find((s) => p.artistKeys.some((k) => s.artistKeys.has(k)));
  if (!match) return { outcome: "create", match, changes: [], reasons: [] };
  // Only leak details move: title, artists, audio and votes stay as they are; a blank cell clears nothing.
  const changes = LEAK_COLUMNS.filter((c) => p.leak[c] !== null && p.leak[c] !== match[c]);
  if (changes.length === 0)
    return { outcome: "skip", match, changes, reasons: ["Already on Unheard with these details"] };
  return {
    outcome: "update",
    match,
    changes,
    reasons: [`Already on Unheard: sets ${changes.map((c) => COLUMN_LABELS[c]).join(", ")}`],
  };
}

/** The audio columns of a song with no audio file: an imported one, a seeded one without a clip. */
export const NO_AUDIO_COLUMNS = {
  audio_key: null,
  audio_mime: null,
  audio_size: null,
  audio_sha256: null,
  duration_sec: null,
  sample_rate: null,
  channels: null,
  audio_min: null,
  audio_max: null,
  audio_mean: null,
  silence_ratio: null,
} as const satisfies Partial<Insertable<SongTable>>;

/** An import batch as the API shows it. */
function toBatch(row: BatchRow, createdSongs: { id: string; title: string }[] = []): ImportBatch {
  const options = JSON.parse(row.options) as { asVerified?: boolean };
  return {
    id: row.id,
    fileName: row.file_name,
    createdAt: toIso(row.created_at),
    createdBy: row.created_by ? { id: row.created_by, username: row.creator_name ?? "deleted user" } : null,
    status: row.status as ImportBatch["status"],
    asVerified: Boolean(options.asVerified),
    totalRows: Number(row.total_rows),
    processedRows: Number(row.processed_rows),
    createdCount: Number(row.created_count),
    updatedCount: Number(row.updated_count),
    skippedCount: Number(row.skipped_count),
    error: row.error,
    finishedAt: toIso(row.finished_at),
    undoneAt: toIso(row.undone_at),
    createdSongs,
  };
}

/**
 * Bulk import from tracker spreadsheets (issue 16): read a CSV/TSV, map its columns, dry-run, run in chunks with
 * progress, and undo a batch as one.
 */
export function createImportsService(deps: {
  database: Database;
  repo: ImportsRepo;
  songs: SongsRepo;
  bus: EventBus;
  log: FastifyBaseLogger;
}) {
  const { database, repo, songs, bus, log } = deps;

  /**
   * One event for a whole batch (not one per song): it clears the visitors' cached answers and makes open pages
   * reload their song lists, as an upload's event does.
   */
  // One event for a whole batch (the caches clear on any song event); search reads the batch's songs again.
  const announce = (batchId: string) =>
    bus.publish({ type: "song.changed", songId: batchId, data: { created: true, importBatch: batchId } });
  const running = new Set<Promise<void>>();
  // Set when the server shuts down: a background run stops after its current chunk (and can be undone).
  let stopping = false;

  /** The file read and mapped: what a dry run shows and a run applies. */
  async function read(input: ImportInput) {
    let table: ReturnType<typeof readTable>;
    try {
      table = readTable(input.bytes, input.fileName, IMPORT_LIMITS.maxRows);
    } catch (err) {
      if (err instanceof CsvError) throw new AppError("bad_request", err.message);
      throw err;
    }
    const firstRow = table.rows.findIndex((r) => r.some((c) => c.trim() !== ""));
    const width = Math.max(0, ...table.rows.map((r) => r.length));
    if (width > IMPORT_LIMITS.maxColumns) throw new AppError("bad_request", IMPORT_MESSAGES.tooManyColumns);
    const header = Array.from({ length: width }, (_, i) => (table.rows[firstRow]?.[i] ?? "").trim());
    const body = table.rows.slice(firstRow + 1);
    const headerKey = headerKeyOf(header);
    let mapping: ImportField[];
    let mappingSource: ImportPreview["mappingSource"];
    const remembered = await repo.rememberedMapping(headerKey);
    if (input.mapping) {
      if (input.mapping.length !== width) throw new AppError("bad_request", IMPORT_MESSAGES.mappingLength);
      mapping = input.mapping;
      mappingSource = "given";
    } else if (
      remembered?.length === width &&
      remembered.every((f) => (IMPORT_FIELDS as readonly string[]).includes(f))
    ) {
      mapping = remembered as ImportField[];
      mappingSource = "remembered";
    } else {
      mapping = guessMapping(header);
      mappingSource = "guessed";
    }
    const problems: string[] = [];
    if (!mapping.includes("title")) problems.push(IMPORT_MESSAGES.titleUnmapped);
    if (!mapping.includes("artists") && !input.defaultArtist) problems.push(IMPORT_MESSAGES.artistsUnmapped);
    const legend = { ...DEFAULT_TAG_LEGEND, ...legendKeys(input.legend ?? {}) };
    const prepared = prepare(body, mapping, input.defaultArtist || undefined, legend);
    if (prepared.length === 0) throw new AppError("bad_request", IMPORT_MESSAGES.noRows);
    const columns: ImportColumn[] = header.map((h, index) => {
      const samples = new Set<string>();
      for (const row of body) {
        const v = (row[index] ?? "").trim();
        if (v) samples.add(v.length > 60 ? `${v.slice(0, 59)}…` : v);
        if (samples.size === 3) break;
      }
      return { index, header: h || `Column ${index + 1}`, field: mapping[index] ?? "ignore", samples: [...samples] };
    });
    return { table, headerKey, mapping, mappingSource, problems, prepared, columns, legend };
  }

  const keysOf = (rows: Prepared[]) => [...new Set(rows.filter((p) => !p.skip).map((p) => p.titleKey))];

  /** Apply one chunk of rows in one transaction; the counts it adds. */
  async function applyChunk(
    trx: Kysely<DB>,
    viewer: Viewer,
    batchId: string,
    chunk: Prepared[],
    asVerified: boolean,
    artistIds: Map<string, string>,
  ) {
    const existing = await repo.existingByTitle(trx, keysOf(chunk));
    const now = nowIso();
    const created: Insertable<SongTable>[] = [];
    const credits: { id: string; artistIds: string[] }[] = [];
    const changes: { batch_id: string; song_id: string; action: "created" | "updated"; previous: string | null }[] = [];
    let updated = 0;
    let skipped = 0;
    for (const p of chunk) {
      const d = decide(p, existing);
      if (d.outcome === "skip") {
        skipped++;
        continue;
      }
      if (d.outcome === "update" && d.match) {
        const previous = Object.fromEntries(d.changes.map((c) => [c, d.match?.[c] ?? null]));
        const values = Object.fromEntries(d.changes.map((c) => [c, p.leak[c]]));
        await repo.updateSong(trx, d.match.id, { ...values, updated_at: now });
        changes.push({ batch_id: batchId, song_id: d.match.id, action: "updated", previous: JSON.stringify(previous) });
        updated++;
        continue;
      }
      const ids: string[] = [];
      for (const name of p.artists) {
        const key = nameKey(name);
        let id = artistIds.get(key);
        if (!id) {
          id = await songs.ensureArtist(trx, name);
          artistIds.set(key, id);
        }
        if (!ids.includes(id)) ids.push(id);
      }
      const id = newId();
      created.push({
        id,
        title: p.title,
        title_key: p.titleKey,
        genre: p.genre,
        release_date: p.releaseDate,
        soundcloud_url: p.soundcloudUrl,
        submitted_by: viewer.id,
        status: asVerified ? "verified" : "pending",
        verified_at: asVerified ? now : null,
        verified_by: asVerified ? viewer.id : null,
        last_edited_by: null,
        last_edited_at: null,
        ...NO_AUDIO_COLUMNS,
        fingerprinted_at: null,
        fingerprint_preset: null,
        audio_match_song_id: null,
        audio_match_confidence: null,
        fake_at: null,
        fake_by: null,
        ...p.leak,
        version_of: null,
        version_kind: null,
        import_batch_id: batchId,
        search_text: searchNormalize([p.title, ...p.artists].join(" ")),
        created_at: now,
        updated_at: now,
      });
      credits.push({ id, artistIds: ids });
      changes.push({ batch_id: batchId, song_id: id, action: "created", previous: null });
    }
    await repo.insertSongs(trx, created);
    // Credits and the search index as an upload writes them, so imported songs show and are found where uploads are.
    await repo.creditNewSongs(
      trx,
      credits.map((c) => ({ songId: c.id, artistIds: c.artistIds })),
    );
    await repo.indexNewSongs(
      trx,
      created.map((c) => ({ song_id: c.id, search_text: c.search_text ?? "" })),
    );
    await repo.insertChanges(trx, changes);
    // Each era the new songs name becomes an era of their first credited artist (issue 27); existing ones stay.
    const eras = new Map<string, { artist_id: string; name: string; name_key: string }>();
    for (const [i, c] of credits.entries()) {
      const era = created[i]?.era;
      const artistId = c.artistIds[0];
      if (!era || !artistId) continue;
      const key = nameKey(era);
      eras.set(`${artistId} ${key}`, { artist_id: artistId, name: era, name_key: key });
    }
    await repo.ensureEras(trx, [...eras.values()], now);
    return { created: created.length, updated, skipped };
  }

  /** Run a batch's rows chunk by chunk, recording progress; a failure stops it (what was done stays undoable). */
  async function process(viewer: Viewer, batchId: string, rows: Prepared[], asVerified: boolean, fileName: string) {
    const totals = { created: 0, updated: 0, skipped: 0, processed: 0 };
    const artistIds = new Map<string, string>();
    const started = Date.now();
    try {
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
        if (stopping) throw new Error("server shutting down");
        const chunk = rows.slice(i, i + CHUNK_ROWS);
        await database.tx(async (trx) => {
          const added = await applyChunk(trx, viewer, batchId, chunk, asVerified, artistIds);
          totals.created += added.created;
          totals.updated += added.updated;
          totals.skipped += added.skipped;
          totals.processed += chunk.length;
          await repo.updateBatch(trx, batchId, {
            processed_rows: totals.processed,
            created_count: totals.created,
            updated_count: totals.updated,
            skipped_count: totals.skipped,
          });
        });
        // Other requests get their turn between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await database.tx(async (trx) => {
        await repo.updateBatch(trx, batchId, { status: "done", finished_at: nowIso() });
        await audit(trx, viewer.id, "import.run", batchId, {
          fileName,
          created: totals.created,
          updated: totals.updated,
          skipped: totals.skipped,
        });
      });
      log.info({ batchId, rows: rows.length, ms: Date.now() - started, ...totals }, "import finished");
      if (totals.created + totals.updated > 0)
        await announce(batchId).catch((err) => log.warn({ err, batchId }, "import event not sent"));
      // Created songs are the importer's uploads: their open profile shows the new count.
      if (totals.created > 0)
        await bus
          .publish({ type: "me.changed", userId: viewer.id })
          .catch((err) => log.warn({ err, batchId }, "import event not sent"));
    } catch (err) {
      log.error({ err, batchId }, "import failed");
      await repo
        .updateBatch(database.db, batchId, {
          status: "failed",
          error: "The import stopped with an error. What it did can be undone.",
          finished_at: nowIso(),
        })
        .catch((e) => log.error({ err: e, batchId }, "import failure not recorded"));
    }
  }

  async function batch(id: string): Promise<ImportBatch> {
    const row = await repo.findBatch(id);
    if (!row) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
    return toBatch(row, await repo.createdSongs(id, 20));
  }

  return {
    /** A dry run: per row what an import would do and why; the admin's explicit mapping is remembered. */
    async preview(viewer: Viewer, input: ImportInput): Promise<ImportPreview> {
      const r = await read(input);
      if (input.mapping) await repo.rememberMapping(r.headerKey, r.mapping, viewer.id, nowIso());
      const existing = r.problems.length > 0 ? new Map() : await repo.existingByTitle(database.db, keysOf(r.prepared));
      const summary = { rows: r.prepared.length, create: 0, update: 0, skip: 0, warnings: 0 };
      const rows: ImportRow[] = [];
      const shown = { create: 0, update: 0, skip: 0 };
      for (const p of r.prepared) {
        const d: Decision =
          r.problems.length > 0
            ? { outcome: "skip", match: undefined, changes: [], reasons: [...r.problems] }
            : decide(p, existing);
        summary[d.outcome]++;
        if (p.warnings.length > 0) summary.warnings++;
        if (shown[d.outcome]++ >= IMPORT_LIMITS.rowsShownPerOutcome) continue;
        rows.push({
          line: p.line,
          outcome: d.outcome,
          title: p.title,
          artists: p.artists,
          songId: d.match?.id ?? null,
          reasons: d.reasons,
          warnings: p.warnings,
        });
      }
      return {
        fileName: input.fileName,
        delimiter: DELIMITER_NAMES[r.table.delimiter],
        columns: r.columns,
        mappingSource: r.mappingSource,
        problems: r.problems,
        summary,
        rows,
        rowsTruncated: rows.length < r.prepared.length,
        marks: marksOf(r.prepared, r.legend),
      };
    },

    /**
     * Start an import: one batch at a time. A file of one chunk is done when this answers; a longer one goes on
     * in the background (GET the batch for its progress).
     */
    async run(viewer: Viewer, input: ImportInput): Promise<ImportBatch> {
      const r = await read(input);
      if (r.problems.length > 0) throw new AppError("bad_request", r.problems.join(" "));
      const now = nowIso();
      await repo.rememberMapping(r.headerKey, r.mapping, viewer.id, now);
      const id = newId();
      await database.tx(async (trx) => {
        // Serialise starts (SQLite's write transaction already does): two runs at once could both create a song.
        if (database.dialect === "postgres")
          await sql`select pg_advisory_xact_lock(hashtext('unheard:import'))`.execute(trx);
        for (const other of await repo.runningBatches(trx)) {
          if (Date.now() - new Date(toIso(other.created_at)).getTime() < STALE_RUN_MS)
            throw new AppError("conflict", IMPORT_MESSAGES.running);
          await repo.updateBatch(trx, other.id, { status: "failed", error: "Interrupted", finished_at: now });
        }
        await repo.insertBatch(trx, {
          id,
          created_by: viewer.id,
          created_at: now,
          file_name: input.fileName.slice(0, 255),
          file_sha256: createHash("sha256").update(input.bytes).digest("hex"),
          options: JSON.stringify({
            mapping: r.mapping,
            asVerified: input.asVerified,
            defaultArtist: input.defaultArtist ?? null,
            delimiter: DELIMITER_NAMES[r.table.delimiter],
          }),
          status: "running",
          total_rows: r.prepared.length,
        });
      });
      const work = process(viewer, id, r.prepared, input.asVerified, input.fileName);
      if (r.prepared.length <= CHUNK_ROWS) await work;
      else {
        running.add(work);
        void work.finally(() => running.delete(work));
      }
      return batch(id);
    },

    batch,

    /** The newest batches. */
    async list(): Promise<ImportBatch[]> {
      return (await repo.listBatches(50)).map((row) => toBatch(row));
    },

    /**
     * Undo a batch as one transaction: the songs it created are deleted (credits, search rows, votes and
     * favourites with them, as a song deletion does) and the songs it updated get their previous values back.
     */
    async undo(viewer: Viewer, id: string): Promise<ImportBatch> {
      const importer = await database.tx(async (trx) => {
        const row = await repo.findBatch(id, trx);
        if (!row) throw new AppError("not_found", IMPORT_MESSAGES.notFound);
        // Claimed by a conditional update, so two undos at once cannot both go ahead.
        const claimed = await trx
          .updateTable("import_batch")
          .set({ status: "undone", undone_at: nowIso(), undone_by: viewer.id })
          .where("id", "=", id)
          .where("status", "in", ["done", "failed"])
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) {
          const now = await repo.findBatch(id, trx);
          throw new AppError(
            "conflict",
            now?.status === "running" ? IMPORT_MESSAGES.stillRunning : IMPORT_MESSAGES.alreadyUndone,
          );
        }
        const deleted = await repo.deleteCreatedSongs(trx, id);
        const changes = await repo.changesOf(trx, id);
        const now = nowIso();
        let restored = 0;
        for (const c of changes) {
          if (c.action !== "updated" || !c.previous) continue;
          const previous = JSON.parse(c.previous) as Partial<LeakValues>;
          const values = Object.fromEntries(
            LEAK_COLUMNS.filter((col) => col in previous).map((col) => [col, previous[col] ?? null]),
          );
          await repo.updateSong(trx, c.song_id, { ...values, updated_at: now });
          restored++;
        }
        await audit(trx, viewer.id, "import.undone", id, { fileName: row.file_name, deleted, restored });
        return deleted > 0 ? row.created_by : null;
      });
      await announce(id);
      // The deleted songs were the importer's uploads (submitted_by is the batch's creator).
      if (importer) await bus.publish({ type: "me.changed", userId: importer });
      return batch(id);
    },

    /** Stop background runs after their current chunk; resolves once none runs (before the database closes). */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...running]);
    },
  };
}

/** The imports service type. */
export type ImportsService = ReturnType<typeof createImportsService>;

import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB, ImportBatchTable, SongTable } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { toIso } from "../../lib/time.js";

type Db = Kysely<DB>;

/** An import batch as read from either dialect, with its creator's name. */
export type BatchRow = Selectable<ImportBatchTable> & { creator_name: string | null; approver_name: string | null };

/** The leak columns an import fills in or replaces on a song. */
export const LEAK_COLUMNS = [
  "era",
  "producers",
  "features",
  "reference_names",
  "aliases",
  "version_label",
  "tags",
  "leak_date",
  "file_date",
  "track_length",
  "availability",
  "quality",
  "notes",
  "links",
] as const;
/** One of the leak columns. */
export type LeakColumn = (typeof LEAK_COLUMNS)[number];
/** Values of the leak columns (name lists and tags as JSON text, as stored; track_length in seconds). */
export type LeakValues = { [K in LeakColumn]: K extends "track_length" ? number | null : string | null };

/**
 * A song an imported row may match, or a linked sheet row's song: its id, title, first credited artist, credited
 * artists' name keys, leak columns and whether the linked sheet still lists it.
 */
export type ExistingSong = LeakValues & {
  id: string;
  title: string;
  artistId: string | null;
  artistKeys: Set<string>;
  tracker_removed_at: string | null;
};

// The song columns read to match an imported row: the ExistingSong's and the title key it is grouped by.
const MATCH_COLUMNS = ["id", "title", "title_key", "tracker_removed_at", ...LEAK_COLUMNS] as const;

// Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits with ~40 song columns.
const INSERT_ROWS = 200;
// Title keys per lookup.
const LOOKUP_KEYS = 500;

/** Add `sign` x n to the credit_count of each artist (grouped by n: one statement per distinct count). */
async function moveCreditCounts(trx: Db, perArtist: Map<string, number>, sign: 1 | -1): Promise<void> {
  const byCount = new Map<number, string[]>();
  for (const [id, n] of perArtist) byCount.set(n, [...(byCount.get(n) ?? []), id]);
  for (const [n, ids] of byCount) {
    for (let i = 0; i < ids.length; i += LOOKUP_KEYS) {
      await trx
        .updateTable("user")
        .set({ credit_count: sql`credit_count + ${sign * n}` })
        .where("id", "in", ids.slice(i, i + LOOKUP_KEYS))
        .execute();
    }
  }
}

/** Songs whose `column` is one of `values`, with their credited artists (the first one's id) and title key. */
async function readSongs(
  trx: Db,
  column: "song.title_key" | "song.id",
  values: string[],
): Promise<(ExistingSong & { titleKey: string })[]> {
  const byId = new Map<string, ExistingSong & { titleKey: string }>();
  for (let i = 0; i < values.length; i += LOOKUP_KEYS) {
    const rows = await trx
      .selectFrom("song")
      .innerJoin("song_artist", "song_artist.song_id", "song.id")
      .innerJoin("user", "user.id", "song_artist.artist_id")
      .select([...MATCH_COLUMNS.map((c) => `song.${c}` as const), "user.username_key", "user.id as artist_id"])
      .select("song_artist.position")
      .where(column, "in", values.slice(i, i + LOOKUP_KEYS))
      .orderBy("song_artist.position")
      .execute();
    for (const r of rows) {
      let song = byId.get(r.id);
      if (!song) {
        const { title_key, username_key: _, artist_id: __, position: ___, tracker_removed_at, ...columns } = r;
        song = {
          ...columns,
          tracker_removed_at: toIso(tracker_removed_at),
          titleKey: title_key,
          artistId: null,
          artistKeys: new Set(),
        };
        byId.set(r.id, song);
      }
      if (song.artistId === null) song.artistId = r.artist_id;
      song.artistKeys.add(r.username_key);
    }
  }
  return [...byId.values()];
}

/** SQL for import batches, their recorded changes and remembered mappings. */
export function createImportsRepo(database: Database) {
  const { db } = database;
  const batches = (trx: Db) =>
    trx
      .selectFrom("import_batch")
      .leftJoin("user as creator", "creator.id", "import_batch.created_by")
      .leftJoin("user as approver", "approver.id", "import_batch.approved_by")
      .selectAll("import_batch")
      .select(["creator.username as creator_name", "approver.username as approver_name"]);
  return {
    /** Songs whose title key is one of `titleKeys`, grouped by title key (each with its artists' keys). */
    async existingByTitle(trx: Db, titleKeys: string[]): Promise<Map<string, ExistingSong[]>> {
      const out = new Map<string, ExistingSong[]>();
      for (const song of await readSongs(trx, "song.title_key", titleKeys)) {
        out.set(song.titleKey, [...(out.get(song.titleKey) ?? []), song]);
      }
      return out;
    },

    /** Songs by id (a linked sheet's rows' songs), with their artists' keys. */
    async songsById(trx: Db, ids: string[]): Promise<Map<string, ExistingSong>> {
      return new Map((await readSongs(trx, "song.id", ids)).map((s) => [s.id, s]));
    },

    /** Insert new songs, many rows per statement. */
    async insertSongs(trx: Db, rows: Insertable<SongTable>[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        await trx
          .insertInto("song")
          .values(rows.slice(i, i + INSERT_ROWS))
          .execute();
      }
    },

    updateSong(trx: Db, id: string, values: Updateable<SongTable>): Promise<unknown> {
      return trx.updateTable("song").set(values).where("id", "=", id).execute();
    },

    /**
     * Credit artists on new songs and count each credit in the artist's credit_count, as songs.repo's setArtists
     * does for one song, in a few statements for many songs.
     */
    async creditNewSongs(trx: Db, credits: { songId: string; artistIds: string[] }[]): Promise<void> {
      const rows = credits.flatMap((c) =>
        c.artistIds.map((artist_id, position) => ({ song_id: c.songId, artist_id, position })),
      );
      for (let i = 0; i < rows.length; i += 1000) {
        await trx
          .insertInto("song_artist")
          .values(rows.slice(i, i + 1000))
          .execute();
      }
      const perArtist = new Map<string, number>();
      for (const r of rows) perArtist.set(r.artist_id, (perArtist.get(r.artist_id) ?? 0) + 1);
      await moveCreditCounts(trx, perArtist, 1);
    },

    /**
     * Delete the songs a batch created, with what creditNewSongs wrote for them (votes,
     * favourites and the rest go with the rows, as on any song deletion); how many there were.
     */
    async deleteCreatedSongs(trx: Db, batchId: string): Promise<number> {
      const created = trx
        .selectFrom("import_change")
        .select("song_id")
        .where("batch_id", "=", batchId)
        .where("action", "=", "created");
      const credits = await trx
        .selectFrom("song_artist")
        .select(["artist_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("song_id", "in", created)
        .groupBy("artist_id")
        .execute();
      await moveCreditCounts(trx, new Map(credits.map((c) => [c.artist_id, Number(c.n)])), -1);
      const res = await trx.deleteFrom("song").where("id", "in", created).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Record what a batch created and updated (with the values an update replaced). */
    /** Eras of artists, created when missing (an artist's existing era, and what it says, stays as it is). */
    async ensureEras(trx: Kysely<DB>, eras: { artist_id: string; name: string; name_key: string }[], now: string) {
      for (let i = 0; i < eras.length; i += 200) {
        const slice = eras.slice(i, i + 200);
        if (slice.length === 0) break;
        await trx
          .insertInto("era")
          .values(slice.map((e) => ({ id: newId(), ...e, created_at: now, updated_at: now })))
          .onConflict((oc) => oc.columns(["artist_id", "name_key"]).doNothing())
          .execute();
      }
    },

    async insertChanges(
      trx: Db,
      rows: {
        batch_id: string;
        song_id: string;
        action: "created" | "updated" | "renamed" | "removed";
        previous: string | null;
      }[],
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += 1000) {
        await trx
          .insertInto("import_change")
          .values(rows.slice(i, i + 1000))
          .execute();
      }
    },

    /** A linked sheet's rows as a sync leaves them: rows gone from the link deleted, the others written. */
    async writeLinkRows(
      trx: Db,
      linkId: string,
      rows: {
        upsert: {
          key: string;
          songId: string;
          contentHash: string | null;
          restHash: string | null;
          removed: boolean;
        }[];
        remove: string[];
      },
    ): Promise<void> {
      for (let i = 0; i < rows.remove.length; i += LOOKUP_KEYS) {
        await trx
          .deleteFrom("tracker_link_row")
          .where("link_id", "=", linkId)
          .where("row_key", "in", rows.remove.slice(i, i + LOOKUP_KEYS))
          .execute();
      }
      for (let i = 0; i < rows.upsert.length; i += INSERT_ROWS) {
        await trx
          .insertInto("tracker_link_row")
          .values(
            rows.upsert.slice(i, i + INSERT_ROWS).map((r) => ({
              link_id: linkId,
              row_key: r.key,
              song_id: r.songId,
              content_hash: r.contentHash,
              rest_hash: r.restHash,
              removed: r.removed,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["link_id", "row_key"]).doUpdateSet((eb) => ({
              song_id: eb.ref("excluded.song_id"),
              content_hash: eb.ref("excluded.content_hash"),
              rest_hash: eb.ref("excluded.rest_hash"),
              removed: eb.ref("excluded.removed"),
            })),
          )
          .execute();
      }
    },

    /** What a link remembers of its sheet's rows, by row identity. */
    async linkRows(trx: Db, linkId: string) {
      return trx
        .selectFrom("tracker_link_row")
        .select(["row_key", "song_id", "content_hash", "rest_hash", "removed"])
        .where("link_id", "=", linkId)
        .execute();
    },

    changesOf(trx: Db, batchId: string) {
      return trx
        .selectFrom("import_change")
        .select(["song_id", "action", "previous"])
        .where("batch_id", "=", batchId)
        .execute();
    },

    /** A few songs a batch created that still exist, for links. */
    createdSongs(batchId: string, limit: number) {
      return db
        .selectFrom("song")
        .select(["id", "title"])
        .where("import_batch_id", "=", batchId)
        .orderBy("title")
        .limit(limit)
        .execute();
    },

    /** The mappings admins chose, by header key (a short table: one row per header ever mapped by hand). */
    async rememberedMappings(): Promise<Record<string, string[]>> {
      const rows = await db
        .selectFrom("import_mapping")
        .select(["header_key", "mapping"])
        .orderBy("updated_at", "desc")
        .limit(10_000)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.header_key, JSON.parse(r.mapping) as string[]]));
    },

    rememberMapping(headerKey: string, mapping: string[], userId: string, now: string): Promise<unknown> {
      const values = { mapping: JSON.stringify(mapping), updated_by: userId, updated_at: now };
      return db
        .insertInto("import_mapping")
        .values({ header_key: headerKey, ...values })
        .onConflict((oc) => oc.column("header_key").doUpdateSet(values))
        .execute();
    },

    insertBatch(trx: Db, row: Insertable<ImportBatchTable>): Promise<unknown> {
      return trx.insertInto("import_batch").values(row).execute();
    },

    updateBatch(trx: Db, id: string, values: Updateable<ImportBatchTable>): Promise<unknown> {
      return trx.updateTable("import_batch").set(values).where("id", "=", id).execute();
    },

    findBatch(id: string, trx: Db = db): Promise<BatchRow | undefined> {
      return batches(trx).where("import_batch.id", "=", id).executeTakeFirst();
    },

    /** The newest batches first. */
    listBatches(limit: number): Promise<BatchRow[]> {
      return batches(db)
        .orderBy("import_batch.created_at", "desc")
        .orderBy("import_batch.id", "desc")
        .limit(limit)
        .execute();
    },

    /** Batches still marked running (at most one runs at a time). */
    runningBatches(trx: Db = db) {
      return trx.selectFrom("import_batch").select(["id", "created_at"]).where("status", "=", "running").execute();
    },
  };
}

/** The imports repo type. */
export type ImportsRepo = ReturnType<typeof createImportsRepo>;

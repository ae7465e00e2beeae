import type { LeakDetails, SuggestionValues } from "@unheard/shared";
import { LEAK_FIELDS, MESSAGES } from "@unheard/shared";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { nowIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import { leakOf } from "../songs/leak-details.js";
import { maySee } from "../songs/visibility.js";
import type { TrustService } from "../trust/trust.service.js";

/** Song fields as an edit suggestion holds them. */
type Fields = {
  title: string;
  artists: string[];
  genre: string;
  releaseDate: string | null;
  soundcloudUrl: string | null;
} & LeakDetails;

/** The song's current values in suggestion form. */
export async function currentValues(
  trx: Kysely<DB>,
  songId: string,
): Promise<(SuggestionValues & LeakDetails & { version: number }) | undefined> {
  const song = await trx.selectFrom("song").selectAll().where("id", "=", songId).executeTakeFirst();
  if (!song) return undefined;
  const artists = await trx
    .selectFrom("song_artist")
    .innerJoin("user", "user.id", "song_artist.artist_id")
    .select("user.username")
    .where("song_artist.song_id", "=", songId)
    .orderBy("song_artist.position")
    .execute();
  const names = artists.map((a) => a.username);
  return {
    title: song.title,
    artist: names.join(", "),
    artists: names,
    genre: song.genre,
    releaseDate: song.release_date,
    soundcloudUrl: song.soundcloud_url,
    ...leakOf(song),
    version: Number(song.version),
  };
}

/** What a member's suggestion is checked against: the database's dialect (for its lock) and the daily caps. */
export type SuggestionChecks = {
  dialect: Database["dialect"];
  /** The daily caps (decision 015); absent only where an app is built without trust rules. */
  trust: Pick<TrustService, "assertUnderCap"> | undefined;
};

/**
 * Record a member's proposal against the song's current version; returns its id. Every path that records one goes
 * through here (the suggest route; songs.service edit() for verified contributors and owners' identity changes),
 * held to the same rules (issue 24: one member sent 480 in 9 s, some on hidden songs):
 * - the song must be one the member may see, else 404 as for an unknown id (a hidden song is not confirmed);
 * - one open suggestion per member and song (409);
 * - the member's daily cap (429, trust.assertUnderCap).
 * Call it inside the transaction that inserts: the checks count what is committed, and concurrent calls by one
 * member run one after another (SQLite: BEGIN IMMEDIATE; PostgreSQL: a per-member advisory lock until commit).
 */
export async function insertSuggestion(
  trx: Kysely<DB>,
  viewer: Viewer,
  songId: string,
  fields: Fields,
  reason: string,
  checks: SuggestionChecks,
): Promise<string> {
  if (checks.dialect === "postgres")
    await sql`select pg_advisory_xact_lock(hashtext(${`suggest:${viewer.id}`}))`.execute(trx);
  const song = await trx
    .selectFrom("song")
    .select(["status", "is_hidden", "submitted_by"])
    .where("id", "=", songId)
    .executeTakeFirst();
  if (!song || !maySee(song, viewer)) throw new AppError("not_found", MESSAGES.songNotFound);
  const open = await trx
    .selectFrom("edit_suggestion")
    .select("id")
    .where("song_id", "=", songId)
    .where("submitted_by", "=", viewer.id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (open) throw new AppError("conflict", MESSAGES.suggestionAlreadyOpen);
  await checks.trust?.assertUnderCap(trx, viewer, "suggestions");
  return insertSuggestionUnchecked(trx, viewer.id, songId, fields, reason);
}

/** Record a proposal with no checks: for the demo seed only, which writes a made-up history. */
export async function insertSuggestionUnchecked(
  trx: Kysely<DB>,
  userId: string,
  songId: string,
  fields: Fields,
  reason: string,
): Promise<string> {
  const current = await currentValues(trx, songId);
  if (!current) throw new AppError("not_found", MESSAGES.songNotFound);
  const { version, ...original } = current;
  const suggested: SuggestionValues = {
    title: fields.title,
    artist: fields.artists.join(", "),
    artists: fields.artists,
    genre: fields.genre,
    releaseDate: fields.releaseDate,
    soundcloudUrl: fields.soundcloudUrl,
    // Every leak detail: one left out would read as emptied, and an approval would empty it on the song.
    ...Object.fromEntries(LEAK_FIELDS.map((f) => [f, fields[f]])),
  };
  const id = newId();
  await trx
    .insertInto("edit_suggestion")
    .values({
      id,
      song_id: songId,
      base_version: version,
      original: JSON.stringify(original),
      suggested: JSON.stringify(suggested),
      reason,
      submitted_by: userId,
      submitted_at: nowIso(),
      reviewed_by: null,
      reviewed_at: null,
      review_notes: null,
    })
    .execute();
  return id;
}

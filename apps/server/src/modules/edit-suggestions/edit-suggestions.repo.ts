import type { LeakDetails, SuggestionValues } from "@unheard/shared";
import { MESSAGES } from "@unheard/shared";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { nowIso } from "../../lib/time.js";
import { leakOf } from "../songs/leak-details.js";

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

/** Record a proposal against the song's current version; returns its id. */
export async function insertSuggestion(
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
    era: fields.era,
    producers: fields.producers,
    features: fields.features,
    leakDate: fields.leakDate,
    availability: fields.availability,
    quality: fields.quality,
    notes: fields.notes,
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

import {
  AVAILABILITY_LABELS,
  type Availability,
  formatTrackLength,
  MESSAGES,
  QUALITY_LABELS,
  type Quality,
  SONG_TAG_MARKS,
} from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { csvField } from "../open-data/open-data.service.js";
import { leakOf } from "../songs/leak-details.js";

/** The columns of an artist's tracker sheet, as community trackers lay them out (and as the import reads them). */
export const TRACKER_COLUMNS = [
  "Era",
  "Name",
  "Artist(s)",
  "Notes",
  "Track Length",
  "File Date",
  "Leak Date",
  "Available Length",
  "Quality",
  "Genre",
  "Release Date",
] as const;

/**
 * A tracker's name cell: the tags' marks, the title, then "(feat. …)", "(prod. …)", "(ref. …)", "(Alt: …)" and
 * "[V2]", which the import takes out again (tracker-values.ts splitTitle).
 */
export function trackerName(
  title: string,
  d: {
    tags: string[];
    features: string[];
    producers: string[];
    references: string[];
    aliases: string[];
    versionLabel: string | null;
  },
): string {
  const marks = d.tags.map((t) => SONG_TAG_MARKS[t as keyof typeof SONG_TAG_MARKS]).filter(Boolean);
  const parts = [...marks, title];
  if (d.features.length > 0) parts.push(`(feat. ${d.features.join(", ")})`);
  if (d.producers.length > 0) parts.push(`(prod. ${d.producers.join(", ")})`);
  if (d.references.length > 0) parts.push(`(ref. ${d.references.join(", ")})`);
  if (d.aliases.length > 0) parts.push(`(Alt: ${d.aliases.join(", ")})`);
  if (d.versionLabel) parts.push(`[${d.versionLabel}]`);
  return parts.join(" ");
}

/** An artist's public songs as a tracker sheet (issue 27): one row per song, grouped by era, newest era first. */
export function createTrackerExport(deps: { database: Database }) {
  const { db } = deps.database;
  return {
    async csv(artistId: string): Promise<{ name: string; body: string }> {
      const artist = await db
        .selectFrom("user")
        .select(["id", "username"])
        .where("id", "=", artistId)
        .where("is_artist", "=", true)
        .executeTakeFirst();
      if (!artist) throw new AppError("not_found", MESSAGES.artistNotFound);
      const songs = await db
        .selectFrom("song")
        .innerJoin("song_artist", "song_artist.song_id", "song.id")
        .selectAll("song")
        .where("song_artist.artist_id", "=", artistId)
        .where("song.status", "=", "verified")
        .where("song.is_hidden", "=", false)
        .execute();
      const credits = songs.length
        ? await db
            .selectFrom("song_artist")
            .innerJoin("user", "user.id", "song_artist.artist_id")
            .select(["song_artist.song_id", "user.username"])
            .where(
              "song_artist.song_id",
              "in",
              songs.map((s) => s.id),
            )
            .orderBy("song_artist.song_id")
            .orderBy("song_artist.position")
            .execute()
        : [];
      const artistsOf = new Map<string, string[]>();
      for (const c of credits) artistsOf.set(c.song_id, [...(artistsOf.get(c.song_id) ?? []), c.username]);
      // Eras by their latest leak (newest first), songs within an era by leak date, then title.
      const latest = new Map<string, string>();
      for (const s of songs) {
        const key = s.era ?? "";
        const at = s.leak_date ?? String(s.created_at);
        if ((latest.get(key) ?? "") < at) latest.set(key, at);
      }
      songs.sort(
        (a, b) =>
          (latest.get(b.era ?? "") ?? "").localeCompare(latest.get(a.era ?? "") ?? "") ||
          (a.era ?? "").localeCompare(b.era ?? "") ||
          (a.leak_date ?? "9999").localeCompare(b.leak_date ?? "9999") ||
          a.title.localeCompare(b.title),
      );
      const lines = [TRACKER_COLUMNS.map(csvField).join(",")];
      for (const s of songs) {
        const d = leakOf(s);
        lines.push(
          [
            d.era,
            trackerName(s.title, d),
            (artistsOf.get(s.id) ?? []).join(", "),
            d.notes,
            d.trackLength === null ? null : formatTrackLength(d.trackLength),
            d.fileDate,
            d.leakDate,
            d.availability ? AVAILABILITY_LABELS[d.availability as Availability] : null,
            d.quality ? QUALITY_LABELS[d.quality as Quality] : null,
            s.genre,
            s.release_date,
          ]
            .map(csvField)
            .join(","),
        );
      }
      return { name: artist.username, body: `${lines.join("\r\n")}\r\n` };
    },
  };
}

/** The tracker export type. */
export type TrackerExport = ReturnType<typeof createTrackerExport>;

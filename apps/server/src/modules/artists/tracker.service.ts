import {
  type ArtistTracker,
  AVAILABILITY_LABELS,
  type Availability,
  type Era,
  type eraInputSchema,
  formatTrackLength,
  MESSAGES,
  QUALITY_LABELS,
  type Quality,
  SONG_TAG_MARKS,
  TRACKER_AVAILABILITY_ORDER,
  TRACKER_MAX_SONGS,
  type TrackerAvailability,
  type TrackerCounts,
} from "@unheard/shared";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { nameKey } from "../../lib/text.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import { coverUrl } from "../covers/covers.service.js";
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
  "Link(s)",
] as const;

/**
 * A tracker's name cell: the tags' marks, the title, then "(feat. …)", "(prod. …)", "(ref. …)", "(Alt: …)" and
 * "[V2]", which the import takes out again (title-parts.ts splitTitle).
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

/** An artist's public songs as trackers keep them (issue 27): the tracker page and its CSV sheet. */
export function createTrackerExport(deps: { database: Database }) {
  const { db } = deps.database;

  /** The artist, its public songs (eras newest first, then leak date and title) and every song's credits. */
  async function load(artistId: string, max: number) {
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
      .orderBy("song.created_at", "desc")
      .limit(max + 1)
      .execute();
    const truncated = songs.length > max;
    if (truncated) songs.length = max;
    const artistsOf = new Map<string, { id: string; name: string }[]>();
    // In slices: SQLite binds at most 32,766 values, and a large tracker holds thousands of songs.
    for (let i = 0; i < songs.length; i += 500) {
      const credits = await db
        .selectFrom("song_artist")
        .innerJoin("user", "user.id", "song_artist.artist_id")
        .select(["song_artist.song_id", "user.id", "user.username"])
        .where(
          "song_artist.song_id",
          "in",
          songs.slice(i, i + 500).map((s) => s.id),
        )
        .orderBy("song_artist.song_id")
        .orderBy("song_artist.position")
        .execute();
      for (const c of credits)
        artistsOf.set(c.song_id, [...(artistsOf.get(c.song_id) ?? []), { id: c.id, name: c.username }]);
    }
    // Eras by their latest leak, newest first; eras with no leak date after them, then songs without an era.
    // Songs within an era by leak date.
    const latest = new Map<string, string>();
    for (const s of songs) {
      const key = s.era ?? "";
      const at = s.leak_date ?? "";
      if ((latest.get(key) ?? "") <= at) latest.set(key, at);
    }
    songs.sort(
      (a, b) =>
        Number(a.era === null) - Number(b.era === null) ||
        (latest.get(b.era ?? "") ?? "").localeCompare(latest.get(a.era ?? "") ?? "") ||
        (a.era ?? "").localeCompare(b.era ?? "") ||
        (a.leak_date ?? "9999").localeCompare(b.leak_date ?? "9999") ||
        a.title.localeCompare(b.title),
    );
    return { artist, songs, artistsOf, truncated };
  }

  return {
    /** The tracker page: eras newest first, each with the span of its leaks, what is out and its songs. */
    async tracker(artistId: string): Promise<ArtistTracker> {
      const { artist, songs, artistsOf, truncated } = await load(artistId, TRACKER_MAX_SONGS);
      const eras: ArtistTracker["eras"] = [];
      for (const s of songs) {
        const d = leakOf(s);
        let era = eras.at(-1);
        if (!era || era.name !== d.era) {
          era = {
            name: d.era,
            from: null,
            to: null,
            description: null,
            coverUrl: null,
            startsOn: null,
            endsOn: null,
            counts: [],
            sheetCounts: [],
            songs: [],
          };
          eras.push(era);
        }
        const credited = artistsOf.get(s.id) ?? [];
        if (d.leakDate) {
          if (!era.from || d.leakDate < era.from) era.from = d.leakDate;
          if (!era.to || d.leakDate > era.to) era.to = d.leakDate;
        }
        era.songs.push({
          id: s.id,
          title: s.title,
          with: credited.filter((c) => c.id !== artist.id).map((c) => c.name),
          versionLabel: d.versionLabel,
          tags: d.tags,
          aliases: d.aliases,
          features: d.features,
          producers: d.producers,
          leakDate: d.leakDate,
          fileDate: d.fileDate,
          trackLength: d.trackLength,
          availability: d.availability,
          quality: d.quality,
          notes: d.notes,
          hasAudio: Boolean(s.audio_key),
          links: d.links,
          removedFromTracker: s.tracker_removed_at !== null,
          coverUrl: coverUrl(
            s.id,
            s.title,
            credited.map((c) => c.name),
          ),
        });
      }
      // What the artist's page says of each era: its description, cover and span when known.
      const said = new Map(
        (await db.selectFrom("era").selectAll().where("artist_id", "=", artist.id).execute()).map((e) => [
          e.name_key,
          e,
        ]),
      );
      for (const era of eras) {
        era.counts = countsOf(era.songs);
        const row = era.name === null ? undefined : said.get(nameKey(era.name));
        if (!row) continue;
        era.description = row.description;
        era.coverUrl = row.cover_url;
        era.startsOn = row.starts_on;
        era.endsOn = row.ends_on;
        era.sheetCounts = sheetCountsOf(row.sheet_counts);
        if (row.starts_on) era.from = row.starts_on;
        if (row.ends_on) era.to = row.ends_on;
      }
      const link = await db
        .selectFrom("tracker_link")
        .select(["last_checked_at", "last_changed_at"])
        .where("artist_id", "=", artist.id)
        .where("approved_at", "is not", null)
        .executeTakeFirst();
      return {
        total: songs.length,
        counts: countsOf(eras.flatMap((e) => e.songs)),
        eras,
        truncated,
        sync: link ? { lastCheckedAt: toIso(link.last_checked_at), lastChangedAt: toIso(link.last_changed_at) } : null,
      };
    },

    /** Say what an era of the artist is (its description, cover, span): created or replaced by its name. */
    async saveEra(viewer: Viewer, artistId: string, e: z.output<typeof eraInputSchema>): Promise<Era> {
      const artist = await db
        .selectFrom("user")
        .select("id")
        .where("id", "=", artistId)
        .where("is_artist", "=", true)
        .executeTakeFirst();
      if (!artist) throw new AppError("not_found", MESSAGES.artistNotFound);
      if (viewer.id !== artistId && !viewer.isAdmin) throw new AppError("forbidden", MESSAGES.artistNoPermission);
      const now = nowIso();
      const values = {
        name: e.name,
        description: e.description,
        cover_url: e.coverUrl,
        starts_on: e.startsOn,
        ends_on: e.endsOn,
        updated_at: now,
      };
      await db
        .insertInto("era")
        .values({ id: newId(), artist_id: artistId, name_key: nameKey(e.name), created_at: now, ...values })
        .onConflict((oc) => oc.columns(["artist_id", "name_key"]).doUpdateSet(values))
        .execute();
      return { name: e.name, description: e.description, coverUrl: e.coverUrl, startsOn: e.startsOn, endsOn: e.endsOn };
    },

    /** The tracker as a CSV sheet in the layout the import reads (every public song). */
    async csv(artistId: string): Promise<{ name: string; body: string }> {
      const { artist, songs, artistsOf } = await load(artistId, 100_000);
      const lines = [TRACKER_COLUMNS.map(csvField).join(",")];
      for (const s of songs) {
        const d = leakOf(s);
        lines.push(
          [
            d.era,
            trackerName(s.title, d),
            (artistsOf.get(s.id) ?? []).map((c) => c.name).join(", "),
            d.notes,
            d.trackLength === null ? null : formatTrackLength(d.trackLength),
            d.fileDate,
            d.leakDate,
            d.availability ? AVAILABILITY_LABELS[d.availability as Availability] : null,
            d.quality ? QUALITY_LABELS[d.quality as Quality] : null,
            s.genre,
            s.release_date,
            d.links.join("\n"),
          ]
            .map(csvField)
            .join(","),
        );
      }
      return { name: artist.username, body: `${lines.join("\r\n")}\r\n` };
    },
  };
}

/** An era's counts as its sheet stated them (JSON text); anything unreadable reads as none. */
export function sheetCountsOf(value: string | null): { count: number; label: string }[] {
  if (!value) return [];
  try {
    const list = JSON.parse(value) as unknown;
    if (!Array.isArray(list)) return [];
    return list.flatMap((c: { count?: unknown; label?: unknown }) =>
      typeof c?.count === "number" && typeof c.label === "string" ? [{ count: c.count, label: c.label }] : [],
    );
  } catch {
    return [];
  }
}

/** Counts per availability, most circulating first, without the zeros. */
function countsOf(songs: { availability: Availability | null }[]): TrackerCounts {
  const n = new Map<TrackerAvailability, number>();
  for (const s of songs) {
    const key: TrackerAvailability = s.availability ?? "unknown";
    n.set(key, (n.get(key) ?? 0) + 1);
  }
  return TRACKER_AVAILABILITY_ORDER.flatMap((availability) => {
    const count = n.get(availability) ?? 0;
    return count > 0 ? [{ availability, count }] : [];
  });
}

/** The tracker service type. */
export type TrackerExport = ReturnType<typeof createTrackerExport>;

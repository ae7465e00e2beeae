import { sql } from "kysely";
import type { Database } from "../../db/database.js";
import { type CreditsJson, songCreditsSql } from "../../db/song-credits.js";

/** A song's credited artists as the credits subquery gives them, on either dialect. */
export function creditsOf(value: CreditsJson): { id: string; name: string }[] {
  if (!value) return [];
  return typeof value === "string" ? (JSON.parse(value) as { id: string; name: string }[]) : value;
}

/**
 * SQL of the sitemaps and page heads (issue 28, "Findable"). The sitemaps walk songs and artists in blocks of the
 * primary key (keyset: `id >= start`, then `id > last`), a short indexed read each; who is listed is decided by
 * the service with the rule of visibility.ts, as the open data export does (open-data.repo.ts says why the status
 * is not in the query).
 */
export function createSeoRepo(database: Database) {
  const { db } = database;
  const credits = songCreditsSql(database.dialect);

  /** The public songs credited to an artist (the artist page's tracks: verified and not hidden). */
  const publicSongsOf = (artistId: string) =>
    db
      .selectFrom("song")
      .innerJoin("song_artist", "song_artist.song_id", "song.id")
      .where("song_artist.artist_id", "=", artistId)
      .where("song.status", "=", "verified")
      .where("song.is_hidden", "=", false);

  /** What a page head shows of a song (the columns of its structured data), with its credits. */
  const songColumns = [
    "song.id",
    "song.title",
    "song.status",
    "song.is_hidden",
    "song.genre",
    "song.release_date",
    "song.era",
    "song.leak_date",
    "song.file_date",
    "song.track_length",
    "song.duration_sec",
    "song.audio_key",
    "song.producers",
    "song.features",
    "song.aliases",
    "song.updated_at",
  ] as const;

  return {
    /** How many songs there are (public or not): the sitemap's song files are blocks of this many ids. */
    async songCount(): Promise<number> {
      const row = await db
        .selectFrom("song")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** How many artists there are (with public songs or not). */
    async artistCount(): Promise<number> {
      const row = await db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("is_artist", "=", true)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The id of the song at `offset` in id order (where a sitemap file's block starts); undefined past the end. */
    async songIdAt(offset: number): Promise<string | undefined> {
      const row = await db.selectFrom("song").select("id").orderBy("id").limit(1).offset(offset).executeTakeFirst();
      return row?.id;
    },

    /** The id of the artist at `offset` in id order; undefined past the end. */
    async artistIdAt(offset: number): Promise<string | undefined> {
      const row = await db
        .selectFrom("user")
        .select("id")
        .where("is_artist", "=", true)
        .orderBy("id")
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row?.id;
    },

    /** Up to `limit` songs from `from` (inclusive) or after `after`, in id order, whatever their status. */
    songsFrom(position: { from: string } | { after: string }, limit: number) {
      return db
        .selectFrom("song")
        .select(["id", "status", "is_hidden", "updated_at"])
        .where("id", "from" in position ? ">=" : ">", "from" in position ? position.from : position.after)
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    /**
     * Up to `limit` artists from `from` (inclusive) or after `after`, in id order, each with the last change of
     * its public songs (null: it has none).
     */
    artistsFrom(position: { from: string } | { after: string }, limit: number) {
      return db
        .selectFrom("user")
        .select((eb) => [
          "user.id",
          "user.updated_at",
          eb
            .selectFrom("song")
            .innerJoin("song_artist", "song_artist.song_id", "song.id")
            .select((s) => s.fn.max("song.updated_at").as("m"))
            .whereRef("song_artist.artist_id", "=", "user.id")
            .where("song.status", "=", "verified")
            .where("song.is_hidden", "=", false)
            .as("songs_updated_at"),
        ])
        .where("user.is_artist", "=", true)
        .where("user.id", "from" in position ? ">=" : ">", "from" in position ? position.from : position.after)
        .orderBy("user.id")
        .limit(limit)
        .execute();
    },

    /** A song as its page head shows it, whatever its status (the caller applies visibility.ts). */
    song(id: string) {
      return db
        .selectFrom("song")
        .select([...songColumns, credits.as("credits")])
        .where("song.id", "=", id)
        .executeTakeFirst();
    },

    /** An artist (a user with an artist page) as its page head shows it. */
    artist(id: string) {
      return db
        .selectFrom("user")
        .select(["id", "username", "bio", "image", "instagram", "twitter", "website"])
        .where("id", "=", id)
        .where("is_artist", "=", true)
        .executeTakeFirst();
    },

    /** How many public songs an artist has, and in how many eras. */
    async artistCounts(artistId: string): Promise<{ songs: number; eras: number }> {
      const row = await publicSongsOf(artistId)
        .select((eb) => [
          eb.fn.countAll<number | string>().as("songs"),
          eb.fn.count<number | string>("song.era").distinct().as("eras"),
        ])
        .executeTakeFirstOrThrow();
      return { songs: Number(row.songs), eras: Number(row.eras) };
    },

    /** The artist's newest public songs (by when they came to the site), at most `limit`. */
    newestSongsOf(artistId: string, limit: number) {
      return publicSongsOf(artistId)
        .select([...songColumns, credits.as("credits")])
        .orderBy("song.created_at", "desc")
        .orderBy("song.id", "desc")
        .limit(limit)
        .execute();
    },

    /** The names of the eras the artist's public songs are in, as the songs spell them. */
    async eraNamesOf(artistId: string): Promise<string[]> {
      const rows = await publicSongsOf(artistId)
        .select("song.era")
        .distinct()
        .where("song.era", "is not", null)
        .execute();
      return rows.map((r) => r.era).filter((e): e is string => e !== null);
    },

    /** The artist's public songs of one era (as spelt), in the tracker's order (leak date, then title). */
    eraSongsOf(artistId: string, era: string, limit: number) {
      return (
        publicSongsOf(artistId)
          .select([...songColumns, credits.as("credits")])
          .where("song.era", "=", era)
          // Songs without a leak date last on both dialects (SQLite sorts nulls first, PostgreSQL last).
          .orderBy(sql`coalesce(song.leak_date, '9999-12-31')`)
          .orderBy("song.title")
          .orderBy("song.id")
          .limit(limit)
          .execute()
      );
    },

    /** How many public songs of the artist are in one era. */
    async eraSongCount(artistId: string, era: string): Promise<number> {
      const row = await publicSongsOf(artistId)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("song.era", "=", era)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** What the artist's page says of an era (issue 27), by its name key. */
    era(artistId: string, nameKey: string) {
      return db
        .selectFrom("era")
        .select(["name", "description", "cover_url", "starts_on", "ends_on"])
        .where("artist_id", "=", artistId)
        .where("name_key", "=", nameKey)
        .executeTakeFirst();
    },
  };
}

/** The SEO repo type. */
export type SeoRepo = ReturnType<typeof createSeoRepo>;

/** A song row as a page head reads it. */
export type SeoSongRow = NonNullable<Awaited<ReturnType<SeoRepo["song"]>>>;

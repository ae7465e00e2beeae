import { type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from "kysely";
import { compiledOnce } from "../../db/compiled-once.js";
import type { Database } from "../../db/database.js";
import type { DB, SongTable } from "../../db/schema.js";
import { newestAfter } from "../../lib/cursor.js";
import { newId } from "../../lib/ids.js";
import { nameKey } from "../../lib/text.js";
import { nowIso } from "../../lib/time.js";

/** A song row as read from either dialect. */
export type SongRow = Selectable<SongTable>;

/** Home feed filters (spec §2 Home, DESIGN §5 release filters). */
export type FeedFilters = {
  genre: string;
  release: "all" | "all_unreleased" | "dated" | "undated" | "released";
  next7: boolean;
  /** Leak details (issue 16); "all" or absent for any. */
  availability?: string;
  quality?: string;
};

/** Keyset position in the newest feed. */
export type NewestCursor = { createdAt: string; id: string };

type Db = Kysely<DB>;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 864e5).toISOString().slice(0, 10);

/** The filters as a WHERE expression on `song`. */
function filterExpr(eb: ExpressionBuilder<DB, "song">, f: FeedFilters): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb("song.status", "=", "verified"), eb("song.is_hidden", "=", false)];
  if (f.genre !== "All") parts.push(eb("song.genre", "=", f.genre));
  const t = today();
  if (f.release === "all_unreleased")
    parts.push(eb.or([eb("song.release_date", "is", null), eb("song.release_date", ">=", t)]));
  if (f.release === "dated") parts.push(eb("song.release_date", "is not", null));
  if (f.release === "undated") parts.push(eb("song.release_date", "is", null));
  if (f.release === "released") parts.push(eb("song.release_date", "<", t));
  if (f.availability && f.availability !== "all") parts.push(eb("song.availability", "=", f.availability));
  if (f.quality && f.quality !== "all") parts.push(eb("song.quality", "=", f.quality));
  if (f.next7) parts.push(eb.and([eb("song.release_date", ">=", t), eb("song.release_date", "<=", inDays(7))]));
  return eb.and(parts);
}

/** Names a song card shows, read with the row: credited artists in order, submitter and last editor. */
export type SongCredits = {
  /** JSON text on SQLite, parsed JSON on PostgreSQL. */
  credits: string | { id: string; name: string }[] | null;
  submitter_name: string | null;
  editor_name: string | null;
};

/** A song row with its credits. */
export type SongCardRow = SongRow & SongCredits;

/** SQL for songs, their artists, favourites and history. */
export function createSongsRepo(database: Database) {
  const { db, dialect } = database;
  const artistsJson =
    dialect === "postgres"
      ? "coalesce(json_agg(json_build_object('id', a.id, 'name', a.username)), '[]'::json)"
      : "json_group_array(json_object('id', a.id, 'name', a.username))";
  // Correlated subqueries on primary keys: a page of cards is one query instead of one per kind of name.
  const credits = [
    sql<
      SongCredits["credits"]
    >`(select ${sql.raw(artistsJson)} from (select u.id, u.username from song_artist sa join "user" u on u.id = sa.artist_id where sa.song_id = song.id order by sa.position) a)`.as(
      "credits",
    ),
    sql<string | null>`(select u.username from "user" u where u.id = song.submitted_by)`.as("submitter_name"),
    sql<string | null>`(select u.username from "user" u where u.id = song.last_edited_by)`.as("editor_name"),
  ];
  const findCard = compiledOnce(db, (db, id: string) =>
    db.selectFrom("song").selectAll("song").select(credits).where("song.id", "=", id),
  );
  const flags = compiledOnce(db, (db, id: string) =>
    db.selectFrom("song").select(["id", "is_hidden", "status", "submitted_by"]).where("id", "=", id),
  );
  /** Recount a song's week counter from its rows of the last 7 days, for the songs that may have changed. */
  async function recountWeek(source: "favorite" | "song_play", counter: "week_likes" | "week_plays") {
    const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
    const since = new Date(Date.now() - 8 * 864e5).toISOString();
    const [recent, shown] = await Promise.all([
      db.selectFrom(source).select("song_id").distinct().where("created_at", ">=", since).execute(),
      db.selectFrom("song").select("id").where(counter, ">", 0).execute(),
    ]);
    const ids = [...new Set([...recent.map((r) => r.song_id), ...shown.map((r) => r.id)])];
    const count = sql<number>`(select count(*) from ${sql.table(source)} r where r.song_id = song.id and r.created_at >= ${weekAgo})`;
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable("song")
        .set(counter === "week_likes" ? { week_likes: count } : { week_plays: count })
        .where("id", "in", ids.slice(i, i + 500))
        .execute();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return ids.length;
  }

  return {
    /** A song with its credits, for its page. */
    async findCard(id: string): Promise<SongCardRow | undefined> {
      return (await findCard(id))[0];
    },

    findById(id: string, trx: Db = db): Promise<SongRow | undefined> {
      return trx.selectFrom("song").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** The song row, held until the transaction ends (PostgreSQL row lock; SQLite's IMMEDIATE already serialises). */
    lockRow(trx: Db, id: string): Promise<SongRow | undefined> {
      let q = trx.selectFrom("song").selectAll().where("id", "=", id);
      if (dialect === "postgres") q = q.forUpdate();
      return q.executeTakeFirst();
    },

    /** What permission checks need of a song. */
    async flags(id: string) {
      return (await flags(id))[0];
    },

    findByIds(ids: string[]): Promise<SongRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom("song").selectAll().where("id", "in", ids).execute();
    },

    /** Newest verified songs, keyset-paginated on (created_at, id) from song_status_created_idx. */
    newest(f: FeedFilters, cursor: NewestCursor | undefined, limit: number): Promise<SongCardRow[]> {
      const query = db
        .selectFrom("song")
        .selectAll("song")
        .select(credits)
        .where((eb) => filterExpr(eb, f));
      return newestAfter(query, "song.created_at", "song.id", cursor).limit(limit).execute();
    },

    /**
     * Most liked this week (song.week_likes, from song_trending_idx), then earliest release (spec §9). Equal week
     * likes are told apart by this week's plays first (decision 027): plays never outrank a like.
     */
    async trending(f: FeedFilters, offset: number, limit: number): Promise<SongCardRow[]> {
      // Rank first, then read the page's cards: credits are looked up for the page only.
      const ranked = await db
        .selectFrom("song")
        .select("song.id")
        .where((eb) => filterExpr(eb, f))
        .where("song.week_likes", ">", 0)
        .orderBy("song.week_likes", "desc")
        .orderBy("song.week_plays", "desc")
        .orderBy(sql`song.release_date is null`)
        .orderBy("song.release_date", "asc")
        .orderBy("song.id")
        .offset(offset)
        .limit(limit)
        .execute();
      return this.findCards(ranked.map((r) => r.id));
    },

    /**
     * Take likes that have aged out of the week off song.week_likes (and repair any drift): recounts the
     * songs that have likes since a day before the week began (so also those whose likes just aged out) or
     * still show some. In chunks, yielding between them, so a large site's refresh never holds the event
     * loop (or the SQLite connection) for long. Idempotent; every instance may run it.
     */
    refreshWeekLikes(): Promise<number> {
      return recountWeek("favorite", "week_likes");
    },

    /** The same for plays (song.week_plays from song_play rows; decision 027). */
    refreshWeekPlays(): Promise<number> {
      return recountWeek("song_play", "week_plays");
    },

    /** Songs with their credits, in the order of `ids`. */
    async findCards(ids: string[]): Promise<SongCardRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("song").selectAll("song").select(credits).where("song.id", "in", ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)).filter((r): r is SongCardRow => r !== undefined);
    },

    /** A user's favourites, newest first, keyset on (favorite.created_at, song_id); pending songs never show. */
    favoritesOf(userId: string, cursor: NewestCursor | undefined, limit: number) {
      const query = db
        .selectFrom("favorite")
        .innerJoin("song", "song.id", "favorite.song_id")
        .selectAll("song")
        .select(credits)
        .select("favorite.created_at as favorited_at")
        .where("favorite.user_id", "=", userId)
        .where("song.status", "=", "verified")
        .where("song.is_hidden", "=", false);
      return newestAfter(query, "favorite.created_at", "song.id", cursor).limit(limit).execute();
    },

    /**
     * What song cards show about versions: how many public (verified, not hidden) songs are versions of each of
     * `ids`, and the titles of the visible songs among `parentIds` (the songs some of them are versions of).
     */
    async versionFacts(ids: string[], parentIds: string[]) {
      const [counts, parents] = await Promise.all([
        ids.length === 0
          ? Promise.resolve([])
          : // Visibility is checked here, not in SQL: given status and is_hidden, SQLite's planner walked the
            // status index over the whole catalogue (25 ms a search page at 100,000 songs) instead of the
            // version_of index; versions are few, so they are counted as read.
            db
              .selectFrom("song")
              .select(["version_of", "status", "is_hidden"])
              .where("version_of", "in", ids)
              .execute()
              .then((rows) => {
                const n = new Map<string, number>();
                for (const r of rows)
                  if (r.status === "verified" && !r.is_hidden && r.version_of)
                    n.set(r.version_of, (n.get(r.version_of) ?? 0) + 1);
                return [...n].map(([version_of, count]) => ({ version_of, n: count }));
              }),
        parentIds.length === 0
          ? Promise.resolve([])
          : db.selectFrom("song").select(["id", "title", "is_hidden"]).where("id", "in", parentIds).execute(),
      ]);
      return {
        counts: new Map(counts.map((r) => [String(r.version_of), Number(r.n)])),
        parents: new Map(parents.filter((r) => !r.is_hidden).map((r) => [r.id, r.title])),
      };
    },

    /**
     * The versions of a song with their credits, oldest first: verified ones, and hidden ones, every pending one,
     * or the pending ones `ownerId` uploaded, when asked.
     */
    versionsOf(id: string, shown: { hidden: boolean; pending: boolean; ownerId?: string }): Promise<SongCardRow[]> {
      let q = db.selectFrom("song").selectAll("song").select(credits).where("song.version_of", "=", id);
      if (!shown.hidden) q = q.where("song.is_hidden", "=", false);
      const { ownerId } = shown;
      if (!shown.pending)
        q = q.where((eb) =>
          eb.or([eb("song.status", "=", "verified"), ...(ownerId ? [eb("song.submitted_by", "=", ownerId)] : [])]),
        );
      return q.orderBy("song.created_at").orderBy("song.id").limit(200).execute();
    },

    /** How many pending, visible songs are versions of each of `ids` (shown to admins and the songs' owners). */
    async pendingVersionCounts(ids: string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("song")
        .select(["version_of", sql<number>`count(*)`.as("n")])
        .where("version_of", "in", ids)
        .where("is_hidden", "=", false)
        .where("status", "<>", "verified")
        .groupBy("version_of")
        .execute();
      return new Map(rows.map((r) => [String(r.version_of), Number(r.n)]));
    },

    /** Whether any song is a version of `id`. */
    async hasVersions(id: string, trx: Db = db): Promise<boolean> {
      const row = await trx.selectFrom("song").select("id").where("version_of", "=", id).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /** Duplicate-audio matches recorded on upload of some songs: song id to the song its audio matched. */
    async audioMatches(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("song")
        .select(["id", "audio_match_song_id"])
        .where("id", "in", ids)
        .where("audio_match_song_id", "is not", null)
        .execute();
      return new Map(rows.map((r) => [r.id, String(r.audio_match_song_id)]));
    },

    /** Spec §9 recommendation sources. */
    async recommendationSources(userId: string | undefined) {
      const visible = (eb: ExpressionBuilder<DB, "song">) =>
        eb.and([eb("song.status", "=", "verified"), eb("song.is_hidden", "=", false)]);
      const followed = userId
        ? await db
            .selectFrom("follow")
            .innerJoin("song_artist", "song_artist.artist_id", "follow.artist_id")
            .innerJoin("song", "song.id", "song_artist.song_id")
            .selectAll("song")
            .where("follow.follower_id", "=", userId)
            .where(visible)
            .orderBy("song.created_at", "desc")
            .limit(10)
            .execute()
        : [];
      const electronic = await db
        .selectFrom("song")
        .selectAll()
        .where(visible)
        .where("genre", "=", "Electronic")
        .orderBy("favorite_count", "desc")
        .orderBy("id")
        .limit(5)
        .execute();
      const latest = await db
        .selectFrom("song")
        .selectAll()
        .where(visible)
        .orderBy("created_at", "desc")
        .limit(5)
        .execute();
      const favorites = userId
        ? new Set(
            (await db.selectFrom("favorite").select("song_id").where("user_id", "=", userId).execute()).map(
              (r) => r.song_id,
            ),
          )
        : new Set<string>();
      return { followed, electronic, latest, favorites };
    },

    /** The landing page's demo player: the most liked verified songs that have audio. */
    landingTracks(limit: number): Promise<SongCardRow[]> {
      return db
        .selectFrom("song")
        .selectAll("song")
        .select(credits)
        .where("status", "=", "verified")
        .where("is_hidden", "=", false)
        .where("audio_key", "is not", null)
        .orderBy("favorite_count", "desc")
        .orderBy("created_at", "desc")
        .limit(limit)
        .execute();
    },

    /** Artists of songs, in credit order. */

    artistsOf(songIds: string[], trx: Db = db) {
      if (songIds.length === 0) return Promise.resolve([]);
      return trx
        .selectFrom("song_artist")
        .innerJoin("user", "user.id", "song_artist.artist_id")
        .select(["song_artist.song_id", "song_artist.position", "user.id", "user.username"])
        .where("song_artist.song_id", "in", songIds)
        .orderBy("song_artist.song_id")
        .orderBy("song_artist.position")
        .execute();
    },

    titles(ids: string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom("song").select(["id", "title"]).where("id", "in", ids).execute();
    },

    usernames(ids: string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom("user").select(["id", "username"]).where("id", "in", ids).execute();
    },

    /** The viewer's favourites and votes among some songs, in one query. */
    async viewerState(userId: string, songIds: string[]) {
      const favorites = new Set<string>();
      const votes = new Map<string, { value: number; counted: boolean }>();
      if (songIds.length === 0) return { favorites, votes };
      const rows = await db
        .selectFrom("favorite")
        .select(["song_id", sql<number | null>`null`.as("value"), sql<number | boolean | null>`null`.as("counted")])
        .where("user_id", "=", userId)
        .where("song_id", "in", songIds)
        .unionAll(
          db
            .selectFrom("vote")
            .select(["song_id", "value", sql<number | boolean>`counted`.as("counted")])
            .where("user_id", "=", userId)
            .where("song_id", "in", songIds),
        )
        .execute();
      for (const r of rows) {
        if (r.value === null) favorites.add(r.song_id);
        else votes.set(r.song_id, { value: Number(r.value), counted: Boolean(r.counted) });
      }
      return { favorites, votes };
    },

    /** PostgreSQL: serialise uploads/edits of one title so the duplicate check and insert cannot interleave. */
    async lockTitle(trx: Db, titleKey: string): Promise<void> {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${`song:${titleKey}`}))`.execute(trx);
    },

    /** PostgreSQL: serialise version links, so the one-level rule holds under concurrent links. */
    async lockVersions(trx: Db): Promise<void> {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext('song-versions'))`.execute(trx);
    },

    /** Another song with this title and any of these artists (case-insensitive). */
    async findDuplicate(trx: Db, titleKey: string, artistKeys: string[], exceptId?: string) {
      let q = trx
        .selectFrom("song")
        .innerJoin("song_artist", "song_artist.song_id", "song.id")
        .innerJoin("user", "user.id", "song_artist.artist_id")
        .select("song.id")
        .where("song.title_key", "=", titleKey)
        .where("user.username_key", "in", artistKeys);
      if (exceptId) q = q.where("song.id", "!=", exceptId);
      return q.executeTakeFirst();
    },

    /**
     * The artist profile for a name, creating a placeholder (spec §3) when there is none. Only artist profiles
     * match: a member account becomes an artist only when an admin links it (decision 022). A member whose
     * username is the name keeps it, but yields the name's key to the artist: theirs moves to `<key>#<id>`.
     */
    async ensureArtist(trx: Db, name: string): Promise<string> {
      const key = nameKey(name);
      const existing = await trx
        .selectFrom("user")
        .select(["id", "is_artist"])
        .where("username_key", "=", key)
        .executeTakeFirst();
      if (existing?.is_artist) return existing.id;
      if (existing)
        await trx
          .updateTable("user")
          .set({ username_key: `${key}#${existing.id}` })
          .where("id", "=", existing.id)
          .execute();
      const id = newId();
      const now = nowIso();
      await trx
        .insertInto("user")
        .values({
          id,
          name,
          email: `artist-${id}@placeholder.unheard.invalid`,
          email_verified: false,
          image: null,
          created_at: now,
          updated_at: now,
          username: name,
          username_key: key,
          bio: `Music by ${name}`,
          is_artist: true,
          is_placeholder: true,
          instagram: null,
          twitter: null,
          website: null,
        })
        .execute();
      return id;
    },

    /** Credit artists on a song; each artist's credit_count moves with the credit. */
    async setArtists(trx: Db, songId: string, artistIds: string[]): Promise<void> {
      const old = await trx.selectFrom("song_artist").select("artist_id").where("song_id", "=", songId).execute();
      const oldIds = new Set(old.map((r) => r.artist_id));
      const newIds = new Set(artistIds);
      await trx.deleteFrom("song_artist").where("song_id", "=", songId).execute();
      for (const [position, artistId] of artistIds.entries()) {
        await trx.insertInto("song_artist").values({ song_id: songId, artist_id: artistId, position }).execute();
      }
      const added = artistIds.filter((id) => !oldIds.has(id));
      const removed = [...oldIds].filter((id) => !newIds.has(id));
      if (added.length)
        await trx.updateTable("user").set({ credit_count: sql`credit_count + 1` }).where("id", "in", added).execute();
      if (removed.length)
        await trx.updateTable("user").set({ credit_count: sql`credit_count - 1` }).where("id", "in", removed).execute();
    },

    history(songId: string) {
      return db
        .selectFrom("song_history")
        .leftJoin("user", "user.id", "song_history.edited_by")
        .select([
          "song_history.version",
          "song_history.previous",
          "song_history.comment",
          "song_history.edited_at",
          "user.id as editor_id",
          "user.username as editor_name",
        ])
        .where("song_history.song_id", "=", songId)
        .orderBy("song_history.version", "desc")
        .execute();
    },
  };
}

/** The songs repo type. */
export type SongsRepo = ReturnType<typeof createSongsRepo>;

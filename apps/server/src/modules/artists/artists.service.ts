import { type Artist, type ArtistHit, type FollowState, MESSAGES, type SongPage } from "@unheard/shared";
import { type Kysely, type SqlBool, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { decodeKeyset, keysetPage, newestAfter } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { nameKey } from "../../lib/text.js";
import { nowIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { SongsService } from "../songs/songs.service.js";

type Db = Kysely<DB>;

/** How many artists the merge dialog's search offers. */
const ADMIN_ARTIST_MATCHES = 10;

/** Songs credited to an artist that a viewer may see: verified ones, and pending ones for the artist and admins. */
function creditedSongs(db: Db, artistId: string, includePending: boolean) {
  let q = db
    .selectFrom("song_artist")
    .innerJoin("song", "song.id", "song_artist.song_id")
    .where("song_artist.artist_id", "=", artistId)
    .where("song.is_hidden", "=", false);
  if (!includePending) q = q.where("song.status", "=", "verified");
  return q;
}

/** Recount what the artist row counts, from the rows themselves. */
async function recount(trx: Db, artistId: string): Promise<void> {
  await trx
    .updateTable("user")
    .set({
      credit_count: sql`(select count(*) from song_artist where song_artist.artist_id = ${artistId})`,
      follower_count: sql`(select count(*) from follow where follow.artist_id = ${artistId})`,
    })
    .where("id", "=", artistId)
    .execute();
}

/** Artist pages, following, profile editing, merge/claim/verify (issue 7). */
export function createArtistsService(deps: { database: Database; songs: SongsService; bus: EventBus }) {
  const { database, songs } = deps;
  const { db } = database;

  async function load(id: string) {
    const row = await db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", id)
      .where("is_artist", "=", true)
      .executeTakeFirst();
    if (!row) throw new AppError("not_found", MESSAGES.artistNotFound);
    return row;
  }

  return {
    /**
     * Artists whose name holds `q`, for the super admin's merge dialog: placeholders known only from pending or
     * hidden uploads included (public search names none of them; issue 38), closest names first.
     */
    async findForAdmin(q: string): Promise<ArtistHit[]> {
      const key = nameKey(q);
      if (!key) return [];
      // Literal substring match: LIKE's wildcards in the term are escaped.
      const pattern = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .selectFrom("user")
        .select((eb) => [
          "id",
          "username",
          "is_verified",
          eb
            .selectFrom("song_artist")
            .innerJoin("song", "song.id", "song_artist.song_id")
            .whereRef("song_artist.artist_id", "=", "user.id")
            .where("song.status", "=", "verified")
            .where("song.is_hidden", "=", false)
            .select(sql<number>`count(*)`.as("n"))
            .as("tracks"),
        ])
        .where("is_artist", "=", true)
        .where(sql<SqlBool>`username_key like ${pattern} escape '\\'`)
        // The name itself, then names starting with it, then the rest; shorter names first within each.
        .orderBy(
          sql`case when username_key = ${key} then 0 when username_key like ${`${pattern.slice(1)}`} escape '\\' then 1 else 2 end`,
        )
        .orderBy(sql`length(username_key)`)
        .orderBy("username")
        .limit(ADMIN_ARTIST_MATCHES)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.username,
        initial: (r.username.trim()[0] ?? "?").toUpperCase(),
        trackCount: Number(r.tracks ?? 0),
        isVerified: Boolean(r.is_verified),
      }));
    },

    /** Whether an artist page exists at this id (the page's HTML answers 404 otherwise; issue 25). */
    async exists(id: string): Promise<boolean> {
      const row = await db
        .selectFrom("user")
        .select("id")
        .where("id", "=", id)
        .where("is_artist", "=", true)
        .executeTakeFirst();
      return row !== undefined;
    },

    async get(id: string, viewer: Viewer | undefined): Promise<Artist> {
      const row = await load(id);
      const isSelf = viewer?.id === id;
      const [tracks, follow] = await Promise.all([
        creditedSongs(db, id, false).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
        viewer
          ? db
              .selectFrom("follow")
              .select("artist_id")
              .where("follower_id", "=", viewer.id)
              .where("artist_id", "=", id)
              .executeTakeFirst()
          : undefined,
      ]);
      return {
        id: row.id,
        name: row.username,
        bio: row.bio,
        isVerified: Boolean(row.is_verified),
        isPlaceholder: Boolean(row.is_placeholder),
        trackCount: Number(tracks.n),
        followerCount: Number(row.follower_count),
        socialLinks: { instagram: row.instagram, twitter: row.twitter, website: row.website },
        isFollowing: Boolean(follow),
        isSelf,
        canEdit: Boolean(viewer && (isSelf || viewer.isAdmin)),
      };
    },

    async songs(id: string, viewer: Viewer | undefined, cursor: string | undefined, limit: number): Promise<SongPage> {
      await load(id);
      const includePending = Boolean(viewer && (viewer.id === id || viewer.isAdmin));
      const pos = decodeKeyset(cursor);
      const query = creditedSongs(db, id, includePending).selectAll("song");
      const rows = await newestAfter(query, "song.created_at", "song.id", pos)
        .limit(limit + 1)
        .execute();
      const { page, nextCursor } = keysetPage(rows, limit, (r) => r.created_at);
      return { items: await songs.hydrate(page, viewer), nextCursor };
    },

    /** Set the wanted follow state; idempotent; the count moves with the row. */
    async setFollow(viewer: Viewer, artistId: string, want: boolean): Promise<FollowState> {
      if (viewer.id === artistId) throw new AppError("bad_request", MESSAGES.followSelf);
      await load(artistId);
      return database.tx(async (trx) => {
        let changed: boolean;
        if (want) {
          const res = await trx
            .insertInto("follow")
            .values({ follower_id: viewer.id, artist_id: artistId, created_at: nowIso() })
            .onConflict((oc) => oc.columns(["follower_id", "artist_id"]).doNothing())
            .executeTakeFirst();
          changed = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
        } else {
          const res = await trx
            .deleteFrom("follow")
            .where("follower_id", "=", viewer.id)
            .where("artist_id", "=", artistId)
            .executeTakeFirst();
          changed = Number(res.numDeletedRows) > 0;
        }
        if (changed) {
          await trx
            .updateTable("user")
            .set((eb) => ({ follower_count: eb("follower_count", "+", want ? 1 : -1) }))
            .where("id", "=", artistId)
            .execute();
        }
        const row = await trx
          .selectFrom("user")
          .select("follower_count")
          .where("id", "=", artistId)
          .executeTakeFirstOrThrow();
        return { following: want, followerCount: Number(row.follower_count) };
      });
    },

    async update(
      viewer: Viewer,
      id: string,
      input: { bio: string; instagram: string | null; twitter: string | null; website: string | null },
    ): Promise<Artist> {
      await load(id);
      if (viewer.id !== id && !viewer.isAdmin) throw new AppError("forbidden", MESSAGES.artistNoPermission);
      await db
        .updateTable("user")
        .set({
          bio: input.bio,
          instagram: input.instagram,
          twitter: input.twitter,
          website: input.website,
          updated_at: nowIso(),
        })
        .where("id", "=", id)
        .execute();
      return this.get(id, viewer);
    },

    /**
     * Fold `mergeId` (a placeholder) into `keepId`: credits and followers move, counts are recounted from the rows,
     * the placeholder is removed. Used for merging duplicates and for claiming a placeholder for a real account.
     */
    async merge(viewer: Viewer, keepId: string, mergeId: string, action: "merge" | "claim"): Promise<void> {
      if (keepId === mergeId) throw new AppError("bad_request", MESSAGES.artistMergeInvalid);
      await database.tx(async (trx) => {
        const [keep, gone] = await Promise.all([
          trx
            .selectFrom("user")
            .select(["id", "is_placeholder", "is_artist"])
            .where("id", "=", keepId)
            .executeTakeFirst(),
          trx
            .selectFrom("user")
            .select(["id", "is_placeholder", "is_artist", "username"])
            .where("id", "=", mergeId)
            .executeTakeFirst(),
        ]);
        if (!keep || !gone?.is_artist) throw new AppError("not_found", MESSAGES.artistNotFound);
        if (!gone.is_placeholder) throw new AppError("bad_request", MESSAGES.artistMergeInvalid);
        if (action === "merge" && !keep.is_artist) throw new AppError("not_found", MESSAGES.artistNotFound);
        // Songs credited to both keep one credit.
        await sql`delete from song_artist where artist_id = ${mergeId}
          and song_id in (select song_id from song_artist where artist_id = ${keepId})`.execute(trx);
        await trx.updateTable("song_artist").set({ artist_id: keepId }).where("artist_id", "=", mergeId).execute();
        await sql`delete from follow where artist_id = ${mergeId}
          and (follower_id = ${keepId} or follower_id in (select follower_id from follow where artist_id = ${keepId}))`.execute(
          trx,
        );
        await trx.updateTable("follow").set({ artist_id: keepId }).where("artist_id", "=", mergeId).execute();
        await trx.updateTable("user").set({ is_artist: true, updated_at: nowIso() }).where("id", "=", keepId).execute();
        await recount(trx, keepId);
        await audit(trx, viewer.id, action === "merge" ? "artist.merged" : "artist.claimed", keepId, {
          mergedId: mergeId,
          mergedName: gone.username,
        });
        await trx.deleteFrom("user").where("id", "=", mergeId).execute();
        // A member whose name an artist took had their key moved aside (ensureArtist); linked to that artist,
        // the account is the artist now and takes its name's key back when no one else holds it.
        const kept = await trx
          .selectFrom("user")
          .select(["username", "username_key"])
          .where("id", "=", keepId)
          .executeTakeFirstOrThrow();
        const key = nameKey(kept.username);
        if (kept.username_key !== key) {
          const holder = await trx.selectFrom("user").select("id").where("username_key", "=", key).executeTakeFirst();
          if (!holder) await trx.updateTable("user").set({ username_key: key }).where("id", "=", keepId).execute();
        }
      });
      await deps.bus.publish({ type: "artist.changed", artistId: mergeId });
      await deps.bus.publish({ type: "artist.changed", artistId: keepId });
    },

    async setVerified(viewer: Viewer, id: string, verified: boolean): Promise<void> {
      await load(id);
      await database.tx(async (trx) => {
        await trx
          .updateTable("user")
          .set({ is_verified: verified, updated_at: nowIso() })
          .where("id", "=", id)
          .execute();
        await audit(trx, viewer.id, verified ? "artist.verified" : "artist.unverified", id);
      });
      await deps.bus.publish({ type: "artist.changed", artistId: id });
    },
  };
}

/** The artists service type. */
export type ArtistsService = ReturnType<typeof createArtistsService>;

import { CHANGE_SOURCE_LABELS, type ChangeEntry, type ChangePage, type ChangeSource, MESSAGES } from "@unheard/shared";
import { Feed } from "feed";
import type { Kysely } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { decodeKeyset, keysetPage } from "../../lib/cursor.js";
import { newId } from "../../lib/ids.js";
import { toIso } from "../../lib/time.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { Audience } from "../songs/visibility.js";
import { type ChangeLine, mattersToFollowers } from "./change-summary.js";
import type { ChangelogRepo } from "./changelog.repo.js";

/** A line to record: whose changelog, which song, what it says and where it came from. */
export type ChangeInput = { artistId: string; songId: string | null; line: ChangeLine };

/** Lines a feed holds. */
const FEED_ITEMS = 50;
/** Songs a follower's notification names; the rest are counted. */
const NOTIFIED_SONGS = 5;

/** Artists' changelogs (issue 37): the trackers' own "Updates" tab, on the artist page, as Atom, site-wide. */
export function createChangelogService(deps: {
  database: Database;
  repo: ChangelogRepo;
  notifier: Notifier;
  publicUrl: string;
}) {
  const { database, repo, notifier, publicUrl } = deps;

  const toEntry = (r: Awaited<ReturnType<ChangelogRepo["page"]>>[number]): ChangeEntry => ({
    id: r.id,
    kind: r.kind as ChangeEntry["kind"],
    summary: r.summary,
    source: r.source as ChangeSource,
    createdAt: String(toIso(r.created_at)),
    song: r.song_id && r.song_title !== null ? { id: r.song_id, title: r.song_title } : null,
    artist: { id: r.artist_id, name: r.artist_name },
  });

  async function artistName(artistId: string): Promise<string> {
    const artist = await database.db
      .selectFrom("user")
      .select("username")
      .where("id", "=", artistId)
      .where("is_artist", "=", true)
      .executeTakeFirst();
    if (!artist) throw new AppError("not_found", MESSAGES.artistNotFound);
    return artist.username;
  }

  return {
    /** Record lines inside the caller's transaction. */
    async record(
      trx: Kysely<DB>,
      lines: ChangeInput[],
      source: ChangeSource,
      at: string,
      batchId: string | null = null,
    ): Promise<void> {
      await repo.insert(
        trx,
        lines.map((l) => ({
          id: newId(),
          artist_id: l.artistId,
          song_id: l.songId,
          kind: l.line.kind,
          summary: l.line.summary,
          source,
          batch_id: batchId,
          created_at: at,
        })),
      );
    },

    /**
     * Tell each artist's followers once what matters in a batch's lines (new songs, upgrades): one notification per
     * sync or import, never one per row. Returns who was told (announce them after the commit).
     */
    async notifyFollowers(
      trx: Kysely<DB>,
      lines: ChangeInput[],
      source: ChangeSource,
      batchId: string | null,
    ): Promise<string[]> {
      const byArtist = new Map<string, ChangeInput[]>();
      for (const l of lines) {
        if (!mattersToFollowers(l.line)) continue;
        byArtist.set(l.artistId, [...(byArtist.get(l.artistId) ?? []), l]);
      }
      const told: string[] = [];
      for (const [artistId, mattering] of byArtist) {
        const artist = await trx.selectFrom("user").select("username").where("id", "=", artistId).executeTakeFirst();
        const followers = await trx
          .selectFrom("follow")
          .select("follower_id")
          .where("artist_id", "=", artistId)
          .execute();
        const news = mattering.filter((l) => l.line.kind === "new").length;
        const upgrades = mattering.length - news;
        const counted = [
          news > 0 ? `${news} new song${news === 1 ? "" : "s"}` : "",
          upgrades > 0 ? `${upgrades} upgrade${upgrades === 1 ? "" : "s"}` : "",
        ].filter(Boolean);
        told.push(
          ...(await notifier.add(
            trx,
            "tracker_update",
            followers.map((f) => f.follower_id),
            {
              artistId,
              artistName: artist?.username ?? "",
              batchId,
              source,
              summary: counted.join(", "),
              items: mattering.slice(0, NOTIFIED_SONGS).map((l) => ({ songId: l.songId, summary: l.line.summary })),
              more: Math.max(0, mattering.length - NOTIFIED_SONGS),
            },
          )),
        );
      }
      return told;
    },

    /** Lines of an undone batch go with it. */
    async forgetBatch(trx: Kysely<DB>, batchId: string): Promise<void> {
      await trx.deleteFrom("artist_change").where("batch_id", "=", batchId).execute();
    },

    /** A page of one artist's changelog, or of everyone's ("Recent changes"), newest first. */
    async page(
      filter: { artistId?: string },
      audience: Audience,
      cursor: string | undefined,
      limit: number,
    ): Promise<ChangePage> {
      if (filter.artistId) await artistName(filter.artistId);
      const rows = await repo.page(filter, audience, decodeKeyset(cursor), limit);
      const { page, nextCursor } = keysetPage(rows, limit, (r) => r.created_at);
      return { items: page.map(toEntry), nextCursor };
    },

    /** An Atom feed of public changes: one artist's, or everyone's. */
    async atom(filter: { artistId?: string }): Promise<string> {
      const name = filter.artistId ? await artistName(filter.artistId) : null;
      const rows = await repo.page(filter, undefined, undefined, FEED_ITEMS);
      const page = filter.artistId
        ? `${publicUrl}/artists/${encodeURIComponent(filter.artistId)}`
        : `${publicUrl}/changes`;
      const self = filter.artistId
        ? `${publicUrl}/api/artists/${encodeURIComponent(filter.artistId)}/changes.atom`
        : `${publicUrl}/api/changes.atom`;
      const entries = rows.slice(0, FEED_ITEMS).map(toEntry);
      const feed = new Feed({
        id: self,
        title: name ? `${name}: tracker updates on Unheard` : "Recent changes on Unheard",
        description: name
          ? `New songs, upgrades and removals in ${name}'s tracker.`
          : "New songs, upgrades and removals in every artist's tracker.",
        link: page,
        updated: entries[0] ? new Date(entries[0].createdAt) : new Date(0),
        generator: "Unheard",
        feedLinks: { atom: self },
        copyright: "",
      });
      for (const e of entries) {
        const link = e.song ? `${publicUrl}/song/${encodeURIComponent(e.song.id)}` : page;
        feed.addItem({
          id: `${publicUrl}/changes#${e.id}`,
          title: name ? e.summary : `${e.artist.name} · ${e.summary}`,
          link,
          date: new Date(e.createdAt),
          description: `${CHANGE_SOURCE_LABELS[e.source]}: ${e.summary}`,
          author: [{ name: e.artist.name, link: `${publicUrl}/artists/${encodeURIComponent(e.artist.id)}` }],
        });
      }
      return feed.atom1();
    },
  };
}

/** The changelog service type. */
export type ChangelogService = ReturnType<typeof createChangelogService>;

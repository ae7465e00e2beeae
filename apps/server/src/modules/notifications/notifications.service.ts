import {
  type AppNotification,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettings,
} from "@unheard/shared";
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { decodeKeyset, keysetPage, newestAfter } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import type { Mailer } from "../../lib/mail.js";
import { nowIso, toIso } from "../../lib/time.js";

type Db = Kysely<DB>;
const DAY_MS = 864e5;

/** In-app notifications (issue 7): who gets what, settings per kind, live unread counts, the daily digest. */
export function createNotifier(deps: {
  database: Database;
  bus: EventBus;
  mailer: Mailer;
  config: Config;
  log: FastifyBaseLogger;
}) {
  const { database, bus } = deps;
  const { db } = database;

  /** Drop recipients who turned this kind off. */
  async function withKindOn(trx: Db, userIds: string[], kind: NotificationKind): Promise<string[]> {
    if (userIds.length === 0) return [];
    const off = await trx
      .selectFrom("notification_setting")
      .select("user_id")
      .where("kind", "=", kind)
      .where("enabled", "=", false)
      .where("user_id", "in", userIds)
      .execute();
    const blocked = new Set(off.map((r) => r.user_id));
    return userIds.filter((id) => !blocked.has(id));
  }

  /** Store one notification per recipient inside `trx`; returns who got one (announce them after commit). */
  async function add(
    trx: Db,
    kind: NotificationKind,
    recipients: (string | null | undefined)[],
    payload: Record<string, unknown>,
    exceptId?: string,
  ): Promise<string[]> {
    const unique = [...new Set(recipients.filter((r): r is string => Boolean(r) && r !== exceptId))];
    const targets = await withKindOn(trx, unique, kind);
    const now = nowIso();
    const body = JSON.stringify(payload);
    for (let i = 0; i < targets.length; i += 200) {
      const chunk = targets.slice(i, i + 200);
      await trx
        .insertInto("notification")
        .values(
          chunk.map((userId) => ({
            id: newId(),
            user_id: userId,
            kind,
            payload: body,
            read_at: null,
            created_at: now,
          })),
        )
        .execute();
    }
    return targets;
  }

  /** Everyone with a stake in a song: its uploader, and whoever favourited or voted on it. */
  async function stakeholders(trx: Db, songId: string): Promise<string[]> {
    const rows = await sql<{ user_id: string | null }>`
      select submitted_by as user_id from song where id = ${songId}
      union select user_id from favorite where song_id = ${songId}
      union select user_id from vote where song_id = ${songId}`.execute(trx);
    return rows.rows.map((r) => r.user_id).filter((x): x is string => Boolean(x));
  }

  return {
    add,

    /** A song by followed artists: tell their followers. */
    async newSong(
      trx: Db,
      song: { id: string; title: string; artistIds: string[]; artistNames: string[] },
      uploaderId: string,
    ) {
      if (song.artistIds.length === 0) return [];
      const followers = await trx
        .selectFrom("follow")
        .select("follower_id")
        .where("artist_id", "in", song.artistIds)
        .execute();
      return add(
        trx,
        "new_song",
        followers.map((f) => f.follower_id),
        { songId: song.id, songTitle: song.title, artists: song.artistNames },
        uploaderId,
      );
    },

    /** A song became verified, or returned to pending. */
    async songStatus(trx: Db, songId: string, status: "verified" | "pending", actorId: string | null) {
      const song = await trx.selectFrom("song").select(["title"]).where("id", "=", songId).executeTakeFirst();
      if (!song) return [];
      return add(
        trx,
        status === "verified" ? "song_verified" : "song_unverified",
        await stakeholders(trx, songId),
        { songId, songTitle: song.title },
        actorId ?? undefined,
      );
    },

    /** Tell these users their unread count changed; call after the transaction commits. */
    async announce(userIds: string[]): Promise<void> {
      for (let i = 0; i < userIds.length; i += 300) {
        await bus.publish({ type: "notification", userIds: userIds.slice(i, i + 300) });
      }
    },

    async unread(userId: string): Promise<number> {
      const row = await db
        .selectFrom("notification")
        .select(sql<number>`count(*)`.as("n"))
        .where("user_id", "=", userId)
        .where("read_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(
      userId: string,
      cursor: string | undefined,
      limit: number,
    ): Promise<{ items: AppNotification[]; unread: number; nextCursor: string | null }> {
      const pos = decodeKeyset(cursor);
      const query = db.selectFrom("notification").selectAll().where("user_id", "=", userId);
      const rows = await newestAfter(query, "created_at", "id", pos)
        .limit(limit + 1)
        .execute();
      const { page, nextCursor } = keysetPage(rows, limit, (r) => r.created_at);
      return {
        items: page.map((r) => ({
          id: r.id,
          kind: r.kind as NotificationKind,
          payload: JSON.parse(r.payload) as Record<string, unknown>,
          read: r.read_at !== null,
          createdAt: toIso(r.created_at),
        })),
        unread: await this.unread(userId),
        nextCursor,
      };
    },

    async markRead(userId: string, id: string | "all"): Promise<number> {
      let q = db
        .updateTable("notification")
        .set({ read_at: nowIso() })
        .where("user_id", "=", userId)
        .where("read_at", "is", null);
      if (id !== "all") q = q.where("id", "=", id);
      await q.execute();
      await this.announce([userId]);
      return this.unread(userId);
    },

    async settings(userId: string): Promise<NotificationSettings> {
      const rows = await db
        .selectFrom("notification_setting")
        .select(["kind", "enabled"])
        .where("user_id", "=", userId)
        .execute();
      const user = await db
        .selectFrom("user")
        .select("email_digest")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      const off = new Set(rows.filter((r) => !r.enabled).map((r) => r.kind));
      return {
        kinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, !off.has(k)])) as NotificationSettings["kinds"],
        emailDigest: Boolean(user.email_digest),
      };
    },

    async saveSettings(userId: string, s: NotificationSettings): Promise<NotificationSettings> {
      await database.tx(async (trx) => {
        for (const kind of NOTIFICATION_KINDS) {
          const enabled = s.kinds[kind];
          await trx
            .insertInto("notification_setting")
            .values({ user_id: userId, kind, enabled })
            .onConflict((oc) => oc.columns(["user_id", "kind"]).doUpdateSet({ enabled }))
            .execute();
        }
        await trx.updateTable("user").set({ email_digest: s.emailDigest }).where("id", "=", userId).execute();
      });
      return this.settings(userId);
    },

    /**
     * Send the daily digest to users who asked for it and have unread notifications.
     * Each user is claimed with one UPDATE, so several instances never send the same digest twice.
     */
    async sendDigests(now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
      const claimed = await db
        .updateTable("user")
        .set({ last_digest_at: now.toISOString() })
        .where("email_digest", "=", true)
        .where((eb) => eb.or([eb("last_digest_at", "is", null), eb("last_digest_at", "<=", cutoff)]))
        .returning(["id", "email", "username"])
        .execute();
      let sent = 0;
      for (const u of claimed) {
        const unread = await db
          .selectFrom("notification")
          .select(["kind", "payload"])
          .where("user_id", "=", u.id)
          .where("read_at", "is", null)
          .where("created_at", ">", cutoff)
          .orderBy("created_at", "desc")
          .limit(20)
          .execute();
        if (unread.length === 0) continue;
        const lines = unread.map(
          (n) => `- ${describe(n.kind as NotificationKind, JSON.parse(n.payload) as Record<string, unknown>)}`,
        );
        const link = `${deps.config.publicUrl}/`;
        await deps.mailer.send({
          to: u.email,
          subject: `Unheard: ${unread.length} update${unread.length === 1 ? "" : "s"} for you`,
          link,
          text: `Hi ${u.username},\n\nHere is what happened on Unheard in the last day:\n\n${lines.join("\n")}\n\nOpen Unheard: ${link}\n\nYou get this because the daily digest is on in your profile.\n`,
        });
        sent++;
      }
      return sent;
    },
  };
}

/** One line of text for a notification (digest e-mails). */
export function describe(kind: NotificationKind, p: Record<string, unknown>): string {
  const title = String(p.songTitle ?? "a song");
  switch (kind) {
    case "new_song":
      return `New song by ${(p.artists as string[] | undefined)?.join(", ") ?? "an artist you follow"}: ${title}`;
    case "song_verified":
      return `${title} has been verified`;
    case "song_unverified":
      return `${title} is pending verification again`;
    case "report_processed":
      return `Your report on ${title} was ${String(p.status ?? "processed")}`;
    case "suggestion_processed":
      return `Your edit suggestion for ${title} was ${String(p.status ?? "reviewed")}`;
    case "tracker_update":
      return `${String(p.artistName ?? "An artist you follow")}'s tracker: ${String(p.summary ?? "updated")}`;
  }
}

/** The notifier type. */
export type Notifier = ReturnType<typeof createNotifier>;

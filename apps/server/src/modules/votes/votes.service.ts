import {
  MESSAGES,
  POINTS_FOR_VERIFIED_SONG,
  POINTS_PER_VOTE,
  type SongPage,
  VERIFICATION_THRESHOLD,
  type VoteResult,
} from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { decodeKeyset, keysetPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import type { RateLimiter } from "../../lib/rate-limit.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { SongsService } from "../songs/songs.service.js";
import type { VotesRepo } from "./votes.repo.js";

const VALUE = { up: 1, down: -1, none: 0 } as const;

/** Verification rules (spec §4, DESIGN §5): toggle votes, thresholds, points. */
export function createVotesService(deps: {
  database: Database;
  votes: VotesRepo;
  songs: SongsService;
  bus: EventBus;
  limiter: RateLimiter;
  notifier: Notifier;
  /** Votes per user per minute: generous for people, a wall for scripts. */
  votesPerMinute: number;
}) {
  const { database, votes, songs, bus, limiter, notifier } = deps;
  const voteLimit = { name: "vote", limit: deps.votesPerMinute, windowSec: 60 };

  /** After a change: counts to every open page, points to the people whose points moved. */
  async function announce(result: VoteResult, userIds: (string | null | undefined)[], statusChanged: boolean) {
    await bus.publish({
      type: "song.changed",
      songId: result.songId,
      data: {
        upvotes: result.upvotes,
        downvotes: result.downvotes,
        net: result.net,
        status: result.status,
        verifiedAt: result.verifiedAt,
        // Lists move a song between pending and the feeds only when this is set.
        statusChanged,
      },
    });
    for (const id of new Set(userIds.filter((x): x is string => Boolean(x))))
      await bus.publish({ type: "me.changed", userId: id });
  }

  return {
    /** Set the viewer's vote to the wanted state; the same request twice leaves the same state. */
    async vote(
      viewer: Viewer,
      songId: string,
      input: { value: "up" | "down" | "none"; reason?: string | undefined; details?: string | undefined },
    ): Promise<VoteResult> {
      await limiter.hit(voteLimit, viewer.id);
      const want = VALUE[input.value];
      const outcome = await database.tx(async (trx) => {
        const song = await votes.lockSong(trx, songId);
        if (!song || (song.is_hidden && !viewer.isAdmin)) throw new AppError("not_found", MESSAGES.songNotFound);
        if (song.submitted_by === viewer.id) throw new AppError("forbidden", MESSAGES.ownSongVote);
        const existing = await votes.findVote(trx, songId, viewer.id);
        const had = existing ? Number(existing.value) : 0;
        let up = Number(song.upvotes);
        let down = Number(song.downvotes);
        const prevNet = up - down;
        const points: string[] = [];
        if (want === 0) {
          if (had !== 0) await votes.deleteVote(trx, songId, viewer.id);
        } else {
          const reason = want === -1 ? (input.reason ?? null) : null;
          const details = want === -1 && input.details ? input.details : null;
          if (had !== want || (want === -1 && (existing?.reason !== reason || existing?.details !== details))) {
            await votes.putVote(trx, { songId, userId: viewer.id, value: want as 1 | -1, reason, details });
          }
        }
        if (had === 1) up--;
        if (had === -1) down--;
        if (want === 1) up++;
        if (want === -1) down++;
        // Adding a vote earns a point, withdrawing it gives the point back; switching sides is neither.
        if (had === 0 && want !== 0) {
          await votes.award(trx, viewer.id, POINTS_PER_VOTE, "vote", songId);
          points.push(viewer.id);
        } else if (had !== 0 && want === 0) {
          await votes.award(trx, viewer.id, -POINTS_PER_VOTE, "vote_withdrawn", songId);
          points.push(viewer.id);
        }
        const net = up - down;
        let status = song.status === "verified" ? "verified" : "pending";
        let verifiedAt = toIso(song.verified_at);
        let verifiedNow = false;
        if (status === "pending" && net >= VERIFICATION_THRESHOLD) {
          status = "verified";
          verifiedAt = nowIso();
          verifiedNow = true;
          if (
            song.submitted_by &&
            (await votes.awardFirstVerification(trx, song.submitted_by, songId, POINTS_FOR_VERIFIED_SONG))
          ) {
            points.push(song.submitted_by);
          }
        } else if (status === "verified" && prevNet >= VERIFICATION_THRESHOLD && net < VERIFICATION_THRESHOLD) {
          status = "pending";
          verifiedAt = null;
        }
        const changed =
          had !== want || up !== Number(song.upvotes) || down !== Number(song.downvotes) || status !== song.status;
        if (changed)
          await votes.setCounters(trx, songId, {
            upvotes: up,
            downvotes: down,
            status,
            verifiedAt,
            ...(status === "pending" ? { verifiedBy: null } : {}),
          });
        const result: VoteResult = {
          songId,
          upvotes: up,
          downvotes: down,
          net,
          status: status as VoteResult["status"],
          verifiedAt,
          myVote: want === 1 ? "up" : want === -1 ? "down" : null,
          verifiedNow,
        };
        const notified =
          status !== song.status
            ? await notifier.songStatus(trx, songId, status === "verified" ? "verified" : "pending", viewer.id)
            : [];
        return { result, changed, points, notified, statusChanged: status !== song.status };
      });
      if (outcome.changed) await announce(outcome.result, outcome.points, outcome.statusChanged);
      await notifier.announce(outcome.notified);
      return outcome.result;
    },

    /** Admin: verify one song directly, recording who and when. */
    async verify(viewer: Viewer, songId: string): Promise<VoteResult> {
      const outcome = await database.tx(async (trx) => {
        const song = await votes.lockSong(trx, songId);
        if (!song) throw new AppError("not_found", MESSAGES.songNotFound);
        const up = Number(song.upvotes);
        const down = Number(song.downvotes);
        const already = song.status === "verified";
        const verifiedAt = already ? toIso(song.verified_at) : nowIso();
        const points: string[] = [];
        if (!already) {
          await votes.setCounters(trx, songId, {
            upvotes: up,
            downvotes: down,
            status: "verified",
            verifiedAt,
            verifiedBy: viewer.id,
          });
          await audit(trx, viewer.id, "song.verified", songId);
          if (
            song.submitted_by &&
            (await votes.awardFirstVerification(trx, song.submitted_by, songId, POINTS_FOR_VERIFIED_SONG))
          ) {
            points.push(song.submitted_by);
          }
        }
        const myVote = await votes.findVote(trx, songId, viewer.id);
        const result: VoteResult = {
          songId,
          upvotes: up,
          downvotes: down,
          net: up - down,
          status: "verified",
          verifiedAt,
          myVote: myVote ? (Number(myVote.value) === 1 ? "up" : "down") : null,
          verifiedNow: !already,
        };
        const notified = already ? [] : await notifier.songStatus(trx, songId, "verified", viewer.id);
        return { result, points, changed: !already, notified, statusChanged: !already };
      });
      if (outcome.changed) await announce(outcome.result, outcome.points, outcome.statusChanged);
      await notifier.announce(outcome.notified);
      return outcome.result;
    },

    /** Super admin: verify every pending song directly (DESIGN §5: no placeholder votes). */
    async verifyAll(viewer: Viewer): Promise<number> {
      const { ids, points, notified } = await database.tx(async (trx) => {
        const pending = await votes.pendingForVerifyAll(trx);
        const now = nowIso();
        const paid: string[] = [];
        const told: string[] = [];
        for (const s of pending) {
          await trx
            .updateTable("song")
            .set({ status: "verified", verified_at: now, verified_by: viewer.id, updated_at: now })
            .where("id", "=", s.id)
            .execute();
          if (
            s.submitted_by &&
            (await votes.awardFirstVerification(trx, s.submitted_by, s.id, POINTS_FOR_VERIFIED_SONG))
          )
            paid.push(s.submitted_by);
          told.push(...(await notifier.songStatus(trx, s.id, "verified", viewer.id)));
        }
        await audit(trx, viewer.id, "songs.verified_all", null, { count: pending.length });
        return { ids: pending.map((s) => s.id), points: paid, notified: [...new Set(told)] };
      });
      for (const id of ids)
        await bus.publish({ type: "song.changed", songId: id, data: { status: "verified", statusChanged: true } });
      for (const id of new Set(points)) await bus.publish({ type: "me.changed", userId: id });
      await notifier.announce(notified);
      return ids.length;
    },

    /** The pending grid: newest first, keyset-paginated. */
    async pending(viewer: Viewer, cursor: string | undefined, limit: number): Promise<SongPage> {
      const rows = await votes.pendingIds(database.db, decodeKeyset(cursor), limit + 1);
      const { page, nextCursor } = keysetPage(rows, limit, (r) => r.created_at);
      return { items: await songs.hydrate(page, viewer), nextCursor };
    },
  };
}

/** The votes service type. */
export type VotesService = ReturnType<typeof createVotesService>;

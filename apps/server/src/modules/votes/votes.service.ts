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
import { contestedUntil, eligibilityOf } from "./eligibility.js";
import type { VotesRepo } from "./votes.repo.js";

const VALUE = { up: 1, down: -1, none: 0 } as const;
const HOUR_MS = 3_600_000;

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
  /** Decision 014: who counts, and how long a contested song stays open. */
  rules: { minAccountDays: number; minRecord: number; contestedOpenHours: number };
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

  type LockedSong = NonNullable<Awaited<ReturnType<VotesRepo["lockSong"]>>>;

  /**
   * Count a locked song's counted votes from its rows and apply the rules (spec §4, decision 014): net ≥ 3
   * verifies, unless a counted downvote holds it for the open period; a song verified by votes whose net falls
   * below 3 goes back to pending. Pays the submitter on the first verification. In the caller's transaction.
   */
  async function settle(trx: Parameters<VotesRepo["lockSong"]>[0], song: LockedSong, now = Date.now()) {
    const { up, down } = await votes.countedVotes(trx, song.id);
    const net = up - down;
    const prevNet = Number(song.upvotes) - Number(song.downvotes);
    let status = song.status === "verified" ? "verified" : "pending";
    let verifiedAt = toIso(song.verified_at);
    let verifiedNow = false;
    let paid: string | null = null;
    const until = contestedUntil(song.created_at as string | Date, down, deps.rules.contestedOpenHours);
    if (status === "pending" && net >= VERIFICATION_THRESHOLD && (until === null || now >= until)) {
      status = "verified";
      verifiedAt = nowIso();
      verifiedNow = true;
      if (
        song.submitted_by &&
        (await votes.awardFirstVerification(trx, song.submitted_by, song.id, POINTS_FOR_VERIFIED_SONG))
      )
        paid = song.submitted_by;
    } else if (status === "verified" && prevNet >= VERIFICATION_THRESHOLD && net < VERIFICATION_THRESHOLD) {
      status = "pending";
      verifiedAt = null;
    }
    const changed = up !== Number(song.upvotes) || down !== Number(song.downvotes) || status !== song.status;
    if (changed)
      await votes.setCounters(trx, song.id, {
        upvotes: up,
        downvotes: down,
        status,
        verifiedAt,
        ...(status === "pending" ? { verifiedBy: null } : {}),
      });
    const verifiableAt = status === "pending" && until !== null && now < until ? new Date(until).toISOString() : null;
    return {
      up,
      down,
      net,
      status: status as VoteResult["status"],
      verifiedAt,
      verifiedNow,
      paid,
      changed,
      verifiableAt,
    };
  }

  /** A vote answer: the settled song's counts and status, and the viewer's own vote. */
  function answer(
    songId: string,
    s: Awaited<ReturnType<typeof settle>>,
    mine: Pick<VoteResult, "myVote" | "counted" | "note">,
  ): VoteResult {
    const { up, down, net, status, verifiedAt, verifiedNow, verifiableAt } = s;
    return { songId, upvotes: up, downvotes: down, net, status, verifiedAt, verifiedNow, verifiableAt, ...mine };
  }

  /** Settle a song after its votes changed outside a vote request (a voter's eligibility moved, an open period ended). */
  async function resettle(songId: string, flip?: { userId: string; counted: boolean }): Promise<void> {
    const outcome = await database.tx(async (trx) => {
      const song = await votes.lockSong(trx, songId);
      if (!song) return null;
      const points: string[] = [];
      if (flip) {
        const vote = await votes.findVote(trx, songId, flip.userId);
        if (!vote || Boolean(vote.counted) === flip.counted) return null;
        await votes.setCounted(trx, songId, flip.userId, flip.counted);
        // The point for a vote is held while the vote counts.
        await votes.award(
          trx,
          flip.userId,
          flip.counted ? POINTS_PER_VOTE : -POINTS_PER_VOTE,
          flip.counted ? "vote" : "vote_discounted",
          songId,
        );
        points.push(flip.userId);
      }
      const settled = await settle(trx, song);
      if (settled.paid) points.push(settled.paid);
      const statusChanged = settled.status !== song.status;
      const notified = statusChanged
        ? await notifier.songStatus(trx, songId, settled.status === "verified" ? "verified" : "pending", null)
        : [];
      const result = answer(songId, settled, { myVote: null, counted: true, note: null });
      return { result, points, notified, statusChanged, changed: settled.changed || points.length > 0 };
    });
    if (!outcome) return;
    if (outcome.changed) await announce(outcome.result, outcome.points, outcome.statusChanged);
    await notifier.announce(outcome.notified);
  }

  const rules = { minAccountDays: deps.rules.minAccountDays, minRecord: deps.rules.minRecord };

  return {
    /** Set the viewer's vote to the wanted state; the same request twice leaves the same state. */
    async vote(
      viewer: Viewer,
      songId: string,
      input: { value: "up" | "down" | "none"; reason?: string | undefined; details?: string | undefined },
    ): Promise<VoteResult> {
      await limiter.hit(voteLimit, viewer.id);
      const want = VALUE[input.value];
      // Judged before the transaction (it only reads); a vote from an ineligible member is kept but not counted.
      const eligibility = await eligibilityOf(database.db, viewer.id, rules);
      const counts = eligibility.eligible;
      const outcome = await database.tx(async (trx) => {
        const song = await votes.lockSong(trx, songId);
        if (!song || (song.is_hidden && !viewer.isAdmin)) throw new AppError("not_found", MESSAGES.songNotFound);
        if (song.submitted_by === viewer.id) throw new AppError("forbidden", MESSAGES.ownSongVote);
        const existing = await votes.findVote(trx, songId, viewer.id);
        const had = existing ? Number(existing.value) : 0;
        const hadCounted = had !== 0 && Boolean(existing?.counted);
        const points: string[] = [];
        if (want === 0) {
          if (had !== 0) await votes.deleteVote(trx, songId, viewer.id);
        } else {
          const reason = want === -1 ? (input.reason ?? null) : null;
          const details = want === -1 && input.details ? input.details : null;
          if (
            had !== want ||
            hadCounted !== counts ||
            (want === -1 && (existing?.reason !== reason || existing?.details !== details))
          ) {
            await votes.putVote(trx, {
              songId,
              userId: viewer.id,
              value: want as 1 | -1,
              reason,
              details,
              counted: counts,
            });
          }
        }
        // A counted vote earns a point, withdrawing it gives the point back; switching sides is neither.
        const nowCounted = want !== 0 && counts;
        if (nowCounted !== hadCounted) {
          await votes.award(
            trx,
            viewer.id,
            nowCounted ? POINTS_PER_VOTE : -POINTS_PER_VOTE,
            nowCounted ? "vote" : "vote_withdrawn",
            songId,
          );
          points.push(viewer.id);
        }
        const settled = await settle(trx, song);
        if (settled.paid) points.push(settled.paid);
        const result = answer(songId, settled, {
          myVote: want === 1 ? "up" : want === -1 ? "down" : null,
          counted: nowCounted,
          note: want !== 0 && !eligibility.eligible ? eligibility.note : null,
        });
        const statusChanged = settled.status !== song.status;
        const notified = statusChanged
          ? await notifier.songStatus(trx, songId, settled.status === "verified" ? "verified" : "pending", viewer.id)
          : [];
        const changed = had !== want || settled.changed || points.length > 0;
        return { result, changed, points, notified, statusChanged };
      });
      if (outcome.changed) await announce(outcome.result, outcome.points, outcome.statusChanged);
      await notifier.announce(outcome.notified);
      return outcome.result;
    },

    /** Whether the member's votes count now, and why not (for their profile and the song page). */
    eligibility(userId: string) {
      return eligibilityOf(database.db, userId, rules);
    },

    /** Bring a member's votes in line with their eligibility now: each vote that changes is recounted on its song. */
    async recountVoter(userId: string): Promise<number> {
      const counts = (await eligibilityOf(database.db, userId, rules)).eligible;
      const flips = await votes.votesToFlip(database.db, userId, counts);
      for (const { song_id } of flips) await resettle(song_id, { userId, counted: counts });
      return flips.length;
    },

    /**
     * The periodic pass (decision 014): votes of members who have become eligible start counting, and contested
     * songs whose open period has ended verify if their net still says so. Returns how many votes and songs moved.
     */
    async sweep(now = Date.now()): Promise<{ votes: number; songs: number }> {
      let moved = 0;
      for (const userId of await votes.uncountedVoters(database.db)) moved += await this.recountVoter(userId);
      const before = new Date(now - deps.rules.contestedOpenHours * HOUR_MS).toISOString();
      const due = await votes.contestedDue(database.db, VERIFICATION_THRESHOLD, before);
      for (const id of due) await resettle(id);
      return { votes: moved, songs: due.length };
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
          counted: true,
          note: null,
          verifiableAt: null,
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

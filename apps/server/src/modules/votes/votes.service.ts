import {
  discountMessage,
  MESSAGES,
  POINTS_FOR_VERIFIED_SONG,
  POINTS_PER_VOTE,
  type SongPage,
  type SongVoters,
  TRUST_LEVELS,
  VERIFICATION_THRESHOLD,
  VOTE_NOTES,
  type VoteResult,
} from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { deviceTag } from "../../lib/client-origin.js";
import { decodeKeyset, keysetPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import type { RateLimiter } from "../../lib/rate-limit.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { SongsService } from "../songs/songs.service.js";
import type { TrustService } from "../trust/trust.service.js";
import { contestedUntil } from "./contested.js";
import { ringSignals } from "./rings.js";
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
  /** Decisions 014/015: whose votes count, their trust and daily caps. */
  trust: TrustService;
  /** How long a contested song stays open, and the trust level whose upvote verifies directly (0: none). */
  rules: { contestedOpenHours: number; directVerifyLevel: number };
}) {
  const { database, votes, songs, bus, limiter, notifier, trust } = deps;
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
   * `directBy`: a member trusted to verify directly upvoted (decision 015); an uncontested song verifies now.
   */
  async function settle(
    trx: Parameters<VotesRepo["lockSong"]>[0],
    song: LockedSong,
    opts: { now?: number; directBy?: string } = {},
  ) {
    const now = opts.now ?? Date.now();
    const { up, down } = await votes.countedVotes(trx, song.id);
    const net = up - down;
    const prevNet = Number(song.upvotes) - Number(song.downvotes);
    let status = song.status === "verified" ? "verified" : "pending";
    let verifiedAt = toIso(song.verified_at);
    let verifiedNow = false;
    let paid: string | null = null;
    const until = contestedUntil(song.created_at as string | Date, down, deps.rules.contestedOpenHours);
    const direct = Boolean(opts.directBy) && down === 0;
    if (
      status === "pending" &&
      !song.fake_at &&
      (direct || (net >= VERIFICATION_THRESHOLD && (until === null || now >= until)))
    ) {
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
        ...(status === "pending" ? { verifiedBy: null } : direct && verifiedNow ? { verifiedBy: opts.directBy } : {}),
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

  return {
    /** Set the viewer's vote to the wanted state; the same request twice leaves the same state. */
    async vote(
      viewer: Viewer,
      songId: string,
      input: { value: "up" | "down" | "none"; reason?: string | undefined; details?: string | undefined },
      origin: { ipPrefix: string | null; device: string | null } = { ipPrefix: null, device: null },
    ): Promise<VoteResult> {
      await limiter.hit(voteLimit, viewer.id);
      const want = VALUE[input.value];
      // Judged before the transaction (it only reads); a vote from an ineligible member is kept but not counted.
      const record = await trust.of(viewer.id);
      const outcome = await database.tx(async (trx) => {
        const song = await votes.lockSong(trx, songId);
        if (!song || (song.is_hidden && !viewer.isAdmin)) throw new AppError("not_found", MESSAGES.songNotFound);
        if (song.submitted_by === viewer.id) throw new AppError("forbidden", MESSAGES.ownSongVote);
        const existing = await votes.findVote(trx, songId, viewer.id);
        const had = existing ? Number(existing.value) : 0;
        // A new vote is one more toward the daily cap; changing or withdrawing one is not.
        if (had === 0 && want !== 0) await trust.assertUnderCap(trx, viewer, "votes", record);
        const eligibility = song.fake_at ? { eligible: false as const, note: VOTE_NOTES.fake } : record.eligibility;
        const counts = eligibility.eligible;
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
              ...origin,
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
        // Members at the admins' chosen trust level verify an uncontested song with their upvote alone.
        const direct =
          nowCounted &&
          want === 1 &&
          deps.rules.directVerifyLevel > 0 &&
          !record.admin &&
          record.level >= deps.rules.directVerifyLevel;
        const settled = await settle(trx, song, direct ? { directBy: viewer.id } : {});
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

    /** Bring a member's votes in line with their eligibility now: each vote that changes is recounted on its song. */
    async recountVoter(userId: string): Promise<number> {
      const counts = (await trust.eligibility(userId)).eligible;
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

    /**
     * A fake leak upheld (decision 015), in the caller's transaction: the song is hidden and goes back to pending,
     * its upvotes stop counting and their points are taken back, and the uploader loses the +200 if it was paid.
     * Returns the members whose points moved (their trust is recounted after the transaction: see `afterFake`).
     */
    async takeBackFake(trx: Parameters<VotesRepo["lockSong"]>[0], songId: string, adminId: string): Promise<string[]> {
      const song = await votes.lockSong(trx, songId);
      if (!song || song.fake_at) return [];
      await votes.markFake(trx, songId, adminId);
      const moved: string[] = [];
      for (const userId of await votes.countedUpvoters(trx, songId)) {
        await votes.setCounted(trx, songId, userId, false);
        await votes.award(trx, userId, -POINTS_PER_VOTE, "vote_fake", songId);
        moved.push(userId);
      }
      if (song.submitted_by) {
        const paid = await votes.verificationPaid(trx, song.submitted_by, songId);
        if (paid > 0) {
          await votes.award(trx, song.submitted_by, -paid, "song_fake", songId);
          moved.push(song.submitted_by);
        }
      }
      const { up, down } = await votes.countedVotes(trx, songId);
      await votes.setCounters(trx, songId, {
        upvotes: up,
        downvotes: down,
        status: "pending",
        verifiedAt: null,
        verifiedBy: null,
      });
      await audit(trx, adminId, "song.fake", songId, { upvotesTakenBack: moved.length });
      return moved;
    },

    /** After a fake leak: its backers' and uploader's strikes may cost them their other votes' counting. */
    async afterFake(songId: string, userIds: string[], uploaderId: string | null): Promise<void> {
      await bus.publish({
        type: "song.changed",
        songId,
        data: { isHidden: true, status: "pending", statusChanged: true },
      });
      for (const id of new Set([...userIds, ...(uploaderId ? [uploaderId] : [])])) {
        await this.recountVoter(id);
        await bus.publish({ type: "me.changed", userId: id });
      }
    },

    /** Admin: set a member's votes not to count (or to count again where they qualify); the audit log keeps it. */
    async discount(viewer: Viewer, userId: string, discounted: boolean): Promise<{ message: string; moved: number }> {
      if (userId === viewer.id) throw new AppError("forbidden", MESSAGES.discountSelf);
      const found = await database.tx(async (trx) => {
        const ok = await votes.setDiscounted(trx, userId, discounted);
        if (ok) await audit(trx, viewer.id, discounted ? "user.votes_discounted" : "user.votes_restored", userId);
        return ok;
      });
      if (!found) throw new AppError("not_found", MESSAGES.userNotFound);
      const moved = await this.recountVoter(userId);
      await bus.publish({ type: "me.changed", userId });
      return { message: discountMessage(discounted, moved), moved };
    },

    /** Admin: who voted on a song, each voter's age and trust, and the signals of a ring among them. */
    async voters(songId: string): Promise<SongVoters> {
      const db = database.db;
      const song = await votes.uploaderOf(db, songId);
      if (!song) throw new AppError("not_found", MESSAGES.songNotFound);
      const rows = await votes.voters(db, songId);
      const backing = song.uploader
        ? await votes.uploaderUpvotes(
            db,
            song.uploader.id,
            songId,
            rows.map((r) => r.id),
          )
        : new Map<string, number>();
      const now = Date.now();
      const voters = await Promise.all(
        rows.map(async (r) => {
          const t = await trust.of(r.id);
          const created = new Date(r.account_created_at as string | Date);
          return {
            row: r,
            ring: {
              id: r.id,
              createdAt: created.getTime(),
              signupPrefix: r.signup_ip_prefix,
              votePrefix: r.ip_prefix,
              signupDevice: r.signup_device,
              voteDevice: r.device,
              uploaderUpvotes: backing.get(r.id) ?? 0,
            },
            trust: { level: t.level, name: t.admin ? "Admin" : TRUST_LEVELS[t.level].name },
            created,
          };
        }),
      );
      const signals = ringSignals(voters.map((v) => v.ring));
      return {
        songId,
        uploader: song.uploader,
        ringSuspected: signals.length > 0,
        signals: signals.map((x) => x.text),
        voters: voters.map(({ row: r, ring, trust: t, created }) => ({
          user: { id: r.id, username: r.username },
          value: Number(r.value) === 1 ? ("up" as const) : ("down" as const),
          counted: Boolean(r.counted),
          votedAt: String(toIso(r.created_at)),
          accountCreatedAt: created.toISOString(),
          accountAgeDays: Math.floor((now - created.getTime()) / 86_400_000),
          trust: t,
          discounted: Boolean(r.votes_discounted),
          signupPrefix: r.signup_ip_prefix,
          votePrefix: r.ip_prefix,
          device: deviceTag(r.device ?? r.signup_device),
          uploaderUpvotes: ring.uploaderUpvotes,
          flags: signals.filter((x) => x.members.includes(r.id)).map((x) => x.text),
        })),
      };
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

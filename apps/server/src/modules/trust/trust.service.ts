// Trust (decisions 014, 015): whether a member's votes count toward verification, their trust level, and their
// daily caps, all derived from rows on each call, so nothing can drift from the record it describes.
import {
  DAILY_CAPS,
  type DailyCapKind,
  dailyCapMessage,
  TRUST_LEVELS,
  TRUST_STRIKE_COST,
  type Trust,
  type TrustLevel,
  VOTE_NOTES,
} from "@unheard/shared";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import type { Viewer } from "../auth/viewer.js";
import { trustRepo } from "./trust.repo.js";

type Db = Kysely<DB>;
const DAY_MS = 86_400_000;

/** The settings: VOTE_MIN_ACCOUNT_DAYS, VOTE_MIN_RECORD, DAILY_CAPS. */
export type TrustRules = { minAccountDays: number; minRecord: number; dailyCaps: boolean };

/** Whether a member's votes count now, and if not, the sentence that says why. */
export type Eligibility = { eligible: true } | { eligible: false; note: string };

/** A member's trust as the rules see it. */
export type TrustRecord = {
  admin: boolean;
  level: TrustLevel;
  score: number;
  strikes: number;
  eligibility: Eligibility;
};

/** "in 3 hours", "in 25 minutes", "in a minute". */
function inTime(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "in an hour" : `in ${hours} hours`;
}

/** Judge one member against the rules at `now`. */
export async function trustOf(db: Db, userId: string, rules: TrustRules, now = Date.now()): Promise<TrustRecord> {
  const user = await trustRepo.member(db, userId);
  if (!user)
    return {
      admin: false,
      level: 0,
      score: 0,
      strikes: 0,
      eligibility: { eligible: false, note: VOTE_NOTES.discounted },
    };
  // Admins can verify directly anyway: their votes always count, and no cap applies.
  if (user.role === "admin" || user.role === "super_admin")
    return { admin: true, level: 3, score: 0, strikes: 0, eligibility: { eligible: true } };
  const ageDays = (now - new Date(user.created_at as string | Date).getTime()) / DAY_MS;
  const strikes = await trustRepo.strikes(db, userId);
  // Count the record only as far as the highest level this account's age allows needs.
  const reachable = TRUST_LEVELS.filter((l) => ageDays >= l.minDays).at(-1) ?? TRUST_LEVELS[0];
  const need = Math.max(rules.minRecord, reachable.minScore) + strikes * TRUST_STRIKE_COST;
  const score = (await trustRepo.accepted(db, userId, need)) - strikes * TRUST_STRIKE_COST;
  const base = { admin: false, score, strikes };
  const no = (note: string): TrustRecord => ({ ...base, level: 0, eligibility: { eligible: false, note } });
  if (user.votes_discounted) return no(VOTE_NOTES.discounted);
  if (!user.email_verified) return no(VOTE_NOTES.emailUnverified);
  if (ageDays < rules.minAccountDays) return no(VOTE_NOTES.tooNew(rules.minAccountDays));
  if (score < rules.minRecord) return no(VOTE_NOTES.noRecord(rules.minRecord, Math.max(0, score)));
  let level: TrustLevel = 1;
  for (const l of TRUST_LEVELS)
    if (l.level > 1 && ageDays >= l.minDays && score >= l.minScore && (l.level < 3 || strikes === 0)) level = l.level;
  return { ...base, level, eligibility: { eligible: true } };
}

/** The trust rules bound to one database and its settings. */
export function createTrustService(deps: { database: Database; rules: TrustRules }) {
  const { database, rules } = deps;
  return {
    rules,

    /** A member's trust record, derived now. */
    of: (userId: string, db: Db = database.db) => trustOf(db, userId, rules),

    /** Whether the member's votes count now, and why not. */
    async eligibility(userId: string, db: Db = database.db): Promise<Eligibility> {
      return (await trustOf(db, userId, rules)).eligibility;
    },

    /** The member's trust as their profile shows it. */
    async summary(userId: string): Promise<Trust> {
      const t = await trustOf(database.db, userId, rules);
      return {
        level: t.level,
        name: t.admin ? "Admin" : TRUST_LEVELS[t.level].name,
        score: t.score,
        strikes: t.strikes,
        votesCount: t.eligibility.eligible,
        note: t.eligibility.eligible ? null : t.eligibility.note,
        caps:
          t.admin || !rules.dailyCaps
            ? null
            : {
                votes: DAILY_CAPS.votes[t.level],
                reports: DAILY_CAPS.reports[t.level],
                uploads: DAILY_CAPS.uploads[t.level],
                suggestions: DAILY_CAPS.suggestions[t.level],
              },
      };
    },

    /**
     * Refuse one more vote, report, upload or edit suggestion past the member's daily cap (429 with when they can
     * again).
     * `record` is the member's trust if the caller has it already. Admins have no caps.
     *
     * Holds under concurrency (issue 24) when called inside the transaction that then inserts the row: on SQLite
     * that transaction is BEGIN IMMEDIATE (writers run one at a time); on PostgreSQL this takes a per-member,
     * per-kind advisory lock until it ends, so a parallel request counts only after this one has committed.
     */
    async assertUnderCap(db: Db, viewer: Viewer, kind: DailyCapKind, record?: TrustRecord): Promise<void> {
      if (!rules.dailyCaps || viewer.isAdmin) return;
      if (database.dialect === "postgres" && db.isTransaction)
        await sql`select pg_advisory_xact_lock(hashtext(${`cap:${kind}:${viewer.id}`}))`.execute(db);
      const t = record ?? (await trustOf(db, viewer.id, rules));
      if (t.admin) return;
      const cap = DAILY_CAPS[kind][t.level];
      const now = Date.now();
      const { n, oldest } = await trustRepo.madeSince(db, kind, viewer.id, new Date(now - DAY_MS).toISOString());
      if (n < cap) return;
      const again = oldest ? inTime(new Date(oldest).getTime() + DAY_MS - now) : "tomorrow";
      throw new AppError("rate_limited", dailyCapMessage(kind, cap, again));
    },
  };
}

/** The trust service type. */
export type TrustService = ReturnType<typeof createTrustService>;

// Who counts toward verification (decision 014): a vote is stored whoever casts it, but counts only when its voter
// has a verified e-mail, is old enough (waitlisted members cannot vote at all), has a record of accepted contributions and has not
// been discounted by an admin. Derived from rows every time, never kept as a counter that could drift.
import { VOTE_NOTES } from "@unheard/shared";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema.js";

type Db = Kysely<DB>;
const DAY_MS = 86_400_000;

/** The rules' settings (config: VOTE_MIN_ACCOUNT_DAYS, VOTE_MIN_RECORD). */
export type EligibilityRules = { minAccountDays: number; minRecord: number };

/** Whether a member's votes count now, and if not, the sentence that says why. */
export type Eligibility = { eligible: true } | { eligible: false; note: string };

/**
 * When a contested song (one with a counted downvote) may verify: `openHours` after it was uploaded, in ms since
 * the epoch; null when nothing holds it (no counted downvote, or no open period).
 */
export function contestedUntil(createdAt: string | Date, downvotes: number, openHours: number): number | null {
  if (downvotes === 0 || openHours <= 0) return null;
  return new Date(createdAt).getTime() + openHours * 3_600_000;
}

/**
 * Accepted contributions: verified uploads, approved edit suggestions, upvotes on songs that were verified.
 * Each kind is counted up to `cap` only (the rule needs no more), so an active voter's vote stays cheap.
 */
export async function recordOf(db: Db, userId: string, cap: number): Promise<number> {
  const row = await sql<{ n: number | string }>`
    select
      (select count(*) from (select 1 from song s where s.submitted_by = ${userId} and s.status = 'verified' limit ${cap}) a)
    + (select count(*) from (select 1 from edit_suggestion e where e.submitted_by = ${userId} and e.status = 'approved' limit ${cap}) b)
    + (select count(*) from (select 1 from vote v join song s on s.id = v.song_id
        where v.user_id = ${userId} and v.value = 1 and s.status = 'verified'
          and (s.submitted_by is null or s.submitted_by <> ${userId}) limit ${cap}) c) as n`.execute(db);
  return Math.min(cap, Number(row.rows[0]?.n ?? 0));
}

/** Judge one member against the rules at `now`. */
export async function eligibilityOf(
  db: Db,
  userId: string,
  rules: EligibilityRules,
  now = Date.now(),
): Promise<Eligibility> {
  const user = await db
    .selectFrom("user")
    .select(["role", "email_verified", "off_waitlist", "created_at", "votes_discounted"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return { eligible: false, note: VOTE_NOTES.discounted };
  // Admins can verify directly anyway; their votes always count.
  if (user.role === "admin" || user.role === "super_admin") return { eligible: true };
  if (user.votes_discounted) return { eligible: false, note: VOTE_NOTES.discounted };
  if (!user.email_verified) return { eligible: false, note: VOTE_NOTES.emailUnverified };
  const ageMs = now - new Date(user.created_at as string | Date).getTime();
  if (ageMs < rules.minAccountDays * DAY_MS) return { eligible: false, note: VOTE_NOTES.tooNew(rules.minAccountDays) };
  if (rules.minRecord > 0) {
    const have = await recordOf(db, userId, rules.minRecord);
    if (have < rules.minRecord) return { eligible: false, note: VOTE_NOTES.noRecord(rules.minRecord, have) };
  }
  return { eligible: true };
}

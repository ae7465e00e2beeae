/** Business constants of spec §9. */
export const VERIFICATION_THRESHOLD = 3;
export const POINTS_PER_VOTE = 1;
export const POINTS_FOR_VERIFIED_SONG = 200;
export const PASSWORD_MIN_LENGTH = 6;
/** Better Auth's own upper bound; longer passwords only cost hashing time. */
export const PASSWORD_MAX_LENGTH = 128;
export const SEARCH_DEBOUNCE_MS = 300;
/** Songs and artists the search box suggests while typing. */
export const SUGGEST_SONGS = 6;
export const SUGGEST_ARTISTS = 3;
export const RECOMMENDATIONS_LIMIT = 8;
export const REDIRECT_AFTER_UPLOAD_MS = 1000;
export const REDIRECT_AFTER_REGISTER_MS = 3000;
export const TOAST_REDIRECT_DELAY_MS = 600;
export const USERNAME_MAX_LENGTH = 30;

export const ROLES = ["user", "verified_contributor", "admin", "super_admin"] as const;
export type Role = (typeof ROLES)[number];

export const GENRES = ["Electronic", "Rap", "Pop", "Country", "Rock", "Other"] as const;
export type Genre = (typeof GENRES)[number];

export const RELEASE_FILTERS = ["all_unreleased", "dated", "undated", "released"] as const;
export const REPORT_REASONS = ["wrong_artist", "fake_leak", "duplicate", "wrong_title", "copyright", "other"] as const;
export const DOWNVOTE_REASONS = [
  "wrong_artist",
  "fake_leak",
  "duplicate",
  "wrong_title",
  "low_quality",
  "other",
] as const;

/** Admin permissions of spec §3 (Admin). */
export const ADMIN_PERMISSIONS = [
  "canManageAdmins",
  "canVerifyArtists",
  "canManageReports",
  "canBulkImport",
  "canEditAllSongs",
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

/**
 * Trust levels (decision 015), derived from a member's record: 0 New (votes do not count yet), 1 Member (votes
 * count), 2 Regular, 3 Trusted. Levels 2 and 3 need an account this many days old and this score (accepted
 * contributions less 3 per strike); Trusted also needs no strikes at all.
 */
export const TRUST_LEVELS = [
  { level: 0, name: "New", minDays: 0, minScore: 0 },
  { level: 1, name: "Member", minDays: 0, minScore: 0 },
  { level: 2, name: "Regular", minDays: 30, minScore: 10 },
  { level: 3, name: "Trusted", minDays: 90, minScore: 30 },
] as const;
export type TrustLevel = 0 | 1 | 2 | 3;
/** Score lost per strike: an upvote on a song resolved as a fake leak, or an upload of theirs a report was upheld against. */
export const TRUST_STRIKE_COST = 3;

/** What a member may do per 24 hours at each trust level (decision 015); admins have no caps. */
export const DAILY_CAPS = {
  votes: [20, 50, 150, 400],
  reports: [5, 10, 25, 50],
  uploads: [3, 10, 25, 50],
  /** Edit suggestions, as reports (issue 24: one member sent 480 in 9 s and buried the admins' queue). */
  suggestions: [5, 10, 25, 50],
} as const satisfies Record<string, readonly [number, number, number, number]>;
export type DailyCapKind = keyof typeof DAILY_CAPS;

/** Edit suggestions one member may send per minute, whatever their daily cap: a wall for scripts. */
export const SUGGESTIONS_PER_MINUTE = 5;

/** Reports one member may file per minute, whatever their daily cap: the same wall for scripts. */
export const REPORTS_PER_MINUTE = 5;

/**
 * Identify (issue 39, decision 032): a clip is at most `maxClipSeconds` long (a file at most `maxFileMb`), and one
 * member identifies at most `perMemberHour` clips an hour, one client address `perAddressHour`
 * (IDENTIFY_PER_MEMBER_HOUR, IDENTIFY_PER_ADDRESS_HOUR). The page sends a recording at most `sendsPerRecording`
 * times, so a member always has room for ten recordings an hour.
 */
export const IDENTIFY_LIMITS = {
  maxClipSeconds: 20,
  maxFileMb: 10,
  perMemberHour: 30,
  perAddressHour: 60,
  sendsPerRecording: 3,
} as const;

/** A play counts once the listener has heard this many seconds of a song (issue 29, decision 027)… */
export const PLAY_COUNT_AFTER_SEC = 30;
/** …and at most once per listener and song in this many minutes (a rolling window). */
export const PLAY_COUNT_WINDOW_MIN = 60;
/** Play starts and play reports one client address may send per minute (PLAY_STARTS/REPORTS_PER_MINUTE). */
export const PLAY_LIMITS = { startsPerMinute: 60, reportsPerMinute: 30 } as const;

/**
 * Seconds of listening after which a play of a song `durationSec` long counts: 30, or half of a shorter song;
 * 30 when the length is unknown. Free of zod, so the player can import it without the schemas.
 */
export function playCountAfterSec(durationSec: number | null | undefined): number {
  if (typeof durationSec !== "number" || !Number.isFinite(durationSec) || durationSec <= 0) return PLAY_COUNT_AFTER_SEC;
  return Math.min(PLAY_COUNT_AFTER_SEC, durationSec / 2);
}

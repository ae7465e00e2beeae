/** Business constants of spec §9. */
export const VERIFICATION_THRESHOLD = 3;
export const POINTS_PER_VOTE = 1;
export const POINTS_FOR_VERIFIED_SONG = 200;
export const PASSWORD_MIN_LENGTH = 6;
/** Better Auth's own upper bound; longer passwords only cost hashing time. */
export const PASSWORD_MAX_LENGTH = 128;
export const SEARCH_DEBOUNCE_MS = 300;
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

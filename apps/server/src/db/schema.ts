import type { ColumnType, Generated } from "kysely";

/** Timestamps: ISO strings in, ISO text (SQLite) or Date (PostgreSQL) out; map with toIso(). */
export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null | undefined, string | null>;
/** Booleans: 0/1 on SQLite, boolean on PostgreSQL; map with Boolean(). */
export type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;
/** Integers that may come back as strings (PostgreSQL bigint, count(*)). */
export type Int = ColumnType<number, number | undefined, number>;

export type UserTable = {
  id: string;
  name: string;
  email: string;
  email_verified: Bool;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  username: string;
  username_key: string;
  role: ColumnType<string, string | undefined, string>;
  points: Int;
  bio: ColumnType<string, string | undefined, string>;
  is_public: Bool;
  is_artist: Bool;
  is_verified: Bool;
  is_placeholder: Bool;
  /**
   * Songs credited to this artist (song_artist rows), moved with each credit. Not a member's uploads: /api/me
   * counts those from song.submitted_by.
   */
  credit_count: Int;
  off_waitlist: Bool;
  instagram: string | null;
  twitter: string | null;
  website: string | null;
  follower_count: Int;
  email_digest: Bool;
  last_digest_at: NullableTimestamp;
  /** An admin set this member's votes not to count (decision 014). */
  votes_discounted: Bool;
  /** Where the account signed up: the client's IP prefix (/24 or /64) and device cookie (decision 015). */
  signup_ip_prefix: string | null;
  signup_device: string | null;
};

export type SessionTable = {
  id: string;
  expires_at: Timestamp;
  token: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  user_id: string;
};

export type AccountTable = {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: NullableTimestamp;
  refresh_token_expires_at: NullableTimestamp;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type VerificationTable = {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type AdminTable = {
  user_id: string;
  permissions: string;
  added_by: string | null;
  added_at: Timestamp;
  last_active: NullableTimestamp;
};

export type SongTable = {
  id: string;
  title: string;
  title_key: string;
  genre: string;
  release_date: string | null;
  soundcloud_url: string | null;
  submitted_by: string | null;
  status: ColumnType<string, string | undefined, string>;
  verified_at: NullableTimestamp;
  verified_by: string | null;
  upvotes: Int;
  downvotes: Int;
  favorite_count: Int;
  /** Likes of the last 7 days (moved with each like; aged-out likes removed by a periodic refresh). */
  week_likes: Int;
  /** Counted plays (decision 027), and those of the last 7 days (aged-out plays removed by the trending refresh). */
  play_count: Int;
  week_plays: Int;
  report_count: Int;
  version: Int;
  is_hidden: Bool;
  last_edited_by: string | null;
  last_edited_at: NullableTimestamp;
  audio_key: string | null;
  audio_mime: string | null;
  audio_size: number | null;
  audio_sha256: string | null;
  duration_sec: number | null;
  sample_rate: number | null;
  channels: number | null;
  audio_min: number | null;
  audio_max: number | null;
  audio_mean: number | null;
  silence_ratio: number | null;
  fingerprinted_at: NullableTimestamp;
  fingerprint_preset: string | null;
  invariant_preset: string | null;
  invariant_at: NullableTimestamp;
  audio_match_song_id: string | null;
  audio_match_confidence: number | null;
  /** When an admin resolved the song as a fake leak, and who (decision 015). */
  fake_at: NullableTimestamp;
  fake_by: string | null;
  /** Leak details (issue 16): producers and features are JSON arrays of names; leak_date is YYYY-MM-DD. */
  era: string | null;
  producers: string | null;
  features: string | null;
  leak_date: string | null;
  availability: string | null;
  quality: string | null;
  notes: string | null;
  /** Tracker details (issue 27): reference_names, aliases and tags are JSON arrays; file_date is YYYY-MM-DD. */
  reference_names: string | null;
  aliases: string | null;
  version_label: string | null;
  tags: string | null;
  file_date: string | null;
  track_length: number | null;
  /** The song this one is a version of, and how (snippet, remix, alternate, official). */
  version_of: string | null;
  version_kind: string | null;
  /** The import batch that created the song. */
  import_batch_id: string | null;
  /** Where the leak can be found: JSON array of http(s) addresses (issue 37). */
  links: string | null;
  /** When the artist's linked tracker sheet stopped listing the song (issue 37). */
  tracker_removed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type SongArtistTable = { song_id: string; artist_id: string; position: number };

export type VoteTable = {
  song_id: string;
  user_id: string;
  value: number;
  reason: string | null;
  details: string | null;
  /** Whether the vote counts toward verification (its voter was eligible; decision 014). */
  counted: Bool;
  /** Where the vote came from: IP prefix and device cookie, for the admins' ring view (decision 015). */
  ip_prefix: string | null;
  device: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type FavoriteTable = { song_id: string; user_id: string; created_at: Timestamp };

/** A counted play (decision 027): `listener` is a keyed hash of a member's id or a visitor's network, never either. */
export type SongPlayTable = { id: string; song_id: string; listener: string; created_at: Timestamp };
export type FollowTable = { follower_id: string; artist_id: string; created_at: Timestamp };

export type ReportTable = {
  id: string;
  song_id: string;
  user_id: string;
  reason: string;
  details: ColumnType<string, string | undefined, string>;
  status: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  processed_at: NullableTimestamp;
  processed_by: string | null;
  /** A clip the reporter attached from Identify (migration 0021), under $DATA_DIR/report-clips. */
  clip_key: ColumnType<string | null, string | null | undefined, string | null>;
  clip_mime: ColumnType<string | null, string | null | undefined, string | null>;
};

export type EditSuggestionTable = {
  id: string;
  song_id: string;
  base_version: number;
  original: string;
  suggested: string;
  reason: string;
  status: ColumnType<string, string | undefined, string>;
  submitted_by: string;
  submitted_at: Timestamp;
  reviewed_by: string | null;
  reviewed_at: NullableTimestamp;
  review_notes: string | null;
};

export type SongHistoryTable = {
  id: string;
  song_id: string;
  version: number;
  previous: string;
  comment: string | null;
  edited_by: string | null;
  edited_at: Timestamp;
};

export type ImportBatchTable = {
  id: string;
  created_by: string | null;
  created_at: Timestamp;
  file_name: string;
  file_sha256: string;
  options: string;
  status: string;
  total_rows: Int;
  processed_rows: Int;
  created_count: Int;
  updated_count: Int;
  skipped_count: Int;
  error: string | null;
  finished_at: NullableTimestamp;
  undone_at: NullableTimestamp;
  undone_by: string | null;
  /** file | sync (issue 37). */
  source: ColumnType<string, string | undefined, string>;
  link_id: string | null;
  /** A sync waiting for approval: the fetched sheet and how it was read (JSON). */
  plan: string | null;
  hold_reason: string | null;
  approved_by: string | null;
  removed_count: ColumnType<number, number | undefined, number>;
  renamed_count: ColumnType<number, number | undefined, number>;
};
/** What a batch did to an era (created, or updated with its previous values), for its undo. */
export type ImportEraChangeTable = { batch_id: string; era_id: string; action: string; previous: string | null };
/** An artist's tracker linked to a published sheet (issue 37, decision 030). */
export type TrackerLinkTable = {
  id: string;
  artist_id: string;
  source_url: string;
  url: string;
  interval_minutes: number;
  as_verified: Bool;
  options: string;
  status: string;
  approved_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  etag: string | null;
  last_modified: string | null;
  content_sha256: string | null;
  last_checked_at: NullableTimestamp;
  last_changed_at: NullableTimestamp;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  failures: ColumnType<number, number | undefined, number>;
  next_sync_at: NullableTimestamp;
  lease_until: NullableTimestamp;
};
/** A sheet row's identity within a link, the song it is and its content's hash. */
export type TrackerLinkRowTable = {
  link_id: string;
  row_key: string;
  song_id: string;
  content_hash: string | null;
  rest_hash: string | null;
  removed: Bool;
};
/** One line of an artist's changelog. */
export type ArtistChangeTable = {
  id: string;
  artist_id: string;
  song_id: string | null;
  kind: string;
  summary: string;
  source: string;
  batch_id: string | null;
  created_at: Timestamp;
};
export type ImportChangeTable = { batch_id: string; song_id: string; action: string; previous: string | null };
export type ImportMappingTable = {
  header_key: string;
  mapping: string;
  updated_by: string | null;
  updated_at: Timestamp;
};

export type WaitlistEntryTable = { id: string; name: string; email: string; created_at: Timestamp };
export type WaitlistApprovalTable = { email: string; approved_by: string | null; approved_at: Timestamp };
export type FingerprintTable = { hash: number; song_id: string; offset: number };

/** Rows of `fingerprint` per hash, kept by triggers (migration 0017). */
export type FingerprintHashTable = { hash: number; n: number };
/** The invariant index (migration 0020): song numbers, entries by composite key, and rows per key. */
export type FingerprintSongTable = { no: Generated<number>; song_id: string | null; created_at: Timestamp };
export type FingerprintTripletTable = { ckey: number; entry: number };
export type FingerprintTripletKeyTable = { key: number; n: number };

export type PointsLedgerTable = {
  id: string;
  user_id: string;
  delta: number;
  reason: string;
  ref: string | null;
  created_at: Timestamp;
};

export type RateLimitTable = { key: string; count: Int; expires_at: number };

export type AuditLogTable = {
  id: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: string;
  created_at: Timestamp;
};

export type NotificationTable = {
  id: string;
  user_id: string;
  kind: string;
  payload: string;
  read_at: NullableTimestamp;
  created_at: Timestamp;
};

export type JobTable = {
  id: string;
  kind: string;
  payload: string;
  status: ColumnType<string, string | undefined, string>;
  attempts: Int;
  last_error: string | null;
  run_after: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type NotificationSettingTable = { user_id: string; kind: string; enabled: Bool };

/** The whole relational model of DESIGN §4. */
/** An artist's era (issue 27): what a tracker says of the era itself; songs name it in song.era. */
export type EraTable = {
  id: string;
  artist_id: string;
  name: string;
  name_key: string;
  description: string | null;
  cover_url: string | null;
  starts_on: string | null;
  ends_on: string | null;
  /** The era's counts as its sheet states them: JSON [{count, label}] (issue 37). */
  sheet_counts: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type DB = {
  era: EraTable;
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  admin: AdminTable;
  song: SongTable;
  import_batch: ImportBatchTable;
  import_change: ImportChangeTable;
  import_era_change: ImportEraChangeTable;
  tracker_link: TrackerLinkTable;
  tracker_link_row: TrackerLinkRowTable;
  artist_change: ArtistChangeTable;
  import_mapping: ImportMappingTable;
  song_artist: SongArtistTable;
  vote: VoteTable;
  favorite: FavoriteTable;
  song_play: SongPlayTable;
  follow: FollowTable;
  report: ReportTable;
  edit_suggestion: EditSuggestionTable;
  song_history: SongHistoryTable;
  waitlist_entry: WaitlistEntryTable;
  waitlist_approval: WaitlistApprovalTable;
  fingerprint: FingerprintTable;
  fingerprint_hash: FingerprintHashTable;
  fingerprint_song: FingerprintSongTable;
  fingerprint_triplet: FingerprintTripletTable;
  fingerprint_triplet_key: FingerprintTripletKeyTable;
  points_ledger: PointsLedgerTable;
  rate_limit: RateLimitTable;
  audit_log: AuditLogTable;
  notification: NotificationTable;
  notification_setting: NotificationSettingTable;
  job: JobTable;
};

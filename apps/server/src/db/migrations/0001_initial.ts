import { type Kysely, sql } from "kysely";
import { columnTypes } from "../column-types.js";

/** The whole data model of DESIGN §4, on SQLite and PostgreSQL alike. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const falsy = t.falseValue;

  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("image", "text")
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("username_key", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("bio", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_public", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("is_artist", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("is_verified", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("is_placeholder", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("upload_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("off_waitlist", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("instagram", "text")
    .addColumn("twitter", "text")
    .addColumn("website", "text")
    .execute();
  await db.schema.createIndex("user_artist_idx").on("user").columns(["is_artist", "username_key"]).execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expires_at", t.ts, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("session_user_idx").on("session").column("user_id").execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", t.ts)
    .addColumn("refresh_token_expires_at", t.ts)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_user_idx").on("account").column("user_id").execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", t.ts, (c) => c.notNull())
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();

  await db.schema
    .createTable("admin")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("permissions", "text", (c) => c.notNull())
    .addColumn("added_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("added_at", t.ts, (c) => c.notNull())
    .addColumn("last_active", t.ts)
    .execute();

  await db.schema
    .createTable("song")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("title_key", "text", (c) => c.notNull())
    .addColumn("genre", "text", (c) => c.notNull())
    .addColumn("release_date", "text")
    .addColumn("soundcloud_url", "text")
    .addColumn("submitted_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("verified_at", t.ts)
    .addColumn("verified_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("upvotes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("downvotes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("favorite_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("report_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_hidden", t.bool, (c) => c.notNull().defaultTo(falsy))
    .addColumn("last_edited_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("last_edited_at", t.ts)
    .addColumn("audio_key", "text")
    .addColumn("audio_mime", "text")
    .addColumn("audio_size", "integer")
    .addColumn("audio_sha256", "text")
    .addColumn("duration_sec", t.real)
    .addColumn("sample_rate", "integer")
    .addColumn("channels", "integer")
    .addColumn("audio_min", t.real)
    .addColumn("audio_max", t.real)
    .addColumn("audio_mean", t.real)
    .addColumn("silence_ratio", t.real)
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .addCheckConstraint("song_status_check", sql`status in ('pending', 'verified')`)
    .execute();
  // Feeds of spec §7: newest, by status, trending by genre, duplicates by title, by submitter.
  await db.schema.createIndex("song_created_idx").on("song").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("song_status_created_idx").on("song").columns(["status", "created_at", "id"]).execute();
  await db.schema.createIndex("song_genre_favs_idx").on("song").columns(["genre", "favorite_count"]).execute();
  await db.schema.createIndex("song_title_key_idx").on("song").column("title_key").execute();
  await db.schema.createIndex("song_submitted_by_idx").on("song").columns(["submitted_by", "created_at"]).execute();
  await db.schema.createIndex("song_release_idx").on("song").column("release_date").execute();

  await db.schema
    .createTable("song_artist")
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("artist_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("song_artist_pk", ["song_id", "artist_id"])
    .execute();
  await db.schema.createIndex("song_artist_artist_idx").on("song_artist").columns(["artist_id", "song_id"]).execute();

  await db.schema
    .createTable("vote")
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("value", "integer", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("details", "text")
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    // One vote per user and song, enforced here and not only in code.
    .addPrimaryKeyConstraint("vote_pk", ["song_id", "user_id"])
    .addCheckConstraint("vote_value_check", sql`value in (-1, 1)`)
    .execute();
  await db.schema.createIndex("vote_user_idx").on("vote").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("favorite")
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("favorite_pk", ["user_id", "song_id"])
    .execute();
  // Trending: favourites added in the last 7 days, grouped by song.
  await db.schema.createIndex("favorite_created_idx").on("favorite").columns(["created_at", "song_id"]).execute();
  await db.schema.createIndex("favorite_song_idx").on("favorite").column("song_id").execute();

  await db.schema
    .createTable("follow")
    .addColumn("follower_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("artist_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("follow_pk", ["follower_id", "artist_id"])
    .execute();
  await db.schema.createIndex("follow_artist_idx").on("follow").column("artist_id").execute();

  await db.schema
    .createTable("report")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("processed_at", t.ts)
    .addColumn("processed_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addCheckConstraint("report_status_check", sql`status in ('pending', 'resolved', 'rejected')`)
    .execute();
  await db.schema.createIndex("report_status_idx").on("report").columns(["status", "created_at"]).execute();
  // One open report per user and song.
  await db.schema
    .createIndex("report_open_unique")
    .on("report")
    .columns(["song_id", "user_id"])
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();

  await db.schema
    .createTable("edit_suggestion")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("base_version", "integer", (c) => c.notNull())
    .addColumn("original", "text", (c) => c.notNull())
    .addColumn("suggested", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("submitted_by", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("submitted_at", t.ts, (c) => c.notNull())
    .addColumn("reviewed_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("reviewed_at", t.ts)
    .addColumn("review_notes", "text")
    .addCheckConstraint("edit_suggestion_status_check", sql`status in ('pending', 'approved', 'rejected')`)
    .execute();
  await db.schema
    .createIndex("edit_suggestion_status_idx")
    .on("edit_suggestion")
    .columns(["status", "submitted_at"])
    .execute();
  await db.schema.createIndex("edit_suggestion_song_idx").on("edit_suggestion").column("song_id").execute();

  await db.schema
    .createTable("song_history")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("previous", "text", (c) => c.notNull())
    .addColumn("comment", "text")
    .addColumn("edited_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("edited_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("song_history_song_idx").on("song_history").columns(["song_id", "version"]).execute();

  await db.schema
    .createTable("waitlist_entry")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("waitlist_entry_created_idx").on("waitlist_entry").column("created_at").execute();

  await db.schema
    .createTable("waitlist_approval")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("approved_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("approved_at", t.ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("fingerprint")
    .addColumn("hash", "integer", (c) => c.notNull())
    .addColumn("song_id", "text", (c) => c.notNull().references("song.id").onDelete("cascade"))
    .addColumn("offset", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("fingerprint_hash_idx").on("fingerprint").column("hash").execute();
  await db.schema.createIndex("fingerprint_song_idx").on("fingerprint").column("song_id").execute();

  await db.schema
    .createTable("points_ledger")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("delta", "integer", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("ref", "text")
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("points_ledger_user_idx")
    .on("points_ledger")
    .columns(["user_id", "created_at"])
    .execute();
  // The +200 for a verified song is paid once per song, ever.
  await db.schema
    .createIndex("points_ledger_verified_once")
    .on("points_ledger")
    .column("ref")
    .unique()
    .where(sql.ref("reason"), "=", "song_verified")
    .execute();

  await db.schema
    .createTable("rate_limit")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("expires_at", t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_expires_idx").on("rate_limit").column("expires_at").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actor_id", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text")
    .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("created_at").execute();

  await db.schema
    .createTable("notification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("read_at", t.ts)
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("notification_user_idx").on("notification").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("job")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("run_after", t.ts, (c) => c.notNull())
    .addColumn("created_at", t.ts, (c) => c.notNull())
    .addColumn("updated_at", t.ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("job_status_idx").on("job").columns(["status", "run_after"]).execute();
}

/** Drop everything, children first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "job",
    "notification",
    "audit_log",
    "rate_limit",
    "points_ledger",
    "fingerprint",
    "waitlist_approval",
    "waitlist_entry",
    "song_history",
    "edit_suggestion",
    "report",
    "follow",
    "favorite",
    "vote",
    "song_artist",
    "song",
    "admin",
    "verification",
    "account",
    "session",
    "user",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/** Follower counts kept on the artist row, notification settings and the daily digest. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("user")
    .addColumn("follower_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("user")
    .addColumn("email_digest", t.bool, (c) => c.notNull().defaultTo(t.falseValue))
    .execute();
  await db.schema.alterTable("user").addColumn("last_digest_at", t.ts).execute();
  await db.schema
    .createTable("notification_setting")
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("enabled", t.bool, (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_setting_pk", ["user_id", "kind"])
    .execute();
  await db.schema.createIndex("follow_follower_idx").on("follow").columns(["follower_id", "created_at"]).execute();
  await db.schema.createIndex("notification_unread_idx").on("notification").columns(["user_id", "read_at"]).execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("notification_unread_idx").execute();
  await db.schema.dropIndex("follow_follower_idx").execute();
  await db.schema.dropTable("notification_setting").execute();
  await db.schema.alterTable("user").dropColumn("last_digest_at").execute();
  await db.schema.alterTable("user").dropColumn("email_digest").execute();
  await db.schema.alterTable("user").dropColumn("follower_count").execute();
}

import type { Kysely } from "kysely";
import { columnTypes } from "../column-types.js";

/**
 * Trust, rings and fake leaks (decision 015): where an account signed up and where each vote came from (an IP
 * prefix and a device cookie, for the admins' ring view), when a song was resolved as a fake leak (its backers
 * lose the points earned on it), and the index the daily report cap counts with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("user").addColumn("signup_ip_prefix", "text").execute();
  await db.schema.alterTable("user").addColumn("signup_device", "text").execute();
  await db.schema.alterTable("vote").addColumn("ip_prefix", "text").execute();
  await db.schema.alterTable("vote").addColumn("device", "text").execute();
  await db.schema.alterTable("song").addColumn("fake_at", t.ts).execute();
  await db.schema.alterTable("song").addColumn("fake_by", "text").execute();
  await db.schema.createIndex("report_user_idx").on("report").columns(["user_id", "created_at"]).execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("report_user_idx").execute();
  await db.schema.alterTable("song").dropColumn("fake_by").execute();
  await db.schema.alterTable("song").dropColumn("fake_at").execute();
  await db.schema.alterTable("vote").dropColumn("device").execute();
  await db.schema.alterTable("vote").dropColumn("ip_prefix").execute();
  await db.schema.alterTable("user").dropColumn("signup_device").execute();
  await db.schema.alterTable("user").dropColumn("signup_ip_prefix").execute();
}

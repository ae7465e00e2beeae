import { type Kysely, sql } from "kysely";
import { columnTypes, isPostgres } from "../column-types.js";

/**
 * Votes from members who are not yet eligible are kept but do not count (decision 014): each vote says whether
 * it counts, and the song's counters count only those. An admin may discount a member's votes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const truthy = isPostgres(db) ? sql`true` : sql`1`;
  // Votes cast before the rule counted (the counters already include them).
  await db.schema
    .alterTable("vote")
    .addColumn("counted", t.bool, (c) => c.notNull().defaultTo(truthy))
    .execute();
  await db.schema
    .alterTable("user")
    .addColumn("votes_discounted", t.bool, (c) => c.notNull().defaultTo(t.falseValue))
    .execute();
  // The periodic recount looks for voters whose votes do not count yet.
  await db.schema.createIndex("vote_uncounted_idx").on("vote").columns(["counted", "user_id"]).execute();
}

/** Undo the above. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("vote_uncounted_idx").execute();
  await db.schema.alterTable("user").dropColumn("votes_discounted").execute();
  await db.schema.alterTable("vote").dropColumn("counted").execute();
}

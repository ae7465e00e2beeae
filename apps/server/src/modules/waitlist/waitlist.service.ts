import { MESSAGES, offWaitlistMessage, type WaitlistEntry } from "@unheard/shared";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { oldestFirstPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";

/** Let an e-mail's account (when it has one yet) off the waitlist and record who did, in the caller's transaction. */
async function letIn(trx: Kysely<DB>, viewer: Viewer, userId: string | null, email: string): Promise<void> {
  if (userId)
    await trx.updateTable("user").set({ off_waitlist: true, updated_at: nowIso() }).where("id", "=", userId).execute();
  await audit(trx, viewer.id, "user.off_waitlist", userId, { email });
}

/**
 * Who waits (spec §4, DESIGN §5 gate), as one queue: entries of the join form and, while the gate is on, accounts
 * not yet let in that never used the form (registering is joining). Issue 25: the admin list showed form entries
 * only, so an admin was told "Nobody is waiting" while registered members waited.
 */
function waitingQuery(db: Kysely<DB>, gate: boolean) {
  const entries = db
    .selectFrom("waitlist_entry")
    .leftJoin("user", "user.email", "waitlist_entry.email")
    .select([
      "waitlist_entry.id as id",
      "waitlist_entry.name as name",
      "waitlist_entry.email as email",
      "waitlist_entry.created_at as created_at",
      "user.id as user_id",
      "user.email_verified as email_verified",
    ]);
  if (!gate) return db.selectFrom(entries.as("w"));
  const accounts = db
    .selectFrom("user")
    .select([
      "user.id as id",
      "user.username as name",
      "user.email as email",
      "user.created_at as created_at",
      "user.id as user_id",
      "user.email_verified as email_verified",
    ])
    .where("user.off_waitlist", "=", false)
    .where("user.role", "not in", ["admin", "super_admin"])
    // Artist profiles made from credits are accounts nobody can sign in to: they never wait.
    .where("user.is_placeholder", "=", false)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("waitlist_entry").select("waitlist_entry.id").whereRef("waitlist_entry.email", "=", "user.email"),
        ),
      ),
    );
  return db.selectFrom(entries.unionAll(accounts).as("w"));
}

/** The waitlist (spec §4, DESIGN §5 gate): join, list, approve. */
export function createWaitlistService(deps: { database: Database; bus: EventBus; waitlistGate: boolean }) {
  const { database, bus, waitlistGate } = deps;
  const { db } = database;
  return {
    /** Joining twice with one e-mail keeps the first entry (and its place in the queue). */
    async join(name: string, email: string): Promise<void> {
      await db
        .insertInto("waitlist_entry")
        .values({ id: newId(), name, email, created_at: nowIso() })
        .onConflict((oc) => oc.column("email").doNothing())
        .execute();
    },

    /**
     * Everyone waiting, oldest first, a page at a time (keyset on join time and id): anyone may join (20 an hour per
     * address), so a flood must not bury later entries behind a cut (it showed the oldest 1000); `total` counts all.
     */
    async list(
      cursor: string | undefined,
      limit: number,
    ): Promise<{ items: WaitlistEntry[]; nextCursor: string | null; total: number }> {
      const query = waitingQuery(db, waitlistGate).selectAll("w");
      const { page, nextCursor } = await oldestFirstPage(
        query,
        "w.created_at",
        "w.id",
        cursor,
        limit,
        (r) => r.created_at,
      );
      const items = page.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        createdAt: toIso(r.created_at),
        hasAccount: Boolean(r.user_id),
        emailVerified: Boolean(r.email_verified),
      }));
      return { items, nextCursor, total: await this.count() };
    },

    /**
     * Approve one person of the queue: a form entry (its account now, or the account its e-mail registers later) or
     * a waiting account, by the id the list gave.
     */
    async approve(viewer: Viewer, id: string): Promise<{ message: string; userFound: boolean }> {
      const entry = await db.selectFrom("waitlist_entry").select("id").where("id", "=", id).executeTakeFirst();
      if (entry) return this.approveEntry(viewer, id);
      const user = await db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst();
      if (!user) throw new AppError("not_found", "Waitlist entry not found");
      return { message: await this.approveUser(viewer, id), userFound: true };
    },

    /** Let the entry's e-mail in: its account now, or the account it registers later. */
    async approveEntry(viewer: Viewer, entryId: string): Promise<{ message: string; userFound: boolean }> {
      const result = await database.tx(async (trx) => {
        const entry = await trx.selectFrom("waitlist_entry").selectAll().where("id", "=", entryId).executeTakeFirst();
        if (!entry) throw new AppError("not_found", "Waitlist entry not found");
        const user = await trx.selectFrom("user").select("id").where("email", "=", entry.email).executeTakeFirst();
        await letIn(trx, viewer, user?.id ?? null, entry.email);
        await trx
          .insertInto("waitlist_approval")
          .values({ email: entry.email, approved_by: viewer.id, approved_at: nowIso() })
          .onConflict((oc) => oc.column("email").doNothing())
          .execute();
        await trx.deleteFrom("waitlist_entry").where("id", "=", entryId).execute();
        return { email: entry.email, userId: user?.id };
      });
      if (result.userId) await bus.publish({ type: "me.changed", userId: result.userId });
      return result.userId
        ? { message: offWaitlistMessage(result.email), userFound: true }
        : { message: MESSAGES.waitlistNoUser, userFound: false };
    },

    /** Let a registered user in directly (someone who never joined the list). */
    async approveUser(viewer: Viewer, userId: string): Promise<string> {
      const email = await database.tx(async (trx) => {
        const user = await trx.selectFrom("user").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
        if (!user) throw new AppError("not_found", MESSAGES.userNotFound);
        await letIn(trx, viewer, userId, user.email);
        await trx.deleteFrom("waitlist_entry").where("email", "=", user.email).execute();
        return user.email;
      });
      await bus.publish({ type: "me.changed", userId });
      return offWaitlistMessage(email);
    },

    /** How many wait: form entries and, while the gate is on, accounts not let in. */
    async count(): Promise<number> {
      const row = await waitingQuery(db, waitlistGate).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/** The waitlist service type. */
export type WaitlistService = ReturnType<typeof createWaitlistService>;

import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
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

/** The waitlist (spec §4, DESIGN §5 gate): join, list, approve. */
export function createWaitlistService(deps: { database: Database; bus: EventBus }) {
  const { database, bus } = deps;
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

    async list() {
      const rows = await db
        .selectFrom("waitlist_entry")
        .leftJoin("user", "user.email", "waitlist_entry.email")
        .select([
          "waitlist_entry.id",
          "waitlist_entry.name",
          "waitlist_entry.email",
          "waitlist_entry.created_at",
          "user.id as user_id",
        ])
        .orderBy("waitlist_entry.created_at", "asc")
        .limit(1000)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        createdAt: toIso(r.created_at),
        hasAccount: Boolean(r.user_id),
      }));
    },

    /** Let the entry's e-mail in: its account now, or the account it registers later. */
    async approve(viewer: Viewer, entryId: string): Promise<{ message: string; userFound: boolean }> {
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

    async count(): Promise<number> {
      const row = await db.selectFrom("waitlist_entry").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/** The waitlist service type. */
export type WaitlistService = ReturnType<typeof createWaitlistService>;

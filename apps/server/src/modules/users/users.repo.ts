import { ADMIN_PERMISSIONS, type AdminPermission } from "@unheard/shared";
import type { Selectable } from "kysely";
import type { Database } from "../../db/database.js";
import type { UserTable } from "../../db/schema.js";
import { nameKey } from "../../lib/text.js";
import { nowIso } from "../../lib/time.js";
import { randomHandle } from "./handles.js";

/** A user row as read from either dialect. */
export type UserRow = Selectable<UserTable>;

/** SQL for users. */
export function createUsersRepo(database: Database) {
  const { db } = database;
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /**
     * The songs a member uploaded (song.submitted_by; bulk imports count for the importer), pending and hidden
     * ones too. Counted from the rows when read, so no write path can leave it behind; song_submitted_by_idx
     * answers it without reading a song row.
     */
    async uploadCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom("song")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("submitted_by", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The admin permissions (spec §3) an admin's record grants; none without a record. */
    async adminPermissions(userId: string): Promise<AdminPermission[]> {
      const row = await db.selectFrom("admin").select("permissions").where("user_id", "=", userId).executeTakeFirst();
      if (!row) return [];
      const granted = JSON.parse(row.permissions) as Record<string, unknown>;
      return ADMIN_PERMISSIONS.filter((p) => granted[p] === true);
    },

    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom("user").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    },

    /** Who else holds a name key (a member's username or an artist profile's name), if anyone. */
    nameHolder(key: string, exceptId: string): Promise<{ id: string; is_artist: boolean | number } | undefined> {
      return db
        .selectFrom("user")
        .select(["id", "is_artist"])
        .where("username_key", "=", key)
        .where("id", "!=", exceptId)
        .executeTakeFirst();
    },

    /**
     * A new account's username: a random neutral handle (`quiet-river-4821`), never the e-mail's local part,
     * which songs would show publicly (issue 24). The member may change it on their profile.
     */
    async freeUsername(): Promise<{ name: string; key: string }> {
      for (;;) {
        const name = randomHandle();
        const key = nameKey(name);
        const taken = await db.selectFrom("user").select("id").where("username_key", "=", key).executeTakeFirst();
        if (!taken) return { name, key };
      }
    },

    async isApprovedEmail(email: string): Promise<boolean> {
      const row = await db
        .selectFrom("waitlist_approval")
        .select("email")
        .where("email", "=", email.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Record where an account signed up, only on a row created since `since` (so an existing account is never touched). */
    recordSignup(email: string, since: string, origin: { ipPrefix: string | null; device: string }): Promise<unknown> {
      return db
        .updateTable("user")
        .set({ signup_ip_prefix: origin.ipPrefix, signup_device: origin.device })
        .where("email", "=", email.toLowerCase())
        .where("created_at", ">=", since)
        .where("signup_device", "is", null)
        .execute();
    },

    /** Rename a member; a verified badge belongs to a name, so it never carries over to a new one. */
    updateUsername(id: string, username: string): Promise<unknown> {
      return db
        .updateTable("user")
        .set({ username, username_key: nameKey(username), is_verified: false, updated_at: nowIso() })
        .where("id", "=", id)
        .execute();
    },

    /** At each sign-in: the configured super admin gets its role and admin record (spec §6). */
    async onSignIn(userId: string, superAdminEmail: string | undefined): Promise<void> {
      const user = await db.selectFrom("user").select(["email", "role"]).where("id", "=", userId).executeTakeFirst();
      if (!user) return;
      const now = nowIso();
      if (superAdminEmail && user.email === superAdminEmail) {
        await database.tx(async (trx) => {
          await trx
            .updateTable("user")
            .set({ role: "super_admin", off_waitlist: true, updated_at: now })
            .where("id", "=", userId)
            .execute();
          const permissions = JSON.stringify(Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, true])));
          await trx
            .insertInto("admin")
            .values({ user_id: userId, permissions, added_by: null, added_at: now, last_active: now })
            .onConflict((oc) => oc.column("user_id").doUpdateSet({ last_active: now }))
            .execute();
        });
        return;
      }
      if (user.role === "admin" || user.role === "super_admin") {
        await db.updateTable("admin").set({ last_active: now }).where("user_id", "=", userId).execute();
      }
    },
  };
}

/** The users repo type. */
export type UsersRepo = ReturnType<typeof createUsersRepo>;

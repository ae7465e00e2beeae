import { ADMIN_PERMISSIONS, type AdminPermission, type AuditEntry, MESSAGES, type Role } from "@unheard/shared";
import { type SqlBool, sql } from "kysely";
import type { Database } from "../../db/database.js";
import { AppError } from "../../errors.js";
import { audit } from "../../lib/audit.js";
import { decodeKeyset, keysetPage, newestAfter } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";

/** The permissions a new admin's record grants. */
export const DEFAULT_ADMIN_PERMISSIONS: readonly AdminPermission[] = ["canManageReports", "canEditAllSongs"];

/** Roles an actor may hand out or take back: admins only contributor status, super admins admin too. */
function mayChange(viewer: Viewer, from: Role, to: Role): boolean {
  if (from === "super_admin" || to === "super_admin") return false;
  if (viewer.isSuperAdmin) return true;
  const low = (r: Role) => r === "user" || r === "verified_contributor";
  return viewer.isAdmin && low(from) && low(to);
}

/** Users table, roles and the audit log. */
export function createAdminService(deps: { database: Database; bus: EventBus }) {
  const { database, bus } = deps;
  const { db } = database;
  return {
    async users(q: string | undefined) {
      let query = db
        .selectFrom("user")
        .select(["id", "username", "email", "role", "points", "off_waitlist", "is_artist", "created_at"])
        .where("is_placeholder", "=", false)
        .orderBy("created_at", "desc")
        .limit(100);
      // Literal substring match: LIKE's wildcards in the term are escaped.
      const term = (q ?? "")
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`);
      if (term) {
        const pattern = `%${term}%`;
        query = query.where((eb) =>
          eb.or([
            sql<SqlBool>`username_key like ${pattern} escape '\\'`,
            sql<SqlBool>`email like ${pattern} escape '\\'`,
          ]),
        );
      }
      const rows = await query.execute();
      return rows.map((r) => ({
        id: r.id,
        username: r.username,
        email: r.email,
        role: r.role as Role,
        points: Number(r.points),
        offWaitlist: Boolean(r.off_waitlist),
        isArtist: Boolean(r.is_artist),
        createdAt: toIso(r.created_at),
      }));
    },

    async setRole(viewer: Viewer, userId: string, role: Role): Promise<void> {
      await database.tx(async (trx) => {
        const user = await trx
          .selectFrom("user")
          .select(["id", "role", "is_placeholder"])
          .where("id", "=", userId)
          .executeTakeFirst();
        if (!user || user.is_placeholder) throw new AppError("not_found", MESSAGES.userNotFound);
        const from = user.role as Role;
        if (user.id === viewer.id || !mayChange(viewer, from, role))
          throw new AppError("forbidden", MESSAGES.roleNotAllowed);
        if (from === role) return;
        const now = nowIso();
        await trx
          .updateTable("user")
          .set({ role, off_waitlist: role === "admin" ? true : undefined, updated_at: now })
          .where("id", "=", userId)
          .execute();
        if (role === "admin") {
          // What spec §6 says an admin does: reports, edit suggestions and direct edits. Artists, roles and
          // imports are granted on top (decision 022).
          const permissions = Object.fromEntries(
            ADMIN_PERMISSIONS.map((p) => [p, DEFAULT_ADMIN_PERMISSIONS.includes(p)]),
          );
          await trx
            .insertInto("admin")
            .values({
              user_id: userId,
              permissions: JSON.stringify(permissions),
              added_by: viewer.id,
              added_at: now,
              last_active: null,
            })
            .onConflict((oc) => oc.column("user_id").doNothing())
            .execute();
        } else {
          await trx.deleteFrom("admin").where("user_id", "=", userId).execute();
        }
        await audit(trx, viewer.id, "user.role_changed", userId, { from, to: role });
      });
      await bus.publish({ type: "me.changed", userId });
    },

    /**
     * The audit log, newest first, a page at a time (keyset on time and id), so every entry can be read back however
     * many a busy day writes (it showed the newest 200); `total` counts them all.
     */
    async auditLog(
      cursor: string | undefined,
      limit: number,
    ): Promise<{ items: AuditEntry[]; nextCursor: string | null; total: number }> {
      const after = decodeKeyset(cursor);
      const query = db
        .selectFrom("audit_log")
        .leftJoin("user", "user.id", "audit_log.actor_id")
        .select([
          "audit_log.id",
          "audit_log.action",
          "audit_log.target_type",
          "audit_log.target_id",
          "audit_log.details",
          "audit_log.created_at",
          "user.id as actor_id",
          "user.username as actor_name",
        ]);
      const fetched = await newestAfter(query, "audit_log.created_at", "audit_log.id", after)
        .limit(limit + 1)
        .execute();
      const { page: rows, nextCursor } = keysetPage(fetched, limit, (r) => r.created_at);
      const { n } = await db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      // Name what each entry acted on; a deleted song keeps the title recorded with the entry.
      const ids = (type: string) => [
        ...new Set(rows.filter((r) => r.target_type === type && r.target_id).map((r) => r.target_id as string)),
      ];
      const songIds = ids("song");
      const userIds = ids("user");
      // Reports and edit suggestions are named by their song's title.
      const songTitleVia = (table: "report" | "edit_suggestion") => {
        const list = ids(table);
        return list.length
          ? db
              .selectFrom(table)
              .innerJoin("song", "song.id", `${table}.song_id`)
              .select([`${table}.id`, "song.title as label"])
              .where(`${table}.id`, "in", list)
              .execute()
          : [];
      };
      const [songs, users, reports, suggestions] = await Promise.all([
        songIds.length
          ? db.selectFrom("song").select(["id", "title as label"]).where("id", "in", songIds).execute()
          : [],
        userIds.length
          ? db.selectFrom("user").select(["id", "username as label", "is_artist"]).where("id", "in", userIds).execute()
          : [],
        songTitleVia("report"),
        songTitleVia("edit_suggestion"),
      ]);
      const labels = new Map([...songs, ...users, ...reports, ...suggestions].map((x) => [x.id, x.label]));
      const artists = new Set(users.filter((u) => u.is_artist).map((u) => u.id));
      const items = rows.map((r) => {
        const details = JSON.parse(r.details) as Record<string, unknown>;
        const recorded =
          typeof details.title === "string" ? details.title : typeof details.email === "string" ? details.email : null;
        return {
          id: r.id,
          actor: r.actor_id ? { id: r.actor_id, username: r.actor_name ?? "" } : null,
          action: r.action,
          targetType: r.target_type,
          targetId: r.target_id,
          targetLabel: (r.target_id ? labels.get(r.target_id) : undefined) ?? recorded,
          targetIsArtist: r.target_id ? artists.has(r.target_id) : false,
          details,
          createdAt: toIso(r.created_at),
        };
      });
      return { items, nextCursor, total: Number(n) };
    },
  };
}

/** The admin service type. */
export type AdminService = ReturnType<typeof createAdminService>;

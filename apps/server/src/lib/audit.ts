import type { Kysely } from "kysely";
import type { DB } from "../db/schema.js";
import { newId } from "./ids.js";
import { nowIso } from "./time.js";

/** Moderation actions recorded in the audit log (issue: who, what, when). */
export type AuditAction =
  | "report.resolved"
  | "report.rejected"
  | "song.hidden"
  | "song.unhidden"
  | "song.deleted"
  | "song.verified"
  | "songs.verified_all"
  | "suggestion.approved"
  | "suggestion.rejected"
  | "user.role_changed"
  | "user.off_waitlist"
  | "artist.merged"
  | "artist.claimed"
  | "artist.verified"
  | "artist.unverified";

/** Write one audit row, inside the caller's transaction so it commits with the action. */
export async function audit(
  trx: Kysely<DB>,
  entry: {
    actorId: string;
    action: AuditAction;
    targetType: string;
    targetId: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      id: newId(),
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
      created_at: nowIso(),
    })
    .execute();
}

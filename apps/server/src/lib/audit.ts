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
  | "song.fake"
  | "songs.verified_all"
  | "suggestion.approved"
  | "suggestion.rejected"
  | "user.role_changed"
  | "user.off_waitlist"
  | "user.votes_discounted"
  | "user.votes_restored"
  | "artist.merged"
  | "artist.claimed"
  | "artist.verified"
  | "artist.unverified"
  | "import.run"
  | "import.undone"
  // Trackers linked to sheets (issue 37): a sync's batch, its approval or rejection, and the links themselves.
  | "import.synced"
  | "import.approved"
  | "import.rejected"
  | "tracker.linked"
  | "tracker.changed"
  | "tracker.unlinked";

/** What kind of record each action's target id names. */
const TARGET_TYPE = {
  report: "report",
  song: "song",
  songs: "song",
  suggestion: "edit_suggestion",
  user: "user",
  artist: "user",
  import: "import_batch",
  tracker: "tracker_link",
} as const satisfies Record<string, string>;

/** Write one audit row, inside the caller's transaction so it commits with the action. */
export async function audit(
  trx: Kysely<DB>,
  actorId: string | null,
  action: AuditAction,
  targetId: string | null,
  details: Record<string, unknown> = {},
  /** When it happened: now, unless the demo seed backdates its history. */
  at: string = nowIso(),
): Promise<void> {
  const kind = action.slice(0, action.indexOf(".")) as keyof typeof TARGET_TYPE;
  await trx
    .insertInto("audit_log")
    .values({
      id: newId(),
      actor_id: actorId,
      action,
      target_type: TARGET_TYPE[kind],
      target_id: targetId,
      details: JSON.stringify(details),
      created_at: at,
    })
    .execute();
}

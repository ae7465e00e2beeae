import type { Role } from "@unheard/shared";
import {
  BadgeCheck,
  Check,
  Eye,
  EyeOff,
  FilePenLine,
  FileUp,
  Link2,
  type LucideIcon,
  Mic2,
  RefreshCw,
  RotateCcw,
  ScrollText,
  ShieldQuestion,
  ShieldX,
  Trash2,
  Unlink,
  UserCheck,
  UserCog,
  UserX,
  X,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { linkParts } from "../../lib/format";
import { QueryListPage } from "../../ui/query-list-page";
import { ROLE_LABELS } from "../accounts/role-labels";
import { formatDateTime } from "../moderation/format";
import { QueueLoadMore } from "../moderation/queue-load-more";
import { type AuditEntry, useAuditLog } from "./admin";

type ActionInfo = { label: string; icon: LucideIcon; tone: string };

/** The tints of the action icons, by what the action did. */
const TONE = {
  good: "bg-emerald-500/15 text-emerald-300",
  neutral: "bg-zinc-500/20 text-zinc-300",
  hidden: "bg-amber-500/15 text-amber-300",
  shown: "bg-sky-500/15 text-sky-300",
  removed: "bg-rose-500/15 text-rose-300",
  edit: "bg-violet-500/15 text-violet-300",
  role: "bg-fuchsia-500/15 text-fuchsia-300",
};

// Every action the API writes, as a short verb phrase; unknown ones fall back to their raw name.
const ACTIONS: Record<string, ActionInfo> = {
  "report.resolved": { label: "Resolved a report", icon: Check, tone: TONE.good },
  "report.rejected": { label: "Rejected a report", icon: X, tone: TONE.neutral },
  "song.hidden": { label: "Hid a song", icon: EyeOff, tone: TONE.hidden },
  "song.unhidden": { label: "Unhid a song", icon: Eye, tone: TONE.shown },
  "song.deleted": { label: "Deleted a song", icon: Trash2, tone: TONE.removed },
  "song.verified": { label: "Verified a song", icon: BadgeCheck, tone: TONE.good },
  "song.fake": { label: "Marked a song as a fake leak", icon: ShieldX, tone: TONE.removed },
  "songs.verified_all": { label: "Verified all pending songs", icon: BadgeCheck, tone: TONE.good },
  "suggestion.approved": { label: "Approved an edit suggestion", icon: FilePenLine, tone: TONE.edit },
  "suggestion.rejected": { label: "Rejected an edit suggestion", icon: FilePenLine, tone: TONE.neutral },
  "user.role_changed": { label: "Changed a role", icon: UserCog, tone: TONE.role },
  "user.off_waitlist": { label: "Let someone in", icon: UserCheck, tone: TONE.good },
  "user.votes_discounted": { label: "Discounted a member's votes", icon: UserX, tone: TONE.removed },
  "user.votes_restored": { label: "Restored a member's votes", icon: UserCheck, tone: TONE.shown },
  "artist.merged": { label: "Merged artist profiles", icon: Mic2, tone: TONE.edit },
  "artist.claimed": { label: "Linked an artist profile", icon: Mic2, tone: TONE.edit },
  "artist.verified": { label: "Verified an artist", icon: BadgeCheck, tone: TONE.good },
  "artist.unverified": { label: "Unverified an artist", icon: Mic2, tone: TONE.neutral },
  "import.run": { label: "Imported a tracker spreadsheet", icon: FileUp, tone: TONE.good },
  "import.undone": { label: "Undid an import", icon: RotateCcw, tone: TONE.removed },
  // Trackers linked to published sheets (issue 37).
  "import.synced": { label: "Synced a linked tracker", icon: RefreshCw, tone: TONE.good },
  "import.approved": { label: "Approved a tracker sync", icon: Check, tone: TONE.good },
  "import.rejected": { label: "Rejected a tracker sync", icon: X, tone: TONE.neutral },
  "tracker.linked": { label: "Linked a tracker sheet", icon: Link2, tone: TONE.edit },
  "tracker.changed": { label: "Changed a tracker link", icon: Link2, tone: TONE.edit },
  "tracker.unlinked": { label: "Unlinked a tracker sheet", icon: Unlink, tone: TONE.removed },
};

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);
const roleLabel = (v: unknown): string => ROLE_LABELS[v as Role] ?? String(v);

/** /admin/audit (super admin): every moderation action, newest first: who did what, to what, when. */
export function AdminAuditPage() {
  const log = useAuditLog();
  return (
    <QueryListPage
      title="Audit Log"
      subtitle="Every moderation action, newest first."
      query={{ ...log, data: log.data?.items }}
      loadingLabel="Loading the audit log"
      errorMessage="Failed to load the audit log"
      empty={{
        icon: ScrollText,
        title: "Nothing has happened yet.",
        text: "Resolved reports, reviewed suggestions, hidden songs and role changes will be listed here.",
      }}
    >
      {(items) => (
        <>
          <ol aria-label="Audit log" className="overflow-hidden rounded-2xl border border-white/[0.06] bg-zinc-900/60">
            {items.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ol>
          <QueueLoadMore query={log} />
        </>
      )}
    </QueryListPage>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const info = ACTIONS[entry.action] ?? { label: entry.action, icon: ShieldQuestion, tone: TONE.neutral };
  return (
    <li className="flex items-start gap-3 border-t border-white/[0.06] px-4 py-3.5 first:border-t-0 md:px-5">
      <span className={`grid size-9 shrink-0 place-items-center rounded-xl ${info.tone}`}>
        <info.icon aria-hidden className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm text-zinc-200">
          {entry.actor ? (
            <PersonLink name={entry.actor.username} strong />
          ) : (
            <span className="font-semibold text-white">System</span>
          )}{" "}
          <span>{info.label.charAt(0).toLowerCase() + info.label.slice(1)}</span>
        </p>
        {/* mt-1.5: the links of the two lines stay 24 px apart, centre to centre (WCAG 2.5.8). */}
        <p className="mt-1.5 text-sm break-words text-zinc-400">{target(entry)}</p>
      </div>
      <time dateTime={entry.createdAt} className="shrink-0 text-right text-xs whitespace-nowrap text-zinc-500">
        {formatDateTime(entry.createdAt)}
      </time>
    </li>
  );
}

/** A tracker link's entry: the artist's page and the sheet's host (the address whole on hover). */
function trackerTarget(d: Record<string, unknown>): ReactNode {
  const url = str(d.url);
  const host = url ? (linkParts(url)?.host ?? url) : undefined;
  const artistId = str(d.artistId);
  const sheet = host ? <span title={url}>{host}</span> : "A tracker sheet";
  if (!artistId) return sheet;
  return (
    <>
      <Link to={`/artists/${encodeURIComponent(artistId)}`} className={linkClass}>
        The artist's tracker
      </Link>{" "}
      · {sheet}
    </>
  );
}

const linkClass = "text-violet-300 underline decoration-violet-300/40 underline-offset-2 hover:decoration-violet-300";

function songLink(id: string, title?: string): ReactNode {
  return (
    <Link to={`/song/${id}`} className={linkClass}>
      {title ?? "View song"}
    </Link>
  );
}

/**
 * A person named in the log, linked where admins can act on them: an artist to their page, a member to the users
 * screen searched for their name (members have no public page).
 */
function PersonLink({ name, artistId, strong }: { name: string; artistId?: string; strong?: boolean }) {
  const to = artistId ? `/artists/${artistId}` : `/admin/users?q=${encodeURIComponent(name)}`;
  return (
    <Link to={to} className={`${linkClass} ${strong ? "font-semibold" : "font-medium"}`}>
      {name}
    </Link>
  );
}

/** The account an entry acted on, by name (issue 25: it read "user <id>"). */
function targetPerson(entry: AuditEntry, fallback: string): ReactNode {
  if (!entry.targetId || !entry.targetLabel) return <span className="font-medium text-zinc-200">{fallback}</span>;
  return <PersonLink name={entry.targetLabel} artistId={entry.targetIsArtist ? entry.targetId : undefined} />;
}

/** What the action was done to, as far as the entry tells. */
function target(entry: AuditEntry): ReactNode {
  const d = entry.details;
  const songId = entry.targetType === "song" ? entry.targetId : str(d.songId);
  if (entry.action === "user.votes_discounted" || entry.action === "user.votes_restored") {
    return targetPerson(entry, "A member");
  }
  if (entry.action === "user.role_changed") {
    return (
      <>
        {targetPerson(entry, "A user")}: {roleLabel(d.from)} → {roleLabel(d.to)}
      </>
    );
  }
  if (entry.action === "user.off_waitlist") {
    const email = str(d.email) ?? "unknown e-mail";
    return entry.targetId && entry.targetLabel ? (
      <>
        {targetPerson(entry, "A member")} · {email}
      </>
    ) : (
      `${email} (no account yet)`
    );
  }
  if (entry.action === "artist.merged" || entry.action === "artist.claimed") {
    const merged = str(d.mergedName) ?? "a profile";
    return (
      <>
        {merged} → {targetPerson(entry, "An artist")}
      </>
    );
  }
  if (entry.action === "songs.verified_all") return `${Number(d.count ?? 0)} songs`;
  if (entry.action === "import.run")
    return `${str(d.fileName) ?? "A file"}: ${Number(d.created ?? 0)} created, ${Number(d.updated ?? 0)} updated`;
  if (entry.action === "import.undone")
    return `${str(d.fileName) ?? "A file"}: ${Number(d.deleted ?? 0)} deleted, ${Number(d.restored ?? 0)} restored`;
  if (entry.action === "import.synced") {
    const counts = [
      `${Number(d.created ?? 0)} created`,
      `${Number(d.updated ?? 0)} updated`,
      ...(Number(d.removed ?? 0) > 0 ? [`${Number(d.removed)} removed from the tracker`] : []),
      ...(Number(d.renamed ?? 0) > 0 ? [`${Number(d.renamed)} renamed`] : []),
    ];
    return `${str(d.fileName) ?? "A linked sheet"}: ${counts.join(", ")}`;
  }
  if (entry.action === "import.approved" || entry.action === "import.rejected")
    return str(entry.targetLabel) ?? "A sync of a linked sheet";
  if (entry.action.startsWith("tracker.")) return trackerTarget(d);
  if (entry.action === "song.deleted") return str(d.title) ?? "A song";
  if (entry.targetType === "user") return targetPerson(entry, "An account that no longer exists");
  if (songId) {
    const kind =
      entry.targetType === "report"
        ? "Report on a song"
        : entry.targetType === "edit_suggestion"
          ? "Suggestion for a song"
          : "Song";
    return (
      <>
        {kind} · {songLink(songId, entry.targetLabel ?? undefined)}
      </>
    );
  }
  // Never a raw id: what kind of record it was, and its name when the entry recorded one.
  return entry.targetLabel ?? entry.targetType.replace(/_/g, " ");
}

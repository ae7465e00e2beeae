import type { AppNotification, NotificationKind } from "@unheard/shared";
import { clsx } from "clsx";
import { differenceInSeconds, formatDistanceToNowStrict, isValid, parseISO } from "date-fns";
import { BadgeCheck, Clock, Disc3, Flag, ListPlus, Pencil } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { Link } from "react-router";
import { trackerUpdateText } from "./tracker-update";

/** Readable names of the notification kinds, as the profile's settings list them. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, { label: string; description: string }> = {
  new_song: {
    label: "New songs by artists you follow",
    description: "When someone uploads a song by an artist you follow.",
  },
  song_verified: {
    label: "Songs verified",
    description: "When a song you uploaded, favourited or voted on becomes verified.",
  },
  song_unverified: {
    label: "Songs back to pending",
    description: "When a song you uploaded, favourited or voted on returns to pending.",
  },
  report_processed: { label: "Reports processed", description: "When an admin resolves or dismisses your report." },
  suggestion_processed: {
    label: "Edit suggestions reviewed",
    description: "When an admin approves or rejects your suggested edit.",
  },
  tracker_update: {
    label: "Tracker updates",
    description: "New songs and upgrades when a followed artist's tracker changes.",
  },
};

const ICONS: Record<NotificationKind, ComponentType<{ className?: string; "aria-hidden"?: boolean }>> = {
  new_song: Disc3,
  song_verified: BadgeCheck,
  song_unverified: Clock,
  report_processed: Flag,
  suggestion_processed: Pencil,
  tracker_update: ListPlus,
};

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * What a notification says, as parts to render (the song title stands out) and as plain text, and where it leads:
 * its song, or (a tracker update) the artist's page.
 */
export function describeNotification(n: AppNotification): { body: ReactNode; text: string; to: string } {
  const p = n.payload;
  const songId = str(p.songId);
  const to = songId ? `/song/${encodeURIComponent(songId)}` : "";
  const title = str(p.songTitle) || "a song";
  const quoted = `“${title}”`;
  const strong = <span className="font-semibold text-white">{quoted}</span>;
  const status = str(p.status);
  switch (n.kind) {
    case "new_song": {
      const artists = Array.isArray(p.artists) ? p.artists.filter((a): a is string => typeof a === "string") : [];
      const by = artists.length > 0 ? artists.join(", ") : "an artist you follow";
      return {
        body: (
          <>
            New song by <span className="font-medium text-zinc-100">{by}</span>: {strong}
          </>
        ),
        text: `New song by ${by}: ${quoted}`,
        to,
      };
    }
    case "song_verified":
      return { body: <>{strong} was verified</>, text: `${quoted} was verified`, to };
    case "song_unverified":
      return { body: <>{strong} went back to pending</>, text: `${quoted} went back to pending`, to };
    case "report_processed": {
      const outcome =
        status === "resolved" ? "was resolved" : status === "rejected" ? "was dismissed" : "was processed";
      return {
        body: (
          <>
            Your report on {strong} {outcome}
          </>
        ),
        text: `Your report on ${quoted} ${outcome}`,
        to,
      };
    }
    case "suggestion_processed": {
      const outcome = status === "approved" ? "was approved" : status === "rejected" ? "was rejected" : "was reviewed";
      return {
        body: (
          <>
            Your edit suggestion for {strong} {outcome}
          </>
        ),
        text: `Your edit suggestion for ${quoted} ${outcome}`,
        to,
      };
    }
    case "tracker_update": {
      // "Mara Quill's tracker: 2 new songs, 1 upgrade", then a few of the songs' lines.
      const update = trackerUpdateText(p);
      return {
        body: (
          <>
            <span className="font-semibold text-white">{update.artist}</span>: {update.summary}
            {update.lines.length > 0 ? (
              <span className="mt-1 flex flex-col gap-0.5 text-xs text-zinc-400">
                {update.lines.map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move, and two may read the same
                  <span key={i} className="block truncate">
                    {line}
                  </span>
                ))}
              </span>
            ) : null}
          </>
        ),
        text: update.text,
        to: update.to,
      };
    }
  }
}

/** 'just now', '5 minutes ago', '2 days ago'. */
export function timeAgo(iso: string): string {
  const date = parseISO(iso);
  if (!isValid(date)) return "";
  if (differenceInSeconds(new Date(), date) < 45) return "just now";
  return formatDistanceToNowStrict(date, { addSuffix: true });
}

/** One notification in the bell's list: links to its song (or artist); opening it marks it read. */
export function NotificationItem({ notification, onOpen }: { notification: AppNotification; onOpen: () => void }) {
  const { body, to } = describeNotification(notification);
  const Icon = ICONS[notification.kind];
  const unread = !notification.read;
  const className = clsx(
    "flex w-full items-start gap-3 px-4 py-3 text-left transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-violet-400",
    unread ? "bg-violet-500/[0.07] hover:bg-violet-500/[0.12]" : "hover:bg-white/[0.04]",
  );
  const content = (
    <>
      <span
        className={clsx(
          "mt-0.5 grid size-8 shrink-0 place-items-center rounded-full",
          unread ? "bg-violet-500/20 text-violet-200" : "bg-white/5 text-zinc-500",
        )}
      >
        <Icon aria-hidden className="size-4" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className={clsx("text-sm leading-snug break-words", unread ? "text-zinc-200" : "text-zinc-400")}>
          {body}
        </span>
        <span className="text-xs text-zinc-500">{timeAgo(notification.createdAt)}</span>
      </span>
      {unread ? (
        <span className="mt-2 size-2 shrink-0 rounded-full bg-fuchsia-400">
          <span className="sr-only">Unread</span>
        </span>
      ) : null}
    </>
  );
  return (
    <li data-notification-id={notification.id} data-unread={unread || undefined}>
      {to ? (
        <Link to={to} onClick={onOpen} className={className}>
          {content}
        </Link>
      ) : (
        <button type="button" onClick={onOpen} className={className}>
          {content}
        </button>
      )}
    </li>
  );
}

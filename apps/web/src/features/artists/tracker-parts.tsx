import {
  type Availability,
  QUALITY_LABELS,
  type Quality,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  type SongTag,
  type TrackerCounts,
} from "@unheard/shared";
import { clsx } from "clsx";
import { Link } from "react-router";
import { countWords, TRACKER_AVAILABILITY_LABELS } from "./tracker-model";

// The small pieces the tracker's views share: marks, badges, a song's title link and a counts line.

/** A song page's address. */
export const songPath = (id: string) => `/song/${encodeURIComponent(id)}`;

/** A tracker's tag marks ('⭐'), each named by its label for screen readers; nothing when there are none. */
export function TagMarks({ tags, className }: { tags: readonly SongTag[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <span className={clsx("inline-flex shrink-0 items-center gap-0.5 leading-none", className)}>
      {tags.map((tag) => (
        <span key={tag} role="img" aria-label={SONG_TAG_LABELS[tag]} title={SONG_TAG_LABELS[tag]}>
          {SONG_TAG_MARKS[tag]}
        </span>
      ))}
    </span>
  );
}

/** The tracker's version label ('V2') as a small badge; nothing when the song has none. */
export function VersionBadge({ label }: { label: string | null }) {
  if (!label) return null;
  return (
    <span
      title={label}
      className="inline-block max-w-24 shrink-0 truncate rounded-md bg-white/10 px-1.5 py-px align-middle text-[11px] font-semibold text-zinc-100 ring-1 ring-white/15 ring-inset"
    >
      <span className="sr-only">Version </span>
      {label}
    </span>
  );
}

/** A song's title as a link to its page, with its marks before it and its version label after it. */
export function SongName({
  song,
  wrap = false,
  className,
}: {
  song: { id: string; title: string; tags: readonly SongTag[]; versionLabel: string | null };
  /** A long title wraps (table cells) instead of being cut short with an ellipsis (one-line rows). */
  wrap?: boolean;
  className?: string;
}) {
  return (
    <span className={clsx("inline-flex min-w-0 max-w-full items-center gap-1.5", wrap && "flex-wrap", className)}>
      <TagMarks tags={song.tags} className="text-sm" />
      <Link
        to={songPath(song.id)}
        className={clsx(
          wrap ? "break-words" : "truncate",
          "min-w-0 rounded font-medium text-zinc-100 hover:text-violet-200 hover:underline",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
        )}
      >
        {song.title}
      </Link>
      <VersionBadge label={song.versionLabel} />
    </span>
  );
}

/** The tones of the availability badges: what circulates whole is greener, what is only talked about greyer. */
const AVAILABILITY_TONES: Record<Availability, string> = {
  og_file: "bg-emerald-500/15 text-emerald-200 ring-emerald-400/30",
  stem_bounce: "bg-green-500/15 text-green-200 ring-green-400/30",
  full: "bg-teal-500/15 text-teal-200 ring-teal-400/30",
  tagged: "bg-sky-500/15 text-sky-200 ring-sky-400/30",
  beat_only: "bg-indigo-500/15 text-indigo-200 ring-indigo-400/30",
  partial: "bg-amber-500/15 text-amber-200 ring-amber-400/30",
  snippet: "bg-orange-500/15 text-orange-200 ring-orange-400/30",
  confirmed: "bg-zinc-700/60 text-zinc-200 ring-zinc-500/30",
  rumored: "bg-zinc-700/60 text-zinc-300 ring-zinc-500/30",
};

const badgeBase =
  "inline-flex shrink-0 items-center whitespace-nowrap rounded-full px-2 py-0.5 text-[11px] font-semibold ring-1 ring-inset";

/** How much of the song circulates, as a small badge; nothing when unknown. */
export function AvailabilityBadge({ value }: { value: Availability | null }) {
  if (!value) return null;
  return (
    <span className={clsx(badgeBase, AVAILABILITY_TONES[value])}>
      <span className="sr-only">Available: </span>
      {TRACKER_AVAILABILITY_LABELS[value]}
    </span>
  );
}

/**
 * "Removed from the tracker" (issue 37): the linked sheet no longer lists the song, which stays on Unheard. Said in
 * words, not by colour alone.
 */
export function RemovedBadge() {
  return (
    <span
      data-testid="removed-from-tracker"
      className={clsx(badgeBase, "bg-rose-500/10 font-medium text-rose-200 ring-rose-400/30")}
    >
      Removed from the tracker
    </span>
  );
}

/** The quality of the best copy, as a small badge; nothing when unknown. */
export function QualityBadge({ value }: { value: Quality | null }) {
  if (!value) return null;
  return (
    <span className={clsx(badgeBase, "bg-white/[0.04] font-medium text-zinc-300 ring-white/10")}>
      <span className="sr-only">Quality: </span>
      {QUALITY_LABELS[value]}
    </span>
  );
}

/** Counts as one line, numbers stressed: '12 OG files · 30 full · 8 snippets'. */
export function CountsLine({ counts, className }: { counts: TrackerCounts; className?: string }) {
  const shown = counts.filter((c) => c.count > 0);
  if (shown.length === 0) return null;
  return (
    <p className={className}>
      {shown.map((c, i) => {
        const words = countWords(c.availability, c.count);
        const space = words.indexOf(" ");
        return (
          <span key={c.availability}>
            {i > 0 ? " · " : null}
            <span className="font-semibold text-zinc-100">{words.slice(0, space)}</span>
            {words.slice(space)}
          </span>
        );
      })}
    </p>
  );
}

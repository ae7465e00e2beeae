import type { Song } from "@unheard/shared";
import { clsx } from "clsx";
import { CalendarDays } from "lucide-react";
import { Fragment, type ReactNode, useId } from "react";
import { Link } from "react-router";
import { formatReleaseDate } from "../../lib/format";
import { QueueButtons } from "../player/queue-buttons";
import { itemFromSong } from "../player/queue-model";
import { VoteButtons, VoteProgress } from "../voting/vote-buttons";
import { CompactPlayer } from "./audio-player";
import { FavoriteButton } from "./favorite-button";
import { SongCover } from "./song-cover";
import { SongTagMarks, VersionCount, VersionLabelBadge } from "./song-versions";

/** The song's artists, each linking to their profile. */
export function ArtistLinks({ song, className }: { song: Song; className?: string }) {
  return (
    <span className={className}>
      {song.artists.map((a, i) => (
        <Fragment key={a.id}>
          {i > 0 ? ", " : null}
          <Link
            to={`/artists/${encodeURIComponent(a.id)}`}
            className="hover:text-violet-200 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            {a.name}
          </Link>
        </Fragment>
      ))}
    </span>
  );
}

/** A small pill naming the song's genre. */
export function GenreChip({ genre, className }: { genre: string; className?: string }) {
  return (
    <span
      className={clsx(
        "inline-flex items-center rounded-full bg-black/35 px-2.5 py-0.5 text-xs font-medium text-white/90 ring-1 ring-white/15 backdrop-blur-sm ring-inset",
        className,
      )}
    >
      {genre}
    </span>
  );
}

/**
 * A song in a grid: cover, title, artists, genre, release date, preview and favourite. In verification
 * mode (pending grid) it also shows net votes over 3 and the vote buttons; `actions` adds admin buttons.
 */
export function SongCard({
  song,
  mode = "browse",
  actions,
  headingLevel = 3,
  className,
}: {
  song: Song;
  mode?: "browse" | "verify";
  actions?: ReactNode;
  /** 2 where the grid is the page's main list (no section heading above it). */
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = useId();
  const href = `/song/${encodeURIComponent(song.id)}`;
  return (
    <article
      aria-labelledby={titleId}
      data-song-id={song.id}
      className={clsx(
        "group flex flex-col overflow-hidden rounded-2xl border border-white/[0.06] bg-zinc-900/60 transition-colors hover:border-white/15",
        className,
      )}
    >
      {/* Phones get a thumbnail beside the title instead of the banner, so a feed is not all artwork. */}
      <div className="relative hidden sm:block">
        <Link to={href} tabIndex={-1} aria-hidden className="block">
          <SongCover
            src={song.coverUrl}
            title={song.title}
            // The banner shows the art's upper part: the title set at the foot of the cover is already below it.
            className="aspect-[16/9] w-full object-top transition-[filter] group-hover:brightness-110"
          />
        </Link>
        <GenreChip genre={song.genre} className="absolute bottom-3 left-3" />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex min-w-0 items-center gap-3">
          <Link to={href} tabIndex={-1} aria-hidden className="shrink-0 sm:hidden">
            <SongCover src={song.coverUrl} title={song.title} className="size-14 rounded-xl" />
          </Link>
          <div className="min-w-0 flex-1">
            {/* Tag marks and the version label sit beside the heading, not in it: the card is named by its title. */}
            <div className="flex min-w-0 items-center gap-1.5">
              <SongTagMarks song={song} />
              <Heading id={titleId} className="min-w-0 truncate text-base font-semibold text-white">
                <Link
                  to={href}
                  className="hover:text-violet-200 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  {song.title}
                </Link>
              </Heading>
              <VersionLabelBadge song={song} size="sm" />
            </div>
            <ArtistLinks song={song} className="mt-1 block truncate text-sm text-zinc-400" />
            <p className="mt-0.5 text-xs text-zinc-500 sm:hidden">{song.genre}</p>
            {song.versionCount > 0 ? (
              <p className="mt-1.5">
                <VersionCount song={song} />
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex items-center gap-1.5">
          <div className="min-w-0 flex-1">
            <CompactPlayer song={song} />
          </div>
          <QueueButtons title={song.title} item={() => itemFromSong(song)} variant="icons" />
        </div>
        {mode === "verify" ? (
          <div className="flex flex-col gap-3 border-t border-white/[0.06] pt-3">
            <VoteProgress song={song} />
            <VoteButtons song={song} compact />
            {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
          </div>
        ) : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-1">
          <p className="flex min-w-0 items-center gap-1.5 text-xs text-zinc-400">
            <CalendarDays aria-hidden className="size-3.5 shrink-0 text-zinc-500" />
            <span className="truncate">{formatReleaseDate(song.releaseDate)}</span>
          </p>
          <FavoriteButton song={song} />
        </div>
      </div>
    </article>
  );
}

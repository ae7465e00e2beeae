import { MESSAGES } from "@unheard/shared";
import { Clock, ListMusic } from "lucide-react";
import { useArtistSongs } from "../api/artists";
import { Button } from "./button";
import { SongCard } from "./song-card";
import { EmptyState, GRID_CLASS, GridSkeleton, songsOf } from "./song-grid";

/**
 * An artist's tracks, newest first, with 'Load more'. The artist and admins also get pending songs;
 * those carry a 'Pending' pill, since the browse card itself does not show a song's status.
 */
export function ArtistTracks({ artistId, isSelf }: { artistId: string; isSelf: boolean }) {
  const query = useArtistSongs(artistId);
  if (query.isPending) return <GridSkeleton count={4} />;
  if (query.isError && !query.data) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-rose-400/20 bg-rose-500/5 px-6 py-8 text-center">
        <p role="alert" className="text-sm text-rose-200">
          The tracks could not be loaded.
        </p>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const songs = songsOf(query);
  if (songs.length === 0) {
    return (
      <EmptyState icon={<ListMusic aria-hidden className="size-5" />} title={MESSAGES.noTracks}>
        {isSelf ? "Upload a song and credit yourself as an artist to see it here." : null}
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <ul className={GRID_CLASS}>
        {songs.map((song) => (
          <li key={song.id} className="relative flex">
            <SongCard song={song} className="w-full" />
            {song.status === "pending" ? (
              // Over the cover's free top-left corner from sm up; on phones (no cover) it sits on the card's top edge.
              <span className="pointer-events-none absolute -top-2.5 right-3 inline-flex items-center gap-1 rounded-full bg-amber-500/90 px-2.5 py-0.5 text-xs font-semibold text-zinc-950 shadow-lg shadow-black/30 sm:top-3 sm:right-auto sm:left-3">
                <Clock aria-hidden className="size-3.5" />
                Pending
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {query.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

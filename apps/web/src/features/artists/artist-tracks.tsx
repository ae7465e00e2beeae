import { MESSAGES } from "@unheard/shared";
import { Clock, ListMusic } from "lucide-react";
import { EmptyState, SongGrid } from "../songs/song-grid";
import { useArtistSongs } from "./artists";

/**
 * An artist's tracks, newest first, with 'Load more'. The artist and admins also get pending songs;
 * those carry a 'Pending' pill, since the browse card itself does not show a song's status.
 */
export function ArtistTracks({ artistId, isSelf }: { artistId: string; isSelf: boolean }) {
  const songs = useArtistSongs(artistId);
  return (
    <SongGrid
      query={songs}
      errorMessage="The tracks could not be loaded."
      empty={
        <EmptyState icon={<ListMusic aria-hidden className="size-5" />} title={MESSAGES.noTracks}>
          {isSelf ? "Upload a song and credit yourself as an artist to see it here." : null}
        </EmptyState>
      }
      badge={(song) =>
        song.status === "pending" ? (
          // Over the cover's free top-left corner from sm up; on phones (no cover) it sits on the card's top edge.
          <span className="pointer-events-none absolute -top-2.5 right-3 inline-flex items-center gap-1 rounded-full bg-amber-500/90 px-2.5 py-0.5 text-xs font-semibold text-zinc-950 shadow-lg shadow-black/30 sm:top-3 sm:right-auto sm:left-3">
            <Clock aria-hidden className="size-3.5" />
            Pending
          </span>
        ) : null
      }
    />
  );
}

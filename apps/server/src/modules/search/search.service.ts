import type { ArtistHit, Song } from "@unheard/shared";
import type { ArtistsService } from "../artists/artists.service.js";
import type { Viewer } from "../auth/viewer.js";
import type { SongsService } from "../songs/songs.service.js";

/** One search over songs and artists, ranked alike on SQLite and PostgreSQL. */
export function createSearchService(deps: { songs: SongsService; artists: ArtistsService }) {
  return {
    async search(
      q: { q: string; cursor?: string | undefined; limit: number },
      viewer: Viewer | undefined,
    ): Promise<{ artists: ArtistHit[]; songs: Song[]; nextCursor: string | null }> {
      // One candidate search serves both: the songs, and the artists credited on them.
      const candidates = await deps.songs.searchCandidates(q.q);
      const [page, artists] = await Promise.all([
        deps.songs.search(q, viewer, candidates),
        // Artists head the first page only.
        q.cursor
          ? Promise.resolve([])
          : deps.artists.search(
              q.q,
              5,
              candidates.map((c) => c.id),
            ),
      ]);
      return { artists, songs: page.items, nextCursor: page.nextCursor };
    },
  };
}

/** The search service type. */
export type SearchService = ReturnType<typeof createSearchService>;

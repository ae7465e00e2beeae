import { type ArtistHit, type Song, SUGGEST_ARTISTS, SUGGEST_SONGS, type SuggestResult } from "@unheard/shared";
import type { CardCache } from "../../lib/card-cache.js";
import { decodeOffset, encodeCursor } from "../../lib/cursor.js";
import type { Viewer } from "../auth/viewer.js";
import { coverUrl } from "../covers/covers.service.js";
import type { SongsService } from "../songs/songs.service.js";
import type { SearchEngine } from "./search-engine.js";

/** Artists heading a first page of results. */
const RESULT_ARTISTS = 5;
/**
 * Songs a search ranks at least: a page is cut from the best of this many, so page 1 and page 2 come from one
 * order. Deeper pages rank more (bounded by MAX_RESULTS).
 */
const RANK_WINDOW = 120;
/** Songs the suggestions are chosen from (a few, ranked among more than they show). */
const SUGGEST_WINDOW = 40;
/** The deepest a search pages. */
const MAX_RESULTS = 480;

const toArtistHit = (a: { id: string; name: string; tracks: number; verified: boolean }): ArtistHit => ({
  id: a.id,
  name: a.name,
  initial: (a.name.trim()[0] ?? "?").toUpperCase(),
  trackCount: a.tracks,
  isVerified: a.verified,
});

type FoundArtist = { id: string; name: string; tracks: number; verified: boolean; whole: boolean };

/** Search over songs and artists (decision 024): the engine ranks, the songs service reads the cards. */
export function createSearchService(deps: { songs: SongsService; engine: SearchEngine; cards: CardCache }) {
  const { songs, engine, cards } = deps;

  /**
   * Artists found by every word of the query, and those found by some of them only when they are credited on one
   * of the best songs ("ela philips isxoz" keeps Ella Phillips, credited on Isxoze Time; "isxoze tim" drops an
   * unrelated "The Vreyara Times").
   */
  function relevantArtists(found: FoundArtist[], best: { id: string }[]): FoundArtist[] {
    if (found.every((a) => a.whole)) return found;
    const credited = new Set(best.flatMap(({ id }) => engine.describe(id)?.artists.map((a) => a.id) ?? []));
    return found.filter((a) => a.whole || credited.has(a.id));
  }
  return {
    /** A page of songs for a query, and the best artists on the first page. */
    async search(
      q: { q: string; cursor?: string | undefined; limit: number },
      viewer: Viewer | undefined,
    ): Promise<{ artists: ArtistHit[]; songs: Song[]; nextCursor: string | null }> {
      const offset = decodeOffset(q.cursor);
      const want = Math.min(MAX_RESULTS, Math.max(RANK_WINDOW, offset + q.limit + 1));
      const [hits, artists] = await Promise.all([
        engine.songs(q.q, want),
        q.cursor ? Promise.resolve([]) : engine.artists(q.q, RESULT_ARTISTS),
      ]);
      const page = hits.slice(offset, offset + q.limit).map((h) => h.id);
      const end = offset + q.limit;
      return {
        artists: relevantArtists(artists, hits.slice(0, RESULT_ARTISTS * 4)).map(toArtistHit),
        // Visitors' cards are shared (members' state is added to them by the route); an admin's are read fresh.
        songs: viewer
          ? await songs.cards(page, viewer)
          : await cards.through(page, (ids) => songs.cards(ids, undefined)),
        nextCursor: hits.length > end && end < MAX_RESULTS ? encodeCursor({ o: end }) : null,
      };
    },

    /** What the search box offers while typing: a few songs and artists, one line each, from the index alone. */
    async suggest(q: string): Promise<SuggestResult> {
      const [hits, artists] = await Promise.all([engine.songs(q, SUGGEST_WINDOW), engine.artists(q, SUGGEST_ARTISTS)]);
      const songs = hits.slice(0, SUGGEST_SONGS).flatMap(({ id }) => {
        const song = engine.describe(id);
        if (!song) return [];
        const names = song.artists.map((a) => a.name);
        return [{ id, title: song.title, artists: song.artists, coverUrl: coverUrl(id, song.title, names) }];
      });
      return { artists: relevantArtists(artists, hits.slice(0, SUGGEST_SONGS)).map(toArtistHit), songs };
    },
  };
}

/** The search service type. */
export type SearchService = ReturnType<typeof createSearchService>;

import { useInfiniteQuery } from "@tanstack/react-query";
import type { ChangePage } from "@unheard/shared";
import { api } from "../../lib/api/api";

// The artists' changelogs (issue 37): one artist's "Updates" and everyone's "Recent changes", newest first.

const enc = encodeURIComponent;

/** Query keys of the changelogs; everything sits under ["changes"] (an edit or an upload reloads them all). */
export const changesKeys = {
  all: ["changes"] as const,
  artist: (artistId: string) => ["changes", "artist", artistId] as const,
  site: ["changes", "site"] as const,
};

/** The API path of a changelog: an artist's, or everyone's. */
const changesPath = (artistId: string | undefined) =>
  artistId ? `/api/artists/${enc(artistId)}/changes` : "/api/changes";

/** The Atom feed of a changelog: an artist's, or everyone's. */
export const changesFeedUrl = (artistId?: string) => `${changesPath(artistId)}.atom`;

/**
 * A changelog a page at a time ("Show more" fetches the next with the cursor). `enabled: false` keeps it from
 * loading (the artist page loads its Updates once it is in the browser, not in the server's render).
 */
export function useChanges(
  artistId: string | undefined,
  { limit, enabled = true }: { limit: number; enabled?: boolean },
) {
  const path = changesPath(artistId);
  return useInfiniteQuery({
    queryKey: artistId ? changesKeys.artist(artistId) : changesKeys.site,
    queryFn: ({ pageParam }) =>
      api.get<ChangePage>(`${path}?limit=${limit}${pageParam ? `&cursor=${enc(pageParam)}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

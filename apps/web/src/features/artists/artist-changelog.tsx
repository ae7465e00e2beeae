import type { Artist } from "@unheard/shared";
import { useNow } from "../../lib/relative-time";
import { ChangeList, FeedLink } from "../changes/change-list";
import { changesFeedUrl, useChanges } from "../changes/changes";

/** Lines of the Updates panel a page shows. */
const PAGE_SIZE = 10;

/**
 * The artist page's "Updates" (issue 37), the trackers' own Updates tab: the artist's changelog newest first, each
 * line's song linked, its source and date; "Show more" and the Atom feed. Loaded once the page is in the browser:
 * the server's render (and the first paint) stays as cheap as before, and hydration sees the same loading state.
 */
export function ArtistChangelog({ artist }: { artist: Pick<Artist, "id" | "name"> }) {
  // null on the server and while hydrating (see relative-time.tsx): the query starts once the page is interactive.
  const inBrowser = useNow() !== null;
  const changes = useChanges(artist.id, { limit: PAGE_SIZE, enabled: inBrowser });
  return (
    <section aria-labelledby="artist-updates-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="artist-updates-heading" className="text-xl font-semibold text-white">
            Updates
          </h2>
          <p className="mt-0.5 text-sm text-zinc-400">New songs, upgrades and removals in the tracker.</p>
        </div>
        <FeedLink href={changesFeedUrl(artist.id)} />
      </div>
      <ChangeList
        query={changes}
        label={`Updates to ${artist.name}'s tracker`}
        loadingLabel="Loading updates"
        errorMessage="The updates could not be loaded."
        empty="No updates yet. New songs, upgrades and removals will be listed here."
      />
    </section>
  );
}

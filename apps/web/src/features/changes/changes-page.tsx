import { PageHeader } from "../../ui/page";
import { ChangeList, FeedLink } from "./change-list";
import { changesFeedUrl, useChanges } from "./changes";

/** Lines a page of the site-wide changelog shows. */
const PAGE_SIZE = 30;

/**
 * /changes (issue 37): every artist's changelog in one, newest first: new songs, upgrades, removals, renames, each
 * with its artist, song, source and date; its Atom feed.
 */
export function ChangesPage() {
  const changes = useChanges(undefined, { limit: PAGE_SIZE });
  return (
    <>
      <PageHeader
        title="Recent changes"
        subtitle="New songs, upgrades and removals in every artist's tracker, newest first."
        actions={<FeedLink href={changesFeedUrl()} />}
      />
      <ChangeList
        query={changes}
        label="Recent changes"
        withArtist
        loadingLabel="Loading recent changes"
        errorMessage="The recent changes could not be loaded."
        empty="Nothing has changed yet. New songs, upgrades and removals will be listed here."
      />
    </>
  );
}

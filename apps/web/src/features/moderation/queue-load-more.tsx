import { Button } from "../../ui/button";

/** What "Load more" needs of an infinite query. */
type Pages = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

/** "Load more" under an admin queue while it has more pages (the API sends a page at a time). */
export function QueueLoadMore({ query }: { query: Pages }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        {query.isFetchingNextPage ? "Loading…" : "Load more"}
      </Button>
    </div>
  );
}

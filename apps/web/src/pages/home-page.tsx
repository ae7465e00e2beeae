import { useSearchParams } from "react-router";
import { ComingSoon, PageHeader } from "../components/page";

/** /: 'Trending This Week', or 'Search Results' when the URL carries ?q=. */
export function HomePage() {
  const [params] = useSearchParams();
  const term = params.get("q")?.trim() ?? "";
  if (term) {
    return (
      <>
        <PageHeader
          title="Search Results"
          documentTitle={`Search: ${term}`}
          subtitle={
            <>
              Songs matching <span className="font-medium text-zinc-200">“{term}”</span>
            </>
          }
        />
        <ComingSoon>Search results will be listed here.</ComingSoon>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Trending This Week"
        documentTitle="Home"
        subtitle="The unreleased songs the community is saving right now."
      />
      <ComingSoon>The trending feed, filters and recommendations will be here.</ComingSoon>
    </>
  );
}

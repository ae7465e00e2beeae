import { MESSAGES } from "@unheard/shared";
import { SearchX, Sparkles, Waves } from "lucide-react";
import { type ReactNode, useEffect, useMemo } from "react";
import { useSearchParams } from "react-router";
import { toast } from "../../lib/toast";
import { PageHeader } from "../../ui/page";
import { ArtistResults } from "../artists/artist-results";
import { FeedFilterBar } from "./filters";
import { SongCard } from "./song-card";
import { EmptyState, SongGrid } from "./song-grid";
import { DEFAULT_FILTERS, type FeedFilters, filtersFromParams, useFeed, useRecommendations, useSearch } from "./songs";

const TRENDING_LIMIT = 8;
const NEWEST_LIMIT = 12;
// The spec has no wording for a failed feed; these stay local until the catalogue has one.
const FEED_FAILED = "Could not load songs";
const SEARCH_FAILED = "Could not search songs";

/** /: 'Trending This Week', 'Recommended for you' and 'New Songs', or 'Search Results' with ?q=. */
export function HomePage() {
  const [params] = useSearchParams();
  const term = params.get("q")?.trim() ?? "";
  return term ? <SearchResults term={term} /> : <Feeds />;
}

function Section({
  title,
  icon,
  aside,
  children,
}: {
  title: string;
  icon: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="flex flex-col gap-4" aria-label={title}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-white md:text-xl">
          <span aria-hidden className="text-fuchsia-300">
            {icon}
          </span>
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function isFiltered(f: FeedFilters): boolean {
  return (
    f.genre !== DEFAULT_FILTERS.genre ||
    f.release !== DEFAULT_FILTERS.release ||
    f.next7 ||
    f.availability !== DEFAULT_FILTERS.availability ||
    f.quality !== DEFAULT_FILTERS.quality
  );
}

function Feeds() {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the params object changes identity on every render; its text does not
  const filters = useMemo(() => filtersFromParams(params), [key]);

  const setFilters = (next: FeedFilters) => {
    const out = new URLSearchParams(params);
    const put = (name: string, value: string | null) => (value ? out.set(name, value) : out.delete(name));
    put("genre", next.genre === "All" ? null : next.genre);
    put("release", next.release === "all" ? null : next.release);
    put("next7", next.next7 ? "1" : null);
    put("availability", next.availability === "all" ? null : next.availability);
    put("quality", next.quality === "all" ? null : next.quality);
    setParams(out, { replace: true, preventScrollReset: true });
  };

  return (
    <>
      <PageHeader
        title="Trending This Week"
        documentTitle="Home"
        subtitle="The unreleased songs the community is saving right now."
      />
      <div className="flex flex-col gap-10 md:gap-12">
        <div className="-mb-4 md:-mb-6">
          <FeedFilterBar value={filters} onChange={setFilters} />
        </div>
        <section aria-label="Trending songs">
          <h2 className="sr-only">Trending songs</h2>
          <FeedGrid feed="trending" filters={filters} />
        </section>
        <Recommendations />
        <Section title="New Songs" icon={<Waves className="size-5" />}>
          <FeedGrid feed="newest" filters={filters} />
        </Section>
      </div>
    </>
  );
}

/** A home feed's grid; with filters on, its empty state says that nothing matches them. */
function FeedGrid({ feed, filters }: { feed: "trending" | "newest"; filters: FeedFilters }) {
  const trending = feed === "trending";
  const limit = trending ? TRENDING_LIMIT : NEWEST_LIMIT;
  const songs = useFeed(feed, filters, limit);
  const filtered = isFiltered(filters);
  const empty = trending ? (
    <EmptyState title={filtered ? "Nothing trending for these filters" : "Nothing trending this week yet"}>
      Songs people favourite this week show up here.
    </EmptyState>
  ) : (
    <EmptyState title={filtered ? "No songs match these filters" : "No songs yet"}>
      {filtered ? "Try another genre or release filter." : "Verified songs appear here."}
    </EmptyState>
  );
  return <SongGrid query={songs} errorMessage={FEED_FAILED} skeletonCount={limit} empty={empty} />;
}

function Recommendations() {
  const recs = useRecommendations();
  useEffect(() => {
    if (recs.isError) toast.error(MESSAGES.recommendationsFailed, { id: "recommendations-failed" });
  }, [recs.isError]);
  const items = recs.data?.items ?? [];
  if (recs.isError || (recs.isSuccess && items.length === 0)) return null;
  return (
    <Section title="Recommended for you" icon={<Sparkles className="size-5" />}>
      {recs.isPending ? (
        <div className="h-72 animate-pulse rounded-2xl bg-white/[0.03]" />
      ) : (
        <ul className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-3 md:mx-0 md:px-0 [scrollbar-color:var(--color-zinc-700)_transparent] [scrollbar-width:thin]">
          {items.map((song) => (
            <li key={song.id} className="flex w-64 shrink-0 snap-start md:w-60">
              <SongCard song={song} className="w-full" />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function SearchResults({ term }: { term: string }) {
  const search = useSearch(term);
  const artists = search.data?.pages[0]?.artists ?? [];
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
      <ArtistResults artists={artists} />
      <SongGrid
        headingLevel={2}
        query={search}
        errorMessage={SEARCH_FAILED}
        empty={
          <EmptyState icon={<SearchX aria-hidden className="size-5" />} title="No songs found">
            Nothing matches “{term}”. Check the spelling or try an artist's name.
          </EmptyState>
        }
      />
    </>
  );
}

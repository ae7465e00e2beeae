import { Heart } from "lucide-react";
import { LinkButton } from "../../ui/button";
import { PageHeader } from "../../ui/page";
import { EmptyState, SongGrid } from "./song-grid";
import { useFavorites } from "./songs";

// The spec has no wording for a failed load here; 'Failed to sync favorites' is about saving them.
const FAVORITES_FAILED = "Could not load your favorites";

/** /favorites: 'Your Favorites', newest first, with 'Load more'. */
export function FavoritesPage() {
  const favorites = useFavorites();
  return (
    <>
      <PageHeader title="Your Favorites" subtitle="Songs you have saved, newest first." />
      <SongGrid
        headingLevel={2}
        query={favorites}
        errorMessage={FAVORITES_FAILED}
        skeletonCount={8}
        empty={
          <EmptyState icon={<Heart aria-hidden className="size-5" />} title="No favorites yet">
            <p>Tap the heart on any song to keep it here.</p>
            <LinkButton to="/" variant="secondary" size="sm" className="mt-4">
              Discover songs
            </LinkButton>
          </EmptyState>
        }
      />
    </>
  );
}

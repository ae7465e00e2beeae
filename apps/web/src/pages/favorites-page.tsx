import { ComingSoon, PageHeader } from "../components/page";

/** /favorites: placeholder until the screen is built. */
export function FavoritesPage() {
  return (
    <>
      <PageHeader title="Your Favorites" subtitle="Songs you have saved, newest first." />
      <ComingSoon>Your favourite songs will be listed here.</ComingSoon>
    </>
  );
}

import { ComingSoon, PageHeader } from "../components/page";

/** /song/:id: placeholder until the screen is built. */
export function SongPage() {
  return (
    <>
      <PageHeader title="Song Details" subtitle="Everything known about this track." />
      <ComingSoon>The song's details, player and votes will be shown here.</ComingSoon>
    </>
  );
}

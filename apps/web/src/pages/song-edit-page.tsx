import { ComingSoon, PageHeader } from "../components/page";

/** /songs/:id/edit: placeholder until the screen is built. */
export function SongEditPage() {
  return (
    <>
      <PageHeader title="Edit Song" subtitle="Correct this song's details." />
      <ComingSoon>The edit form will be here.</ComingSoon>
    </>
  );
}

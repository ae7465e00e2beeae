import { ComingSoon, PageHeader } from "../components/page";

/** /songs/:id/suggest-edit: placeholder until the screen is built. */
export function SuggestEditPage() {
  return (
    <>
      <PageHeader title="Suggest an Edit" subtitle="Propose a correction; an admin reviews it." />
      <ComingSoon>The suggest-edit form will be here.</ComingSoon>
    </>
  );
}

import { ComingSoon, PageHeader } from "../components/page";

/** /edit-suggestions: placeholder until the screen is built. */
export function EditSuggestionsPage() {
  return (
    <>
      <PageHeader title="Edit Suggestions" subtitle="Review proposed corrections side by side." />
      <ComingSoon>The edit suggestions to review will be listed here.</ComingSoon>
    </>
  );
}

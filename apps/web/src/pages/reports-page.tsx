import { ComingSoon, PageHeader } from "../components/page";

/** /reports: placeholder until the screen is built. */
export function ReportsPage() {
  return (
    <>
      <PageHeader title="Reports" subtitle="Songs the community has flagged for review." />
      <ComingSoon>The reports to review will be listed here.</ComingSoon>
    </>
  );
}

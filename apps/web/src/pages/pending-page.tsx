import { ComingSoon, PageHeader } from "../components/page";

/** /pending: placeholder until the screen is built. */
export function PendingPage() {
  return (
    <>
      <PageHeader
        title="Pending Songs"
        subtitle="Vote on songs waiting for verification. A song is verified at a net of 3 votes."
      />
      <ComingSoon>The pending songs to vote on will be listed here.</ComingSoon>
    </>
  );
}

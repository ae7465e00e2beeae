import { ComingSoon, PageHeader } from "../components/page";

/** /admin/waitlist: placeholder until the screen is built. */
export function AdminWaitlistPage() {
  return (
    <>
      <PageHeader title="Waitlist Management" subtitle="Let people in from the waitlist." />
      <ComingSoon>The waitlist table will be here.</ComingSoon>
    </>
  );
}

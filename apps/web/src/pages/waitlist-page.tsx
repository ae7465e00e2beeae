import { Hourglass } from "lucide-react";
import { useMe } from "../api/me";
import { Notice } from "../components/notice";
import { ComingSoon, PageHeader } from "../components/page";

/** /waitlist: the public join form; the waitlist gate sends held users here. */
export function WaitlistPage() {
  const { me } = useMe();
  return (
    <>
      <PageHeader title="Join the Waitlist" subtitle="Unheard opens to new members in waves." />
      {me?.waitlisted ? (
        <Notice tone="info" className="mb-6">
          <span className="inline-flex items-center gap-1.5 font-medium">
            <Hourglass aria-hidden className="size-4" /> You're on the waitlist.
          </span>{" "}
          You can browse songs and edit your profile; favourites, voting and uploads open once an admin lets you in.
        </Notice>
      ) : null}
      <ComingSoon>The waitlist form (name and e-mail) will be here.</ComingSoon>
    </>
  );
}

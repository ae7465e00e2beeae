import { MESSAGES } from "@unheard/shared";
import { Hourglass } from "lucide-react";
import { Link, useLocation } from "react-router";
import { useMe } from "../accounts/me";

/**
 * On every page of a waitlisted member (issue 25: the waitlist was invisible until a favourite failed): what the
 * waitlist is and what they can already do. The /waitlist page says it at length, so the banner steps aside there.
 */
export function WaitlistBanner() {
  const { me } = useMe();
  const { pathname } = useLocation();
  if (!me?.waitlisted || pathname === "/waitlist") return null;
  return (
    <section
      aria-label="Waitlist"
      className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 border-b border-sky-400/20 bg-sky-500/10 px-4 py-2 text-center text-sm text-sky-100"
    >
      <Hourglass aria-hidden className="size-4 shrink-0 text-sky-300" />
      <span>
        <strong className="font-semibold">{MESSAGES.waitlistBannerTitle}</strong> {MESSAGES.waitlistBannerText}
      </span>
      <Link
        to="/waitlist"
        className="font-medium text-sky-200 underline decoration-sky-300/50 underline-offset-2 hover:decoration-sky-200"
      >
        What is the waitlist?
      </Link>
    </section>
  );
}

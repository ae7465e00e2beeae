import { Trophy } from "lucide-react";
import { Link } from "react-router";
import { useMe } from "../features/accounts/me";
import { NotificationBell } from "../features/notifications/notification-bell";
import { Brand } from "../ui/brand";
import { MobileMenu } from "./mobile-menu";
import { SearchBox } from "./search-box";

/** The bar above the page: on mobile menu button, logo and search; on desktop search and the user's points. */
export function TopBar() {
  const { me } = useMe();
  return (
    <header className="sticky top-0 z-30 border-b border-white/[0.06] bg-zinc-950/80 backdrop-blur-xl supports-[backdrop-filter]:bg-zinc-950/65">
      {/* Same horizontal frame as <main>, so the search box lines up with the page content. */}
      <div className="px-3 md:px-8">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 md:gap-4">
          <div className="flex items-center gap-1 md:hidden">
            <MobileMenu />
            <Brand compact />
          </div>
          <SearchBox className="min-w-0 flex-1 md:max-w-md" />
          {/* On desktop the bell sits in the side menu. */}
          <NotificationBell className="md:hidden" />
          {me ? (
            <Link
              to="/profile"
              className="relative ml-auto hidden items-center gap-1.5 rounded-full border border-white/10 bg-white/5 px-3 py-1.5 text-sm font-medium text-zinc-200 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-violet-400 md:inline-flex"
            >
              {/* Named by what it shows, then where it goes: "2,600 points, open profile" (WCAG 2.5.3). */}
              <Trophy aria-hidden className="size-4 text-amber-300" />
              {me.points.toLocaleString()}
              <span className="sr-only"> points, open profile</span>
            </Link>
          ) : null}
        </div>
      </div>
    </header>
  );
}

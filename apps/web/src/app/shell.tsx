import { clsx } from "clsx";
import { Outlet } from "react-router";
import { PlayerHost } from "../features/player/player-host";
import { useHasQueue } from "../features/player/player-store";
import { WaitlistBanner } from "../features/waitlist/waitlist-banner";
import { BottomBar } from "./bottom-bar";
import { useDataPass } from "./data-pass";
import { NavigationProgress } from "./navigation-progress";
import { OfflineBanner } from "./offline-banner";
import { SideMenuContent } from "./side-menu";
import { TopBar } from "./top-bar";

/** The frame of every page but /landing: side menu (desktop), top bar, main area, bottom bar (mobile). */
export function Shell() {
  const playerShown = useHasQueue();
  if (useDataPass()) return <Outlet />;
  return (
    <div className="min-h-dvh bg-zinc-950 text-zinc-100">
      <a
        href="#main"
        className="sr-only z-[70] rounded-full bg-violet-500 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <NavigationProgress />
      <aside className="fixed inset-y-0 left-0 z-40 hidden w-64 border-r border-white/[0.06] bg-zinc-950 md:block">
        <SideMenuContent />
      </aside>
      <div className="flex min-h-dvh flex-col md:pl-64">
        <TopBar />
        <OfflineBanner />
        <WaitlistBanner />
        <main
          id="main"
          tabIndex={-1}
          className={clsx(
            "flex-1 px-4 pt-6 focus:outline-none md:px-8 md:pt-8",
            // Room for the bottom bar (phones) and the player bar, so neither covers the page's end.
            playerShown ? "pb-48 md:pb-32" : "pb-28 md:pb-12",
          )}
        >
          <div className="mx-auto w-full max-w-6xl">
            <Outlet />
          </div>
        </main>
      </div>
      <PlayerHost />
      <BottomBar />
    </div>
  );
}

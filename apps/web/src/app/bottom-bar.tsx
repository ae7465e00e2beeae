import { clsx } from "clsx";
import { NavLink } from "react-router";
import { useMe } from "../features/accounts/me";
import { bottomNavItems } from "./nav-items";

/** Mobile bottom bar (spec §2): Home, Favorites, Pending, Upload, Profile when signed in. */
export function BottomBar() {
  const { me } = useMe();
  return (
    <nav
      aria-label="Bottom navigation"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-white/[0.06] bg-zinc-950/90 pb-[env(safe-area-inset-bottom)] backdrop-blur-xl md:hidden"
    >
      <ul className="mx-auto flex max-w-lg items-stretch justify-around">
        {bottomNavItems(me).map((item) => (
          <li key={item.to} className="flex-1">
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                clsx(
                  "flex h-16 flex-col items-center justify-center gap-1 text-[11px] font-medium transition-colors",
                  "focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-violet-400",
                  isActive ? "text-violet-300" : "text-zinc-400 hover:text-zinc-100",
                )
              }
            >
              <item.icon aria-hidden className="size-5" />
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

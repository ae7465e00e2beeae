import { clsx } from "clsx";
import { LogOut, Trophy } from "lucide-react";
import { NavLink } from "react-router";
import { useMe } from "../features/accounts/me";
import { ROLE_LABELS } from "../features/accounts/role-labels";
import { useSignOut } from "../features/accounts/use-sign-out";
import { UserAvatar } from "../features/accounts/user-avatar";
import { NotificationBell } from "../features/notifications/notification-bell";
import { Brand } from "../ui/brand";
import { adminNavItems, mainNavItems, type NavItem } from "./nav-items";

const itemClass = ({ isActive }: { isActive: boolean }) =>
  clsx(
    "group flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
    isActive ? "bg-white/10 text-white" : "text-zinc-400 hover:bg-white/5 hover:text-zinc-100",
  );

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: (() => void) | undefined }) {
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={itemClass} onClick={onNavigate}>
            {({ isActive }) => (
              <>
                <item.icon
                  aria-hidden
                  className={clsx(
                    "size-[18px] shrink-0",
                    isActive ? "text-violet-300" : "text-zinc-500 group-hover:text-zinc-300",
                  )}
                />
                {item.label}
              </>
            )}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The side menu of spec §2: brand, main links, 'Admin Controls', and the signed-in user with Sign Out. */
export function SideMenuContent({ onNavigate }: { onNavigate?: () => void }) {
  const { me } = useMe();
  const { signOut, pending } = useSignOut();
  const admin = adminNavItems(me);
  return (
    <div className="flex h-full flex-col gap-6 px-3 py-5">
      <div className="flex items-center justify-between gap-2 pr-1 pl-3">
        <Brand />
        {/* In the mobile sheet (onNavigate set) the top bar already shows the bell, and the close button sits here. */}
        {onNavigate ? null : <NotificationBell align="start" />}
      </div>
      <nav aria-label="Main" className="flex flex-1 flex-col gap-6 overflow-y-auto">
        <NavList items={mainNavItems(me)} onNavigate={onNavigate} />
        {admin.length > 0 ? (
          <section aria-labelledby="admin-controls-heading" className="flex flex-col gap-1.5">
            <h2
              id="admin-controls-heading"
              className="px-3 text-[11px] font-semibold uppercase tracking-[0.14em] text-zinc-500"
            >
              Admin Controls
            </h2>
            <NavList items={admin} onNavigate={onNavigate} />
          </section>
        ) : null}
      </nav>
      {me ? (
        <div className="flex flex-col gap-2 border-t border-white/[0.06] pt-4">
          <NavLink
            to="/profile"
            onClick={onNavigate}
            className="flex items-center gap-3 rounded-xl px-3 py-2 hover:bg-white/5 focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            <UserAvatar username={me.username} size="sm" className="from-violet-500/80 to-fuchsia-500/80" />
            <span className="flex min-w-0 flex-col">
              <span className="truncate text-sm font-medium text-zinc-100">{me.username}</span>
              <span className="flex items-center gap-1 text-xs text-zinc-400">
                <Trophy aria-hidden className="size-3 text-amber-300" />
                {me.points.toLocaleString()} points · {ROLE_LABELS[me.role]}
              </span>
            </span>
          </NavLink>
          <button
            type="button"
            onClick={() => void signOut().then(() => onNavigate?.())}
            disabled={pending}
            className="flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium text-zinc-400 transition-colors hover:bg-white/5 hover:text-zinc-100 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-50"
          >
            <LogOut aria-hidden className="size-[18px] text-zinc-500" />
            Sign Out
          </button>
        </div>
      ) : null}
    </div>
  );
}

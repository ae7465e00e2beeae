import type { Me } from "@unheard/shared";
import {
  AudioLines,
  FilePenLine,
  FileUp,
  Flag,
  Gauge,
  Heart,
  History,
  Hourglass,
  House,
  Info,
  ListOrdered,
  LogIn,
  type LucideIcon,
  ScanSearch,
  ScrollText,
  Sparkles,
  Upload,
  User,
  UserPlus,
  Users,
} from "lucide-react";

/** One link of the navigation. */
export type NavItem = { to: string; label: string; icon: LucideIcon; end?: boolean };

const home: NavItem = { to: "/", label: "Home", icon: House, end: true };
const about: NavItem = { to: "/about", label: "About", icon: Info };
/** Every artist's changelog (issue 37). */
const changes: NavItem = { to: "/changes", label: "Recent changes", icon: History };
const favorites: NavItem = { to: "/favorites", label: "Favorites", icon: Heart };
/** Issue 39: name a song from a clip; every signed-in account, waitlisted ones too (decision 032). */
const identify: NavItem = { to: "/identify", label: "Identify", icon: ScanSearch };
const profile: NavItem = { to: "/profile", label: "Profile", icon: User };
/** A visitor's way in. */
const accountItems: NavItem[] = [
  { to: "/login", label: "Login", icon: LogIn },
  { to: "/register", label: "Register", icon: UserPlus },
];
const pending = (label: string): NavItem => ({ to: "/pending", label, icon: Hourglass });
const upload = (label: string): NavItem => ({ to: "/upload", label, icon: Upload });

/**
 * Side menu links of spec §2: Home, Recent changes (a browse page beside it) and About always, then the signed-in or
 * visitor links.
 */
export function mainNavItems(me: Me | null): NavItem[] {
  // "Join Waitlist" leads to the join form itself (issue 38: it led to the landing page, whose player then played).
  if (!me) return [home, changes, about, ...accountItems, { to: "/waitlist", label: "Join Waitlist", icon: Sparkles }];
  return [home, changes, identify, favorites, pending("Pending Songs"), upload("Upload Music"), profile, about];
}

/** The 'Admin Controls' links; empty for non-admins, longer for super admins. */
export function adminNavItems(me: Me | null): NavItem[] {
  if (!me?.isAdmin) return [];
  // The queues follow the admin's permissions (the server enforces them; this only mirrors).
  const items: NavItem[] = [];
  if (me.permissions.includes("canManageReports")) items.push({ to: "/reports", label: "Reports", icon: Flag });
  if (me.permissions.includes("canEditAllSongs"))
    items.push({ to: "/edit-suggestions", label: "Edit Suggestions", icon: FilePenLine });
  items.push(
    { to: "/admin/waitlist", label: "Waitlist", icon: ListOrdered },
    { to: "/admin/users", label: "Users", icon: Users },
  );
  if (me.permissions.includes("canBulkImport")) items.push({ to: "/admin/import", label: "Import", icon: FileUp });
  if (me.isSuperAdmin) {
    items.push(
      { to: "/admin/audit", label: "Audit Log", icon: ScrollText },
      { to: "/song-recognition", label: "Song Recognition", icon: AudioLines },
      { to: "/audio-quality-test", label: "Audio Quality Test", icon: Gauge },
    );
  }
  return items;
}

/** The mobile bottom bar: spec §2's five links when signed in; the account links for visitors. */
export function bottomNavItems(me: Me | null): NavItem[] {
  if (!me) return [home, about, ...accountItems];
  return [home, favorites, pending("Pending"), upload("Upload"), profile];
}

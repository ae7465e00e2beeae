import type { Me } from "@unheard/shared";
import {
  AudioLines,
  FilePenLine,
  Flag,
  Gauge,
  Heart,
  Hourglass,
  House,
  Info,
  ListOrdered,
  LogIn,
  type LucideIcon,
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

/** Side menu links of spec §2: Home and About always, then the signed-in or visitor links. */
export function mainNavItems(me: Me | null): NavItem[] {
  if (!me) {
    return [
      home,
      about,
      { to: "/login", label: "Login", icon: LogIn },
      { to: "/register", label: "Register", icon: UserPlus },
      { to: "/landing", label: "Join Waitlist", icon: Sparkles },
    ];
  }
  return [
    home,
    { to: "/favorites", label: "Favorites", icon: Heart },
    { to: "/pending", label: "Pending Songs", icon: Hourglass },
    { to: "/upload", label: "Upload Music", icon: Upload },
    { to: "/profile", label: "Profile", icon: User },
    about,
  ];
}

/** The 'Admin Controls' links; empty for non-admins, longer for super admins. */
export function adminNavItems(me: Me | null): NavItem[] {
  if (!me?.isAdmin) return [];
  const items: NavItem[] = [
    { to: "/reports", label: "Reports", icon: Flag },
    { to: "/edit-suggestions", label: "Edit Suggestions", icon: FilePenLine },
    { to: "/admin/waitlist", label: "Waitlist", icon: ListOrdered },
    { to: "/admin/users", label: "Users", icon: Users },
  ];
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
  if (!me) {
    return [
      home,
      about,
      { to: "/login", label: "Login", icon: LogIn },
      { to: "/register", label: "Register", icon: UserPlus },
    ];
  }
  return [
    home,
    { to: "/favorites", label: "Favorites", icon: Heart },
    { to: "/pending", label: "Pending", icon: Hourglass },
    { to: "/upload", label: "Upload", icon: Upload },
    { to: "/profile", label: "Profile", icon: User },
  ];
}

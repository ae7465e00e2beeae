import type { Role } from "@unheard/shared";

/**
 * Display names of the roles (spec §2: the badge defaults to User). Kept apart from the badge, so the side menu
 * loads only these.
 */
export const ROLE_LABELS: Record<Role, string> = {
  user: "User",
  verified_contributor: "Verified Contributor",
  admin: "Admin",
  super_admin: "Super Admin",
};

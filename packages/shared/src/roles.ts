import type { Role } from "./constants.js";

/** Flags derived from a role, as in spec §6. */
export function roleFlags(role: Role) {
  const isAdmin = role === "admin" || role === "super_admin";
  return {
    isAdmin,
    isSuperAdmin: role === "super_admin",
    canManageUsers: isAdmin,
    canManageContent: isAdmin,
    canDeleteContent: role === "super_admin",
  };
}

/** Username default of spec §4: the part of the e-mail before the at-sign. */
export function defaultUsername(email: string): string {
  return email.split("@")[0] ?? email;
}

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditEntry, Role } from "@unheard/shared";
import { api, type OkResponse } from "../../lib/api/api";
import { itemsQuery, queuePagesQuery } from "../../lib/api/query-helpers";

/** A row of the admin users table (GET /api/admin/users). */
export type AdminUser = {
  id: string;
  username: string;
  email: string;
  role: Role;
  points: number;
  offWaitlist: boolean;
  isArtist: boolean;
  createdAt: string;
};

/** A role an admin can hand out (never super admin). */
export type AssignableRole = "user" | "verified_contributor" | "admin";

/** One line of the audit log (GET /api/admin/audit), as the shared schema defines it. */
export type { AuditEntry } from "@unheard/shared";

/** Query key of the users table for a search term. */
export const adminUsersKey = (q: string) => ["admin", "users", q] as const;

/** Query key of the audit log. */
export const auditKey = ["admin", "audit"] as const;

/** GET /api/admin/users?q=: newest first, at most 100 (admins). */
export function adminUsersQuery(q: string) {
  return itemsQuery<AdminUser>(adminUsersKey(q), `/api/admin/users${q ? `?q=${encodeURIComponent(q)}` : ""}`);
}

/** The users table; the previous rows stay while a new search loads. */
export function useAdminUsers(q: string) {
  return useQuery({ ...adminUsersQuery(q), placeholderData: keepPreviousData });
}

function patchUser(list: AdminUser[] | undefined, id: string, patch: Partial<AdminUser>): AdminUser[] | undefined {
  return list?.map((u) => (u.id === id ? { ...u, ...patch } : u));
}

/** Give a user a role (admins: contributor status only; super admins: admin too). */
export function useSetRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; role: AssignableRole }) =>
      api.put<OkResponse>(`/api/admin/users/${encodeURIComponent(input.id)}/role`, { role: input.role }),
    onSuccess: (_res, { id, role }) => {
      // The server makes new admins members too, as admins are never held by the waitlist.
      const patch: Partial<AdminUser> = role === "admin" ? { role, offWaitlist: true } : { role };
      queryClient.setQueriesData<AdminUser[]>({ queryKey: ["admin", "users"] }, (list) => patchUser(list, id, patch));
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

/** Let a registered user in directly (they need not be on the waitlist). */
export function useLetUserIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<OkResponse>(`/api/admin/users/${encodeURIComponent(id)}/approve`),
    onSuccess: (_res, id) => {
      queryClient.setQueriesData<AdminUser[]>({ queryKey: ["admin", "users"] }, (list) =>
        patchUser(list, id, { offWaitlist: true }),
      );
      void queryClient.invalidateQueries({ queryKey: ["admin", "waitlist"] });
    },
  });
}

/** The audit log: GET /api/admin/audit, moderation actions newest first, a page at a time (super admins). */
export function useAuditLog() {
  return useInfiniteQuery(queuePagesQuery<AuditEntry>(auditKey, "/api/admin/audit"));
}

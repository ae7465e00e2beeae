import { MESSAGES, type Me } from "@unheard/shared";
import { Search, UserRoundSearch } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { useDebounced } from "../../lib/use-debounced";
import { Button } from "../../ui/button";
import { type Column, DataTable } from "../../ui/data-table";
import { Pill } from "../../ui/list-states";
import { QueryListPage } from "../../ui/query-list-page";
import { Select } from "../../ui/select";
import { useMe } from "../accounts/me";
import { RoleBadge } from "../accounts/role-badge";
import { ROLE_LABELS } from "../accounts/role-labels";
import { UserAvatar } from "../accounts/user-avatar";
import { formatDate } from "../moderation/format";
import { type AdminUser, type AssignableRole, useAdminUsers, useLetUserIn, useSetRole } from "./admin";

/**
 * The roles `viewer` may give `target` (mirrors the API's rule): nobody changes a super admin or
 * themselves; super admins hand out any role but super admin; admins only contributor status, and
 * only to non-admins.
 */
export function assignableRoles(viewer: Me, target: AdminUser): AssignableRole[] {
  if (target.id === viewer.id || target.role === "super_admin") return [];
  if (viewer.isSuperAdmin) return ["user", "verified_contributor", "admin"];
  if (viewer.isAdmin && (target.role === "user" || target.role === "verified_contributor")) {
    return ["user", "verified_contributor"];
  }
  return [];
}

/** Admins and super admins are never held by the waitlist. */
function isWaitlisted(u: AdminUser): boolean {
  return !u.offWaitlist && u.role !== "admin" && u.role !== "super_admin";
}

/** /admin/users (admin): search people, see role, points and waitlist status; change roles, let people in. */
export function AdminUsersPage() {
  const { me } = useMe();
  // The audit log links a member here by name (?q=), as members have no public page.
  const [params] = useSearchParams();
  const [term, setTerm] = useState(() => params.get("q") ?? "");
  const q = useDebounced(term).trim();
  const users = useAdminUsers(q);

  const columns: Column<AdminUser>[] = [
    {
      key: "user",
      header: "User",
      // The avatar and name speak for themselves on a phone's card.
      label: "",
      rowHeader: true,
      cell: (u) => (
        <span className="flex min-w-0 items-center gap-3">
          <UserAvatar username={u.username} size="sm" className="from-violet-500/70 to-fuchsia-500/70" />
          <span className="flex min-w-0 flex-col text-left">
            <span className="truncate font-medium text-zinc-100">
              {u.username}
              {u.id === me?.id ? <span className="ml-1.5 text-xs font-normal text-zinc-500">(you)</span> : null}
            </span>
            <span className="truncate text-xs text-zinc-400">{u.email}</span>
          </span>
        </span>
      ),
    },
    { key: "role", header: "Role", cell: (u) => <RoleBadge value={u.role} className="whitespace-nowrap" /> },
    {
      key: "points",
      header: "Points",
      className: "tabular-nums md:text-right",
      cell: (u) => <span className="text-zinc-200">{u.points.toLocaleString()}</span>,
    },
    {
      key: "status",
      header: "Status",
      cell: (u) => (isWaitlisted(u) ? <Pill tone="amber">Waitlisted</Pill> : <Pill tone="emerald">Member</Pill>),
    },
    {
      key: "joined",
      header: "Joined",
      className: "whitespace-nowrap",
      cell: (u) => <span className="text-zinc-400">{formatDate(u.createdAt)}</span>,
    },
    {
      key: "actions",
      header: <span className="sr-only">Actions</span>,
      cell: (u) => (me ? <UserActions viewer={me} user={u} /> : null),
    },
  ];

  return (
    <QueryListPage
      title="Users"
      subtitle={
        me?.isSuperAdmin
          ? "Find people, let them in, and hand out contributor or admin roles."
          : "Find people, let them in, and make them verified contributors."
      }
      toolbar={
        <div className="mb-5 flex max-w-md items-center gap-2 rounded-full border border-white/35 bg-zinc-900/80 px-4 focus-within:border-violet-400/60 focus-within:ring-2 focus-within:ring-violet-400/40">
          <Search aria-hidden className="size-4 shrink-0 text-zinc-500" />
          <input
            type="search"
            aria-label="Search users"
            placeholder="Search by username or e-mail..."
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            className="h-11 w-full bg-transparent text-[15px] text-zinc-100 placeholder:text-zinc-500 focus:outline-none"
          />
        </div>
      }
      query={users}
      loadingLabel="Loading users"
      errorMessage="Failed to load users"
      empty={{
        icon: UserRoundSearch,
        title: "No users found.",
        text: q ? `Nobody's username or e-mail contains “${q}”.` : "Nobody has signed up yet.",
      }}
    >
      {(items) => (
        <div aria-busy={users.isFetching || undefined} className={users.isPlaceholderData ? "opacity-60" : undefined}>
          <DataTable caption="Users" columns={columns} rows={items} rowKey={(u) => u.id} />
          {items.length >= 100 ? (
            <p className="mt-3 text-sm text-zinc-500">Showing the newest 100. Search to find someone else.</p>
          ) : null}
        </div>
      )}
    </QueryListPage>
  );
}

function UserActions({ viewer, user }: { viewer: Me; user: AdminUser }) {
  const setRole = useSetRole();
  const letIn = useLetUserIn();
  const options = assignableRoles(viewer, user);
  // A contributor-only admin still sees the current role in the list while it is one they may change.
  const current = user.role === "super_admin" ? null : (user.role as AssignableRole);

  const onRole = (role: AssignableRole) =>
    setRole.mutate(
      { id: user.id, role },
      {
        onSuccess: (res) => toast.success(res.message ?? MESSAGES.roleUpdated),
        onError: (err) => handleError(err, "Failed to update role"),
      },
    );

  const onLetIn = () =>
    letIn.mutate(user.id, {
      onSuccess: (res) => toast.success(res.message ?? `${user.email} is in`),
      onError: (err) => handleError(err, MESSAGES.waitlistApproveFailed),
    });

  return (
    <div className="flex flex-wrap items-center gap-2 md:flex-nowrap md:justify-end">
      {isWaitlisted(user) ? (
        <Button size="sm" variant="secondary" className="shrink-0" loading={letIn.isPending} onClick={onLetIn}>
          Let in
        </Button>
      ) : null}
      {options.length > 0 && current ? (
        <Select
          aria-label={`Role for ${user.username}`}
          className="w-full shrink-0 md:w-48"
          compact
          value={current}
          disabled={setRole.isPending}
          onChange={(e) => onRole(e.target.value as AssignableRole)}
        >
          {options.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </Select>
      ) : (
        <span className="text-xs whitespace-nowrap text-zinc-500">
          {user.id === viewer.id ? "This is you" : "Role can't be changed by you"}
        </span>
      )}
    </div>
  );
}

import { MESSAGES } from "@unheard/shared";
import { ShieldX } from "lucide-react";
import { Navigate, Outlet, useLocation } from "react-router";
import { useMe } from "../features/accounts/me";
import { loginPathFor } from "../lib/safe-next";
import { LinkButton } from "../ui/button";
import { IconCircle } from "../ui/icon-circle";
import { Panel, usePageTitle } from "../ui/page";
import { Spinner } from "../ui/spinner";

/**
 * Signed-in routes: visitors go to /login?next=<here>, and users the waitlist gate holds go to
 * /waitlist. A convenience only: the API enforces the same rules.
 */
export function RequireAuth() {
  const { me, isLoading } = useMe();
  const location = useLocation();
  if (isLoading) return <Spinner />;
  if (!me) return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  if (me.waitlisted) return <Navigate to="/waitlist" replace />;
  return <Outlet />;
}

/** Shown instead of a screen the user's role does not open. */
export function AccessDenied({ message }: { message: string }) {
  usePageTitle("Access denied");
  return (
    <Panel className="mx-auto flex max-w-lg flex-col items-center gap-4 py-12 text-center">
      <IconCircle icon={ShieldX} className="size-12 bg-rose-500/15 text-rose-300" />
      {/* The page's heading; an alert, so a screen reader says it at once after a link brought the person here. */}
      <h1 className="text-lg font-semibold text-zinc-100">
        <span role="alert">{message}</span>
      </h1>
      <LinkButton to="/" variant="secondary">
        Back to Home
      </LinkButton>
    </Panel>
  );
}

/** Admin screens (spec §6): non-admins see 'Admin access only.'; use inside RequireAuth. */
export function RequireAdmin() {
  const { me } = useMe();
  if (!me?.isAdmin) return <AccessDenied message={MESSAGES.adminOnly} />;
  return <Outlet />;
}

/** Super-admin screens: everyone else sees 'Super admin access only.'; use inside RequireAuth. */
export function RequireSuperAdmin() {
  const { me } = useMe();
  if (!me?.isSuperAdmin) return <AccessDenied message={MESSAGES.superAdminOnly} />;
  return <Outlet />;
}

import { type AdminPermission, MESSAGES, ROLES, type Role, roleFlags } from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import { webHeaders } from "../../http.js";
import type { UsersRepo } from "../users/users.repo.js";
import type { AuthService } from "./auth.service.js";
import type { SessionReader, SessionUser } from "./session-reader.js";

/** Who is asking: the signed-in user with the role flags of spec §6. */
export type Viewer = {
  id: string;
  role: Role;
  username: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /** Held back by the waitlist gate (DESIGN §5). */
  waitlisted: boolean;
};

/** Resolves the viewer of a request and enforces sign-in, membership and admin rules. */
export function createViewerResolver(deps: {
  authService: AuthService;
  sessions: SessionReader;
  users: UsersRepo;
  waitlistGate: boolean;
}) {
  const { authService, sessions, users, waitlistGate } = deps;

  function toViewer(row: SessionUser): Viewer {
    const role = (ROLES as readonly string[]).includes(row.role) ? (row.role as Role) : "user";
    const flags = roleFlags(role);
    return {
      id: row.id,
      role,
      username: row.username,
      isAdmin: flags.isAdmin,
      isSuperAdmin: flags.isSuperAdmin,
      waitlisted: waitlistGate && !row.offWaitlist && !flags.isAdmin,
    };
  }

  async function viewer(req: FastifyRequest): Promise<Viewer | undefined> {
    // Visitors carry no session cookie: the reader answers them without a query.
    const read = await sessions.read(req.headers.cookie);
    if (read.kind === "user") return toViewer(read.user);
    if (read.kind === "none") return undefined;
    // Expired or due for extension: Better Auth does the bookkeeping.
    const id = await authService.sessionUserId(webHeaders(req));
    if (!id) return undefined;
    const row = await users.findById(id);
    return row
      ? toViewer({ id, role: row.role, username: row.username, offWaitlist: Boolean(row.off_waitlist) })
      : undefined;
  }

  async function holds(v: Viewer, permission: AdminPermission): Promise<boolean> {
    if (v.isSuperAdmin) return true;
    return v.isAdmin && (await users.adminPermissions(v.id)).includes(permission);
  }

  return {
    viewer,
    /** Signed in, or 401 with `message` (the spec's wording for the action). */
    async signedIn(req: FastifyRequest, message: string = MESSAGES.signInRequired): Promise<Viewer> {
      const v = await viewer(req);
      if (!v) throw new AppError("unauthorized", message);
      return v;
    },
    /** Signed in and let in from the waitlist: what contributing (upload, vote, ...) needs. */
    async member(req: FastifyRequest, message: string = MESSAGES.signInRequired): Promise<Viewer> {
      const v = await viewer(req);
      if (!v) throw new AppError("unauthorized", message);
      if (v.waitlisted) throw new AppError("forbidden", MESSAGES.waitlisted);
      return v;
    },
    async admin(req: FastifyRequest): Promise<Viewer> {
      const v = await viewer(req);
      if (!v) throw new AppError("unauthorized", MESSAGES.signInRequired);
      if (!v.isAdmin) throw new AppError("forbidden", MESSAGES.adminOnly);
      return v;
    },
    /**
     * An admin holding `permission` (spec §3 Admin): super admins hold them all, other admins what their admin
     * record grants; 403 with `message` otherwise.
     */
    async permitted(req: FastifyRequest, permission: AdminPermission, message: string): Promise<Viewer> {
      const v = await viewer(req);
      if (!v) throw new AppError("unauthorized", MESSAGES.signInRequired);
      // A member is told the route is for admins; an admin, which permission they lack.
      if (!v.isAdmin) throw new AppError("forbidden", MESSAGES.adminOnly);
      if (!(await holds(v, permission))) throw new AppError("forbidden", message);
      return v;
    },
    /** Whether `v` holds `permission`: super admins all, other admins what their admin record grants. */
    holds,
    /**
     * `v` as far as `permission` lets them act as an admin: an admin without it acts as a member (an owner still
     * edits their own song), so a service's admin checks follow the permission.
     */
    async as(v: Viewer, permission: AdminPermission): Promise<Viewer> {
      return !v.isAdmin || (await holds(v, permission)) ? v : { ...v, isAdmin: false, isSuperAdmin: false };
    },
    async superAdmin(req: FastifyRequest): Promise<Viewer> {
      const v = await viewer(req);
      if (!v) throw new AppError("unauthorized", MESSAGES.signInRequired);
      if (!v.isSuperAdmin) throw new AppError("forbidden", MESSAGES.superAdminOnly);
      return v;
    },
  };
}

/** The viewer resolver type. */
export type ViewerResolver = ReturnType<typeof createViewerResolver>;

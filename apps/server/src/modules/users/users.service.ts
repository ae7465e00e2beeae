import { ADMIN_PERMISSIONS, MESSAGES, type Me, ROLES, type Role, roleFlags } from "@unheard/shared";
import { AppError } from "../../errors.js";
import type { EventBus } from "../../lib/events.js";
import { nameKey } from "../../lib/text.js";
import { toIso } from "../../lib/time.js";
import type { TrustService } from "../trust/trust.service.js";
import type { UserRow, UsersRepo } from "./users.repo.js";

function asRole(role: string): Role {
  return (ROLES as readonly string[]).includes(role) ? (role as Role) : "user";
}

/** The profile the API shows its owner (spec §3/§4 with the derived flags of §6); `uploads`: the songs they uploaded. */
export function toMe(row: UserRow, uploads: number, waitlistGate: boolean): Omit<Me, "trust" | "permissions"> {
  const role = asRole(row.role);
  const flags = roleFlags(role);
  const offWaitlist = Boolean(row.off_waitlist);
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role,
    points: Number(row.points),
    bio: row.bio,
    isPublic: Boolean(row.is_public),
    isArtist: Boolean(row.is_artist),
    isVerified: Boolean(row.is_verified),
    isEmailVerified: Boolean(row.email_verified),
    // The member's uploads, not the artist credits the row keeps in credit_count (issue 25).
    uploadCount: uploads,
    offWaitlist,
    socialLinks: { instagram: row.instagram, twitter: row.twitter, website: row.website },
    createdAt: toIso(row.created_at),
    ...flags,
    waitlisted: waitlistGate && !offWaitlist && !flags.isAdmin,
  };
}

/** A refusal of a username, on the form's username field. */
const refuse = (code: "forbidden" | "username_taken" | "validation_failed", message: string) =>
  new AppError(code, message, { fields: { username: message } });

/** Whether a write failed on a unique index (two writers racing for one name). */
function isUniqueViolation(err: unknown): boolean {
  return /unique|duplicate/i.test(String((err as Error | undefined)?.message ?? err));
}

/** A name with the separators a handle may use taken out, after the name key's folding (case, width, look-alikes). */
const bareKey = (name: string) => nameKey(name).replace(/[\s._+-]/g, "");

/**
 * Whether `username` is the local part of `email` (before any `+tag`), separators and look-alikes aside: usernames
 * are shown on songs, and the address should not be (issue 24).
 */
export function isEmailHandle(username: string, email: string): boolean {
  const local = email.slice(0, Math.max(0, email.lastIndexOf("@"))).split("+")[0] ?? "";
  const key = bareKey(username);
  return key.length > 0 && key === bareKey(local);
}

/** Profile rules: reading your own profile (with your trust) and renaming yourself; where an account signed up. */
export function createUsersService(deps: {
  users: UsersRepo;
  waitlistGate: boolean;
  bus: EventBus;
  trust: Pick<TrustService, "summary">;
}) {
  const { users, waitlistGate, bus, trust } = deps;

  /** Why `username` may not be the name of `email`'s account (`exceptId`: that account, "" for a new one). */
  async function refusal(username: string, email: string, exceptId: string): Promise<AppError | undefined> {
    if (isEmailHandle(username, email)) return refuse("validation_failed", MESSAGES.usernameIsEmail);
    const holder = await users.nameHolder(nameKey(username), exceptId);
    if (holder?.is_artist) return refuse("username_taken", MESSAGES.usernameIsArtist);
    if (holder) return refuse("username_taken", MESSAGES.usernameTaken);
    return undefined;
  }

  return {
    async me(userId: string): Promise<Me> {
      const row = await users.findById(userId);
      if (!row) throw new AppError("unauthorized", MESSAGES.signInRequired);
      const me = toMe(row, await users.uploadCount(userId), waitlistGate);
      // Super admins hold every permission (spec §6); other admins what their admin record grants.
      const permissions = me.isSuperAdmin
        ? [...ADMIN_PERMISSIONS]
        : me.isAdmin
          ? await users.adminPermissions(userId)
          : [];
      return { ...me, permissions, trust: await trust.summary(userId) };
    },

    /** Keep where a new account signed up (IP prefix, device cookie) for the admins' ring view (decision 015). */
    recordSignup(email: string, since: string, origin: { ipPrefix: string | null; device: string }): Promise<unknown> {
      return users.recordSignup(email, since, origin);
    },

    /**
     * Why `username` may not be a new account's (registering with `email`), as the error to answer; undefined when
     * it may. The same rules as a rename (issue 38: the name is chosen at registration now).
     */
    async refuseNewUsername(username: string, email: string): Promise<AppError | undefined> {
      return refusal(username, email, "");
    },

    /**
     * Rename yourself (every account, waitlisted or not; decision 022). An artist account's name is the credit on
     * songs, so only an admin renames it; no one takes a name an artist profile uses, or a look-alike of one or
     * of another member's (the key folds case, width, invisible characters and look-alike letters), or their own
     * e-mail's local part (usernames are public).
     */
    async updateProfile(userId: string, input: { username: string }): Promise<Me> {
      const row = await users.findById(userId);
      if (!row) throw new AppError("unauthorized", MESSAGES.signInRequired);
      if (row.username === input.username) return this.me(userId);
      if (row.is_artist) throw refuse("forbidden", MESSAGES.artistRenameByAdmin);
      const refused = await refusal(input.username, row.email, userId);
      if (refused) throw refused;
      try {
        await users.updateUsername(userId, input.username);
      } catch (err) {
        // Two renames racing for one name: the unique index decides.
        if (isUniqueViolation(err)) throw refuse("username_taken", MESSAGES.usernameTaken);
        throw err;
      }
      await bus.publish({ type: "me.changed", userId });
      return this.me(userId);
    },
  };
}

/** The users service type. */
export type UsersService = ReturnType<typeof createUsersService>;

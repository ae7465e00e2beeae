import { z } from "zod";
import { ADMIN_PERMISSIONS, ROLES, USERNAME_MAX_LENGTH } from "../constants.js";
import { socialLinksSchema } from "./common.js";

/** A member's trust (decision 015): level, whether their votes count and why not, and their daily caps (null for admins). */
export const trustSchema = z.object({
  level: z.number().int().min(0).max(3),
  name: z.string(),
  /** Accepted contributions less 3 per strike. */
  score: z.number().int(),
  strikes: z.number().int(),
  votesCount: z.boolean(),
  note: z.string().nullable(),
  caps: z.object({ votes: z.number().int(), reports: z.number().int(), uploads: z.number().int() }).nullable(),
});
export type Trust = z.infer<typeof trustSchema>;

/** The signed-in user's profile (spec §3 User, §4 defaults, §6 derived flags). */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  points: z.number().int(),
  bio: z.string(),
  isPublic: z.boolean(),
  isArtist: z.boolean(),
  isVerified: z.boolean(),
  isEmailVerified: z.boolean(),
  uploadCount: z.number().int(),
  offWaitlist: z.boolean(),
  socialLinks: socialLinksSchema,
  createdAt: z.string(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
  canManageUsers: z.boolean(),
  canManageContent: z.boolean(),
  canDeleteContent: z.boolean(),
  /** The admin permissions of spec §3 this user holds (super admins: all; others: their admin record's). */
  permissions: z.array(z.enum(ADMIN_PERMISSIONS)),
  /** True when the waitlist gate holds this user back (gate on, not approved, not admin). */
  waitlisted: z.boolean(),
  trust: trustSchema,
});
export type Me = z.infer<typeof meSchema>;

export const usernameSchema = z
  .string()
  .trim()
  .min(2, "Username must be at least 2 characters")
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, "Username may use letters, numbers, spaces, '.', '-' and '_'");

/** Profile edit: only the username is editable here (e-mail never is). */
export const updateProfileSchema = z.object({ username: usernameSchema }).strict();
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

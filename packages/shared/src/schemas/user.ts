import { z } from "zod";
import { ROLES, USERNAME_MAX_LENGTH } from "../constants.js";
import { socialLinksSchema } from "./common.js";

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
  /** True when the waitlist gate holds this user back (gate on, not approved, not admin). */
  waitlisted: z.boolean(),
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

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
  caps: z
    .object({
      votes: z.number().int(),
      reports: z.number().int(),
      uploads: z.number().int(),
      suggestions: z.number().int(),
    })
    .nullable(),
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
  /** Songs this member uploaded that still exist, pending and hidden ones too (not songs credited to them). */
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

/** Scripts a name's letters are told apart by; a letter of none of these counts as "Other". */
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Georgian",
  "Hebrew",
  "Arabic",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Khmer",
  "Ethiopic",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Han",
  "Bopomofo",
] as const;
const SCRIPT_RES = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);
/** Scripts written together (Unicode's "highly restrictive" profile): Japanese, Chinese and Korean with Latin. */
const SCRIPT_MIXES: readonly string[][] = [
  ["Latin", "Han", "Hiragana", "Katakana"],
  ["Latin", "Han", "Bopomofo"],
  ["Latin", "Han", "Hangul"],
];

/** The scripts of a name's letters (digits and punctuation have none). */
export function letterScripts(name: string): Set<string> {
  const out = new Set<string>();
  for (const ch of name) {
    if (!/\p{L}/u.test(ch)) continue;
    out.add(SCRIPT_RES.find(([, re]) => re.test(ch))?.[0] ?? "Other");
  }
  return out;
}

/**
 * One script per name (issue 24): 'аdmin' with a Cyrillic а mixes Cyrillic and Latin and passes for 'admin'.
 * Japanese, Chinese and Korean may mix with Latin, as they are written.
 */
export function isSingleScript(name: string): boolean {
  const scripts = [...letterScripts(name)];
  return scripts.length <= 1 || SCRIPT_MIXES.some((mix) => scripts.every((s) => mix.includes(s)));
}

/** Letters that show nothing (Hangul fillers) and other default-ignorable characters. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

export const usernameSchema = z
  .string()
  .trim()
  .min(2, "Username must be at least 2 characters")
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, "Username may use letters, numbers, spaces, '.', '-' and '_'")
  .refine((name) => !INVISIBLE.test(name), "Username may use letters, numbers, spaces, '.', '-' and '_'")
  .refine(
    isSingleScript,
    "Username must use one alphabet: letters of different scripts (like Latin and Cyrillic) look alike",
  );

/** Profile edit: only the username is editable here (e-mail never is). */
export const updateProfileSchema = z.object({ username: usernameSchema }).strict();
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

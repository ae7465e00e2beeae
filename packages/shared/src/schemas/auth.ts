import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../constants.js";
import { MESSAGES } from "../messages.js";
import { usernameSchema } from "./user.js";

export const emailSchema = z
  .string({ error: MESSAGES.enterEmailFirst })
  .trim()
  .min(1, MESSAGES.enterEmailFirst)
  .max(254, MESSAGES.invalidEmail)
  .pipe(z.email(MESSAGES.invalidEmail))
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A form that has the password typed twice: `key` and `confirmPassword` must match, the error on the latter. */
function typedTwice<K extends string, S extends z.ZodType<Record<K | "confirmPassword", string>>>(
  schema: S,
  key: K,
): S {
  return schema.refine((v: Record<K | "confirmPassword", string>) => v[key] === v.confirmPassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });
}

export const registerSchema = typedTwice(
  z.object({
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: MESSAGES.passwordsDoNotMatch }),
    /** The username chosen (issue 38; the form offers a neutral handle); without one the server makes a handle. */
    username: usernameSchema.optional(),
  }),
  "password",
);
export type RegisterInput = z.input<typeof registerSchema>;

/** POST /api/auth/register's answer; `waitlist`: new accounts wait on the waitlist (the site's gate is on). */
export const registerResultSchema = z.object({ ok: z.literal(true), message: z.string(), waitlist: z.boolean() });
export type RegisterResult = z.infer<typeof registerResultSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: "Please enter your password" })
    .min(1, "Please enter your password")
    .max(PASSWORD_MAX_LENGTH),
});
export type LoginInput = z.input<typeof loginSchema>;

export const emailOnlySchema = z.object({ email: emailSchema });
export type EmailOnlyInput = z.input<typeof emailOnlySchema>;

export const resetPasswordSchema = typedTwice(
  z.object({
    token: z.string().min(1, MESSAGES.invalidToken).max(2000),
    newPassword: passwordSchema,
    confirmPassword: z.string(),
  }),
  "newPassword",
);
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

export const changePasswordSchema = typedTwice(
  z.object({
    currentPassword: z.string().min(1, "Please enter your current password").max(PASSWORD_MAX_LENGTH),
    newPassword: passwordSchema,
    confirmPassword: z.string(),
  }),
  "newPassword",
);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export const verifyEmailQuerySchema = z.object({ token: z.string().min(1).max(2000) });

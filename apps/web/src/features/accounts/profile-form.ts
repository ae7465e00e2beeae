import { changePasswordSchema, MESSAGES, updateProfileSchema } from "@unheard/shared";
import type { FieldErrors, Resolver } from "react-hook-form";

/** The profile edit form: username plus an optional password change. */
export type ProfileForm = { username: string; currentPassword: string; newPassword: string; confirmPassword: string };

/** The form's field names, for mapping API field errors. */
export const PROFILE_FIELDS = ["username", "currentPassword", "newPassword", "confirmPassword"] as const;

/** True when the user started a password change (any password field filled in). */
export function wantsPasswordChange(values: ProfileForm): boolean {
  return Boolean(values.currentPassword || values.newPassword || values.confirmPassword);
}

/**
 * Checks the form with the shared schemas: the username always, the password only when one of the
 * password fields is filled in (then all three are needed, as the API asks for the current one).
 */
export const profileResolver: Resolver<ProfileForm> = async (values) => {
  const errors: FieldErrors<ProfileForm> = {};
  const username = updateProfileSchema.safeParse({ username: values.username });
  if (!username.success) {
    errors.username = { type: "validate", message: username.error.issues[0]?.message ?? MESSAGES.profileUpdateFailed };
  }
  if (wantsPasswordChange(values)) {
    const password = changePasswordSchema.safeParse(values);
    if (!password.success) {
      for (const issue of password.error.issues) {
        const field = PROFILE_FIELDS.find((f) => f === issue.path[0]);
        if (field && !errors[field]) errors[field] = { type: "validate", message: issue.message };
      }
    }
  }
  if (Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: { ...values, username: username.data?.username ?? values.username }, errors: {} };
};

/** User-facing messages, worded as in spec §8 (the first wording where the spec gives two). */
export const MESSAGES = {
  // Auth
  loginSuccess: "Successfully logged in!",
  loginFailed: "Failed to log in",
  logoutSuccess: "Successfully logged out!",
  logoutFailed: "Failed to log out",
  emailNotVerified: "Please verify your email before logging in",
  verificationSent: "Verification email sent!",
  resetSent: "Password reset email sent!",
  resetFailed: "Failed to reset email",
  registerSuccess: "Registration successful! Please check your email to verify your account.",
  registerFailed: "Failed to register",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters",
  enterEmailFirst: "Please enter your email address first",
  invalidEmail: "Please enter a valid email address",
  invalidCredentials: "Failed to log in",
  invalidToken: "This link is invalid or has expired. Please request a new one.",
  currentPasswordWrong: "Current password is incorrect",
  emailVerified: "Email verified! You can now log in.",
  tooManyRequests: "Too many attempts. Please wait a moment and try again.",
  // Profile
  profileLoadFailed: "Failed to load profile data",
  profileUpdateFailed: "Failed to update profile",
  passwordUpdated: "Password updated successfully",
  profileUpdated: "Profile updated successfully",
  usernameTaken: "That username is already taken",
  loginToViewProfile: "Please log in to view your profile",
  // Generic
  signInRequired: "Please sign in to continue",
  adminOnly: "Admin access only.",
  superAdminOnly: "Super admin access only.",
  notFound: "Not found",
  badRequest: "Invalid request",
  payloadTooLarge: "Request body is too large",
  unsupportedMediaType: "Unsupported content type",
  internal: "Something went wrong. Please try again.",
  forbiddenOrigin: "Cross-site request refused",
} as const;

/** Key of a catalogue message. */
export type MessageKey = keyof typeof MESSAGES;

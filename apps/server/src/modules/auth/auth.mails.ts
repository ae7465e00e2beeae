import type { Config } from "../../config.js";
import type { MailMessage } from "../../lib/mail.js";

/** The e-mails the account flows send; plain text with the one link in it. */
export function authMails(config: Config) {
  const base = config.publicUrl;
  return {
    verifyEmail(to: string, token: string): MailMessage {
      const link = `${base}/api/auth/verify-email?token=${encodeURIComponent(token)}`;
      return {
        to,
        subject: "Verify your e-mail for Unheard",
        link,
        text: `Welcome to Unheard!\n\nConfirm your e-mail address by opening this link:\n\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this message.\n`,
      };
    },
    resetPassword(to: string, token: string): MailMessage {
      const link = `${base}/reset-password?token=${encodeURIComponent(token)}`;
      return {
        to,
        subject: "Reset your Unheard password",
        link,
        text: `Someone asked to reset the password of your Unheard account.\n\nChoose a new password here:\n\n${link}\n\nThe link works for one hour. If it was not you, ignore this message: your password stays as it is.\n`,
      };
    },
    existingAccount(to: string): MailMessage {
      const link = `${base}/login`;
      return {
        to,
        subject: "You already have an Unheard account",
        link,
        text: `Someone tried to register on Unheard with this e-mail address, which already has an account.\n\nIf it was you, log in here (or use 'Forgot password?'):\n\n${link}\n\nIf it was not you, ignore this message.\n`,
      };
    },
  };
}

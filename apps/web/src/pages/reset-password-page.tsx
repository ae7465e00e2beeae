import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, resetPasswordSchema, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { useResetPassword } from "../api/auth";
import { handleFormError } from "../api/form-errors";
import { AuthCard } from "../components/auth-card";
import { Button, LinkButton } from "../components/button";
import { Notice } from "../components/notice";
import { TextField } from "../components/text-field";
import { sleep } from "../lib/sleep";
import { toast } from "../lib/toast";

// The catalogue's 'Failed to reset email' is about sending the e-mail; this is about the new password.
const RESET_FAILED = "Failed to reset password";

/** /reset-password?token=...: the page the reset e-mail links to; sets a new password, then /login. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, newPassword: "", confirmPassword: "" },
  });
  const { errors, isSubmitting } = form.formState;

  if (!token) {
    return (
      <AuthCard documentTitle="Reset Password" title="Reset your password">
        <Notice
          tone="error"
          action={
            <LinkButton to="/login" variant="secondary" size="sm">
              Back to Login
            </LinkButton>
          }
        >
          {MESSAGES.invalidToken} Use “Forgot password?” on the login page to get a new link.
        </Notice>
      </AuthCard>
    );
  }

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await reset.mutateAsync(values);
      toast.success(res.message ?? MESSAGES.passwordUpdated);
    } catch (err) {
      handleFormError(err, RESET_FAILED, form.setError, ["newPassword", "confirmPassword"]);
      return;
    }
    await sleep(TOAST_REDIRECT_DELAY_MS);
    await navigate("/login", { replace: true });
  });

  return (
    <AuthCard
      documentTitle="Reset Password"
      title="Choose a new password"
      subtitle="Pick something you have not used here before."
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          error={errors.newPassword?.message ?? errors.token?.message}
          {...form.register("newPassword")}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        <Button type="submit" size="lg" loading={isSubmitting} className="mt-2 w-full">
          {isSubmitting ? "Saving…" : "Set New Password"}
        </Button>
      </form>
    </AuthCard>
  );
}

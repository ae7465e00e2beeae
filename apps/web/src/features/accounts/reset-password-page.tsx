import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, resetPasswordSchema, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { handleFormError } from "../../lib/api/form-errors";
import { sleep } from "../../lib/sleep";
import { toast } from "../../lib/toast";
import { SubmitButton } from "../../ui/form-actions";
import { PasswordField } from "../../ui/form-fields";
import { BackNotice } from "../../ui/notice";
import { useResetPassword } from "./auth";
import { AuthCard } from "./auth-card";

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
        <BackNotice to="/login" label="Back to Login">
          {MESSAGES.invalidToken} Use “Forgot password?” on the login page to get a new link.
        </BackNotice>
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
        <PasswordField
          form={form}
          name="newPassword"
          label="New Password"
          hint="At least 6 characters."
          // The token is no field of its own: a bad one is reported here.
          error={errors.newPassword?.message ?? errors.token?.message}
        />
        <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
        <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Saving…">
          Set New Password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}

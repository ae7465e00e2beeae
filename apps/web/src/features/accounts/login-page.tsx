import { zodResolver } from "@hookform/resolvers/zod";
import { emailOnlySchema, loginSchema, MESSAGES, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { isApiError } from "../../lib/api/api";
import { handleFormError } from "../../lib/api/form-errors";
import { handleError } from "../../lib/api/handle-error";
import { safeNextPath } from "../../lib/safe-next";
import { sleep } from "../../lib/sleep";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { SubmitButton } from "../../ui/form-actions";
import { EmailField, PasswordField } from "../../ui/form-fields";
import { Notice } from "../../ui/notice";
import { useForgotPassword, useLogin, useResendVerification } from "./auth";
import { AuthCard } from "./auth-card";
import { useMe } from "./me";

// The spec has no wording for a failed resend; this stays local until the catalogue has one.
const RESEND_FAILED = "Failed to send verification email";

/** /login: e-mail and password, forgot password, resend verification, and the verify-link landing. */
export function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const verify = params.get("verify");
  const navigate = useNavigate();
  const { me } = useMe();
  const login = useLogin();
  const resend = useResendVerification();
  const forgot = useForgotPassword();
  // Set while this page signs the user in, so the "already signed in" redirect waits for the toast delay.
  const [signingIn, setSigningIn] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);

  const form = useForm({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });
  const { isSubmitting } = form.formState;

  if (me && !signingIn) return <Navigate to={next} replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    setUnverifiedEmail(null);
    setSigningIn(true);
    try {
      await login.mutateAsync(values);
    } catch (err) {
      setSigningIn(false);
      if (isApiError(err) && err.code === "email_not_verified") {
        setUnverifiedEmail(values.email);
        return;
      }
      handleFormError(err, MESSAGES.loginFailed, form.setError, ["email", "password"]);
      return;
    }
    toast.success(MESSAGES.loginSuccess);
    await sleep(TOAST_REDIRECT_DELAY_MS);
    await navigate(next, { replace: true });
  });

  /** The e-mail typed so far, checked; toasts or marks the field when it is missing or malformed. */
  const typedEmail = (): string | null => {
    const raw = form.getValues("email").trim();
    if (!raw) {
      toast.error(MESSAGES.enterEmailFirst);
      form.setFocus("email");
      return null;
    }
    const parsed = emailOnlySchema.safeParse({ email: raw });
    if (!parsed.success) {
      form.setError(
        "email",
        { message: parsed.error.issues[0]?.message ?? MESSAGES.invalidEmail },
        { shouldFocus: true },
      );
      return null;
    }
    form.clearErrors("email");
    return parsed.data.email;
  };

  const onForgot = async () => {
    const email = typedEmail();
    if (!email) return;
    try {
      const res = await forgot.mutateAsync({ email });
      toast.success(res.message ?? MESSAGES.resetSent);
    } catch (err) {
      handleError(err, MESSAGES.resetFailed);
    }
  };

  const onResend = async (email: string | null) => {
    if (!email) return;
    try {
      const res = await resend.mutateAsync({ email });
      toast.success(res.message ?? MESSAGES.verificationSent);
    } catch (err) {
      handleError(err, RESEND_FAILED);
    }
  };

  const resendButton = (email: () => string | null) => (
    <Button variant="secondary" size="sm" loading={resend.isPending} onClick={() => void onResend(email())}>
      Resend verification email
    </Button>
  );

  return (
    <AuthCard
      documentTitle="Login"
      title="Welcome back"
      subtitle="Log in to favourite, vote on and upload unreleased songs."
      footer={
        <>
          New to Unheard?{" "}
          <Link
            to="/register"
            className="font-medium text-violet-300 underline decoration-violet-300/40 underline-offset-2 hover:text-violet-200 hover:decoration-violet-200"
          >
            Create an account
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {verify === "ok" ? <Notice tone="success">{MESSAGES.emailVerified}</Notice> : null}
        {verify === "failed" ? (
          <Notice tone="error" action={resendButton(typedEmail)}>
            {MESSAGES.invalidToken} Enter your e-mail below to get a new verification link.
          </Notice>
        ) : null}
        {unverifiedEmail ? (
          <Notice tone="error" action={resendButton(() => unverifiedEmail)}>
            {MESSAGES.emailNotVerified}
          </Notice>
        ) : null}

        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <EmailField form={form} name="email" />
          <PasswordField
            form={form}
            name="password"
            label="Password"
            autoComplete="current-password"
            labelAside={
              <Button variant="link" onClick={() => void onForgot()} disabled={forgot.isPending}>
                Forgot password?
              </Button>
            }
          />
          <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Logging in…">
            Log In
          </SubmitButton>
        </form>
      </div>
    </AuthCard>
  );
}

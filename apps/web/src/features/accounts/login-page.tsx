import { zodResolver } from "@hookform/resolvers/zod";
import { emailOnlySchema, loginSchema, MESSAGES, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useEffect, useState } from "react";
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

/**
 * /login: e-mail, password and Log In, in that order, the e-mail field focused on arrival; "Forgot password?" after
 * the form opens a separate reset form, so no press meant for logging in ever sends a reset (issue 38). Also the
 * resend of a verification e-mail and the verify-link landing.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const verify = params.get("verify");
  const navigate = useNavigate();
  const { me } = useMe();
  const login = useLogin();
  const resend = useResendVerification();
  // Set while this page signs the user in, so the "already signed in" redirect waits for the toast delay.
  const [signingIn, setSigningIn] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const [resetSentTo, setResetSentTo] = useState<string | null>(null);

  const form = useForm({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });
  const { isSubmitting } = form.formState;
  const { setFocus } = form;

  // The e-mail field has focus on arrival, and again when the reset form gives way to the login form.
  useEffect(() => {
    if (!resetting) setFocus("email");
  }, [resetting, setFocus]);

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

  if (resetting)
    return (
      <ResetRequest
        email={form.getValues("email").trim()}
        onDone={(sentTo) => {
          if (sentTo) {
            setResetSentTo(sentTo);
            form.setValue("email", sentTo);
          }
          setResetting(false);
        }}
      />
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
        {resetSentTo ? (
          <Notice tone="success">
            {MESSAGES.resetSent} Check <span className="break-all font-medium">{resetSentTo}</span>.
          </Notice>
        ) : null}

        {/* Tab goes E-mail, Password, Log In: nothing sits between a label and its field (issue 38). */}
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <EmailField form={form} name="email" />
          <PasswordField form={form} name="password" label="Password" autoComplete="current-password" />
          <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Logging in…">
            Log In
          </SubmitButton>
        </form>
        {/* Outside the form: Enter in a field never reaches it, and a press only opens the reset form. */}
        <p className="text-center text-sm">
          <Button variant="link" onClick={() => setResetting(true)}>
            Forgot password?
          </Button>
        </p>
      </div>
    </AuthCard>
  );
}

/**
 * "Forgot password?": its own form, with the e-mail typed on the login form filled in. A reset e-mail goes only
 * from "Send reset link" here. `onDone` gets the address the link went to, or null when the person went back.
 */
function ResetRequest({ email, onDone }: { email: string; onDone: (sentTo: string | null) => void }) {
  const forgot = useForgotPassword();
  const form = useForm({ resolver: zodResolver(emailOnlySchema), defaultValues: { email } });
  const { isSubmitting } = form.formState;
  const { setFocus } = form;

  useEffect(() => setFocus("email", { shouldSelect: false }), [setFocus]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await forgot.mutateAsync(values);
      toast.success(res.message ?? MESSAGES.resetSent);
    } catch (err) {
      handleFormError(err, MESSAGES.resetFailed, form.setError, ["email"]);
      return;
    }
    onDone(values.email);
  });

  return (
    <AuthCard
      documentTitle="Reset Password"
      title="Reset your password"
      subtitle="Enter your account's e-mail and we will send you a link to choose a new password."
    >
      <form noValidate onSubmit={onSubmit} aria-label="Reset your password" className="flex flex-col gap-4">
        <EmailField form={form} name="email" />
        <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Sending…">
          Send reset link
        </SubmitButton>
        <Button variant="ghost" onClick={() => onDone(null)}>
          Back to log in
        </Button>
      </form>
    </AuthCard>
  );
}

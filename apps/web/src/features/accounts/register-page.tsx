import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, neutralHandle, REDIRECT_AFTER_REGISTER_MS, registerSchema } from "@unheard/shared";
import { MailCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate } from "react-router";
import { handleFormError } from "../../lib/api/form-errors";
import { LinkButton } from "../../ui/button";
import { SubmitButton } from "../../ui/form-actions";
import { EmailField, FormTextField, PasswordField } from "../../ui/form-fields";
import { IconCircle } from "../../ui/icon-circle";
import { Notice } from "../../ui/notice";
import { useRegister } from "./auth";
import { AuthCard } from "./auth-card";
import { useMe } from "./me";

/** A neutral handle made in the browser (the server's words), offered as the username. */
function offeredHandle(): string {
  return neutralHandle((min, max) => min + ((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % (max - min)));
}

/**
 * /register: e-mail, a username (a neutral handle offered, the member's to change; issue 38), password, confirm;
 * then 'Check Your Email' (with the waitlist explained while the gate is on) and on to /login.
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const { me } = useMe();
  const register = useRegister();
  const [sent, setSent] = useState<{ to: string; waitlist: boolean } | null>(null);
  const sentTo = sent?.to ?? null;
  const [offered] = useState(offeredHandle);
  const form = useForm({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: "", username: offered, password: "", confirmPassword: "" },
  });
  const { isSubmitting } = form.formState;

  useEffect(() => {
    if (!sent) return;
    // The waitlist explanation needs the time to read it: no automatic move on then.
    if (sent.waitlist) return;
    const timer = window.setTimeout(() => void navigate("/login"), REDIRECT_AFTER_REGISTER_MS);
    return () => window.clearTimeout(timer);
  }, [sent, navigate]);

  if (sentTo) {
    return (
      <AuthCard documentTitle="Check Your Email" title="Check Your Email">
        <div className="flex flex-col items-start gap-4">
          <div className="flex items-start gap-3">
            <IconCircle
              icon={MailCheck}
              className="size-10 shrink-0 bg-violet-500/15 text-violet-300"
              iconClassName="size-5"
            />
            <p role="status" className="pt-2 text-zinc-200">
              {MESSAGES.registerSuccess}
            </p>
          </div>
          <p className="text-sm text-zinc-400">
            We sent a verification link to <span className="break-all font-medium text-zinc-200">{sentTo}</span>.
            {sent?.waitlist ? null : " Taking you to the login page…"}
          </p>
          {sent?.waitlist ? (
            <Notice tone="info">
              <h2 className="font-semibold text-sky-50">You join the waitlist</h2>
              <p className="mt-1">{MESSAGES.registerWaitlistNote}</p>
            </Notice>
          ) : null}
          <LinkButton to="/login" variant="secondary">
            Go to Login
          </LinkButton>
        </div>
      </AuthCard>
    );
  }

  if (me) return <Navigate to="/" replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await register.mutateAsync(values);
      setSent({ to: values.email, waitlist: res.waitlist });
    } catch (err) {
      handleFormError(err, MESSAGES.registerFailed, form.setError, [
        "email",
        "username",
        "password",
        "confirmPassword",
      ]);
    }
  });

  return (
    <AuthCard
      documentTitle="Register"
      title="Create your account"
      subtitle="Join the community tracking and verifying unreleased music."
      footer={
        <>
          Already have an account?{" "}
          <Link
            to="/login"
            className="font-medium text-violet-300 underline decoration-violet-300/40 underline-offset-2 hover:text-violet-200 hover:decoration-violet-200"
          >
            Log in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <EmailField form={form} name="email" />
        <FormTextField
          form={form}
          name="username"
          label="Username"
          // Not "username": a password manager would save that as the login beside the new password, and fill it
          // into the login form's e-mail field later. The e-mail is the login; this is the name shown.
          autoComplete="nickname"
          autoCapitalize="none"
          spellCheck={false}
          hint="Shown with your uploads and on your profile. We picked this one for you: keep it, or type your own."
        />
        <PasswordField form={form} name="password" label="Password" hint="At least 6 characters." />
        <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
        <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Creating account…">
          Create Account
        </SubmitButton>
      </form>
    </AuthCard>
  );
}

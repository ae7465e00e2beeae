import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, REDIRECT_AFTER_REGISTER_MS, registerSchema } from "@unheard/shared";
import { MailCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate } from "react-router";
import { handleFormError } from "../../lib/api/form-errors";
import { LinkButton } from "../../ui/button";
import { SubmitButton } from "../../ui/form-actions";
import { EmailField, PasswordField } from "../../ui/form-fields";
import { IconCircle } from "../../ui/icon-circle";
import { useRegister } from "./auth";
import { AuthCard } from "./auth-card";
import { useMe } from "./me";

/** /register: e-mail, password, confirm; then 'Check Your Email' and on to /login after 3 s. */
export function RegisterPage() {
  const navigate = useNavigate();
  const { me } = useMe();
  const register = useRegister();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: "", password: "", confirmPassword: "" },
  });
  const { isSubmitting } = form.formState;

  useEffect(() => {
    if (!sentTo) return;
    const timer = window.setTimeout(() => void navigate("/login"), REDIRECT_AFTER_REGISTER_MS);
    return () => window.clearTimeout(timer);
  }, [sentTo, navigate]);

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
            We sent a verification link to <span className="break-all font-medium text-zinc-200">{sentTo}</span>. Taking
            you to the login page…
          </p>
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
      await register.mutateAsync(values);
      setSentTo(values.email);
    } catch (err) {
      handleFormError(err, MESSAGES.registerFailed, form.setError, ["email", "password", "confirmPassword"]);
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
        <PasswordField form={form} name="password" label="Password" hint="At least 6 characters." />
        <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
        <SubmitButton size="lg" className="mt-2 w-full" pending={isSubmitting} pendingLabel="Creating account…">
          Create Account
        </SubmitButton>
      </form>
    </AuthCard>
  );
}

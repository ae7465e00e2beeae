import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, REDIRECT_AFTER_REGISTER_MS, registerSchema } from "@unheard/shared";
import { MailCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate } from "react-router";
import { useRegister } from "../api/auth";
import { handleFormError } from "../api/form-errors";
import { useMe } from "../api/me";
import { AuthCard } from "../components/auth-card";
import { Button, LinkButton } from "../components/button";
import { TextField } from "../components/text-field";

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
  const { errors, isSubmitting } = form.formState;

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
            <span className="grid size-10 shrink-0 place-items-center rounded-full bg-violet-500/15 text-violet-300">
              <MailCheck aria-hidden className="size-5" />
            </span>
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
          <Link to="/login" className="font-medium text-violet-300 hover:text-violet-200 hover:underline">
            Log in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          error={errors.password?.message}
          {...form.register("password")}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        <Button type="submit" size="lg" loading={isSubmitting} className="mt-2 w-full">
          {isSubmitting ? "Creating account…" : "Create Account"}
        </Button>
      </form>
    </AuthCard>
  );
}

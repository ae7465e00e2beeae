import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, type WaitlistJoinInput, waitlistJoinSchema } from "@unheard/shared";
import { clsx } from "clsx";
import { useForm } from "react-hook-form";
import { handleFormError } from "../api/form-errors";
import { useJoinWaitlist } from "../api/waitlist";
import { Button } from "./button";
import { TextField } from "./text-field";

const FIELDS = ["name", "email"] as const;

/**
 * Name and e-mail, checked with the shared schema (spec §5 messages), posted to the real waitlist.
 * The caller shows the success state; failures toast 'Failed to join waitlist' or mark the fields.
 */
export function WaitlistForm({
  defaultValues,
  onJoined,
  submitLabel = "Join the Waitlist",
  nameRef,
  className,
}: {
  defaultValues?: Partial<WaitlistJoinInput>;
  onJoined: (values: { name: string; email: string }, message: string) => void;
  submitLabel?: string;
  /** Lets a page focus the first field (the landing page's Early Access buttons). */
  nameRef?: (el: HTMLInputElement | null) => void;
  className?: string;
}) {
  const join = useJoinWaitlist();
  const form = useForm({
    resolver: zodResolver(waitlistJoinSchema),
    defaultValues: { name: defaultValues?.name ?? "", email: defaultValues?.email ?? "" },
  });
  const { errors, isSubmitting } = form.formState;
  const nameField = form.register("name");

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await join.mutateAsync(values);
      onJoined(values, res.message ?? MESSAGES.waitlistJoined);
    } catch (err) {
      handleFormError(err, MESSAGES.waitlistFailed, form.setError, FIELDS);
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Join the waitlist"
      className={clsx("flex flex-col gap-4", className)}
    >
      <TextField
        label="Name"
        autoComplete="name"
        placeholder="Your name"
        error={errors.name?.message}
        {...nameField}
        ref={(el) => {
          nameField.ref(el);
          nameRef?.(el);
        }}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        error={errors.email?.message}
        {...form.register("email")}
      />
      <Button type="submit" size="lg" loading={isSubmitting} className="mt-1 w-full">
        {isSubmitting ? "Joining…" : submitLabel}
      </Button>
    </form>
  );
}

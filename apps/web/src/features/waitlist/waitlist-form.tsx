import { zodResolver } from "@hookform/resolvers/zod";
import { MESSAGES, type WaitlistJoinInput, waitlistJoinSchema } from "@unheard/shared";
import { clsx } from "clsx";
import { useForm } from "react-hook-form";
import { handleFormError } from "../../lib/api/form-errors";
import { SubmitButton } from "../../ui/form-actions";
import { EmailField, FormTextField } from "../../ui/form-fields";
import { useJoinWaitlist } from "./waitlist";

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
  const { isSubmitting } = form.formState;

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
      <FormTextField form={form} name="name" label="Name" autoComplete="name" placeholder="Your name" ref={nameRef} />
      <EmailField form={form} name="email" />
      <SubmitButton size="lg" className="mt-1 w-full" pending={isSubmitting} pendingLabel="Joining…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

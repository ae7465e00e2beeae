import { clsx } from "clsx";
import { type FormEvent, type ReactNode, useEffect, useId, useState } from "react";
import { REASON_LABELS } from "../lib/format";
import { DialogFrame } from "./dialog-frame";
import { FormActions, SubmitButton } from "./form-actions";

/**
 * A reason (radio buttons) plus optional details, as the report and downvote dialogs ask for
 * (spec §2). `onSubmit` resolves true to close the dialog.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  reasons,
  reasonRequiredMessage,
  submitLabel,
  submitting,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  reasons: readonly string[];
  reasonRequiredMessage: string;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (input: { reason: string; details: string }) => Promise<boolean>;
}) {
  const [reason, setReason] = useState<string | null>(null);
  const [details, setDetails] = useState("");
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  // Every opening starts from a blank form.
  useEffect(() => {
    if (!open) return;
    setReason(null);
    setDetails("");
    setError(null);
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setError(reasonRequiredMessage);
      return;
    }
    if (await onSubmit({ reason, details: details.trim() })) onOpenChange(false);
  };

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <fieldset aria-describedby={error ? `${ids}-error` : undefined}>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Reason</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {reasons.map((r) => (
              <label
                key={r}
                className={clsx(
                  "flex cursor-pointer items-center gap-2.5 rounded-xl border px-3 py-2.5 text-sm transition-colors",
                  reason === r
                    ? "border-violet-400/60 bg-violet-500/15 text-white"
                    : "border-white/10 bg-white/[0.03] text-zinc-300 hover:border-white/20",
                )}
              >
                <input
                  type="radio"
                  name={`${ids}-reason`}
                  value={r}
                  checked={reason === r}
                  onChange={() => {
                    setReason(r);
                    setError(null);
                  }}
                  className="size-4 accent-violet-500"
                />
                {REASON_LABELS[r] ?? r}
              </label>
            ))}
          </div>
          {error ? (
            <p id={`${ids}-error`} role="alert" className="mt-2 text-sm text-rose-300">
              {error}
            </p>
          ) : null}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${ids}-details`} className="text-sm font-medium text-zinc-200">
            Details <span className="font-normal text-zinc-500">(optional)</span>
          </label>
          <textarea
            id={`${ids}-details`}
            value={details}
            onChange={(e) => setDetails(e.target.value)}
            maxLength={500}
            rows={3}
            placeholder="Anything that helps others check it"
            className="w-full resize-y rounded-xl border border-white/35 bg-zinc-950/60 px-3.5 py-2.5 text-[15px] text-zinc-100 placeholder:text-zinc-500 hover:border-white/50 focus:border-violet-400/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/70"
          />
        </div>
        <FormActions cancel={() => onOpenChange(false)} busy={submitting}>
          <SubmitButton pending={submitting}>{submitLabel}</SubmitButton>
        </FormActions>
      </form>
    </DialogFrame>
  );
}

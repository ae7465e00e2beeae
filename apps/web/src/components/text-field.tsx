import { clsx } from "clsx";
import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from "react";

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** Message shown under the field; also marks the input invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Something shown at the right of the label, e.g. a "Forgot password?" action. */
  labelAside?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled input with its error message underneath, wired up for screen readers. */
export function TextField({ label, error, hint, labelAside, id, className, ref, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className={clsx("flex flex-col gap-1.5", className)}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        id={inputId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={clsx(
          "h-11 w-full rounded-xl border bg-zinc-900/80 px-3.5 text-[15px] text-zinc-100 placeholder:text-zinc-500",
          "transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/70",
          "disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-zinc-900/40 read-only:text-zinc-400",
          error ? "border-rose-400/70" : "border-white/10 hover:border-white/20 focus:border-violet-400/60",
        )}
        {...rest}
      />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-rose-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

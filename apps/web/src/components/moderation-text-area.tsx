import { clsx } from "clsx";
import { type ReactNode, type Ref, type TextareaHTMLAttributes, useId } from "react";

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  /** Message shown under the field; also marks it invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
};

/** A labelled multi-line input styled like TextField, with its error message underneath. */
export function TextArea({ label, error, hint, id, className, ref, rows = 4, ...rest }: TextAreaProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={clsx("flex flex-col gap-1.5", className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      <textarea
        id={inputId}
        ref={ref}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        className={clsx(
          "w-full resize-y rounded-xl border bg-zinc-900/80 px-3.5 py-2.5 text-[15px] text-zinc-100 placeholder:text-zinc-500",
          "transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/70",
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

import { clsx } from "clsx";
import { ChevronDown } from "lucide-react";
import { type Ref, type SelectHTMLAttributes, useId } from "react";

/** Classes of the native select the moderation screens use, less its size (a real <select> keeps mobile pickers). */
const selectClass = clsx(
  "w-full appearance-none border border-white/10 bg-zinc-900/80 pr-9 pl-3.5 text-zinc-100",
  "transition-colors hover:border-white/20 focus:border-violet-400/60 focus:outline-none focus-visible:ring-2",
  "focus-visible:ring-violet-400/70 disabled:cursor-not-allowed disabled:opacity-60",
);

/** A native select with the app's look and a chevron; `compact` fits it into table rows. */
export function Select({
  className,
  ref,
  compact = false,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement>; compact?: boolean }) {
  return (
    <span className={clsx("relative block", className)}>
      <select
        ref={ref}
        className={clsx(selectClass, compact ? "h-9 rounded-lg text-sm" : "h-11 rounded-xl text-[15px]")}
        {...rest}
      />
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-400"
      />
    </span>
  );
}

/** A labelled select with its error message underneath. */
export function SelectField({
  label,
  error,
  id,
  className,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
}) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={clsx("flex flex-col gap-1.5", className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
        {label}
      </label>
      <Select
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...rest}
      />
      {error ? (
        <p id={errorId} className="text-sm text-rose-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

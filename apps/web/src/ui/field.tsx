import { clsx } from "clsx";
import { type ReactNode, useId } from "react";

/** What every labelled field takes besides its control's own attributes. */
export type FieldProps = {
  label: ReactNode;
  /** Something shown at the right of the label, e.g. a "Forgot password?" action or a "Changed" pill. */
  labelAside?: ReactNode;
  hint?: ReactNode;
  /** Message shown under the field; also marks the control invalid. */
  error?: string | undefined;
  id?: string | undefined;
  className?: string | undefined;
};

/** The attributes that tie a control to its label and to the message that describes it. */
export type ControlProps = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** A control's own attributes `A` (say, an input's) with the field's in place of those of the same name. */
export type WithField<A> = Omit<A, keyof FieldProps> & FieldProps;

/**
 * Label above, the control, then the hint or (instead of it) the error message, wired up for screen readers:
 * the control is described by the error when there is one, else by the hint. `render` draws the control from
 * the attributes that tie it to the label and message, and the props that are not the field's.
 */
export function Field<P extends FieldProps>({
  render,
  ...props
}: P & { render: (control: ControlProps, rest: Omit<P, keyof FieldProps | "render">) => ReactNode }) {
  const { label, labelAside, hint, error, id, className, ...rest } = props;
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const control: ControlProps = {
    id: inputId,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : hint ? hintId : undefined,
  };
  return (
    <div className={clsx("flex flex-col gap-1.5", className)}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-zinc-200">
          {label}
        </label>
        {labelAside}
      </div>
      {render(control, rest as unknown as Omit<P, keyof FieldProps | "render">)}
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

/** Border, fill, text and focus ring shared by the inputs, selects and text areas; red border when invalid. */
export function controlClass(invalid: boolean): string {
  return clsx(
    "w-full border bg-zinc-900/80 text-zinc-100 placeholder:text-zinc-500",
    "transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/70",
    "disabled:cursor-not-allowed disabled:opacity-60",
    // white/35: the field's outline is what shows it is a field, 3:1 against the panel and the fill (WCAG 1.4.11).
    invalid ? "border-rose-400/70" : "border-white/35 hover:border-white/50 focus:border-violet-400/60",
  );
}

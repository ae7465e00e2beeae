import { clsx } from "clsx";
import { ChevronDown } from "lucide-react";
import type { Ref, SelectHTMLAttributes } from "react";
import type { FieldValues } from "react-hook-form";
import { controlClass, Field, type WithField } from "./field";
import { type BoundProps, bind } from "./form-binding";

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  ref?: Ref<HTMLSelectElement>;
  /** Fits the select into table rows. */
  compact?: boolean;
};

/** A native select (a real <select> keeps mobile pickers) with the app's look and a chevron. */
export function Select({ className, ref, compact = false, ...rest }: SelectProps) {
  return (
    <span className={clsx("relative block", className)}>
      <select
        ref={ref}
        className={clsx(
          "appearance-none pr-9 pl-3.5",
          controlClass(Boolean(rest["aria-invalid"])),
          compact ? "h-9 rounded-lg text-sm" : "h-11 rounded-xl text-[15px]",
        )}
        {...rest}
      />
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-400"
      />
    </span>
  );
}

/** A labelled select with its hint or error message underneath. */
export function SelectField(props: WithField<SelectProps> & { label: string }) {
  return <Field {...props} render={(control, rest) => <Select {...control} {...rest} />} />;
}

/** A SelectField registered on a react-hook-form form. */
export function FormSelectField<T extends FieldValues>(props: BoundProps<typeof SelectField, T>) {
  const { form, name, ...rest } = props;
  return <SelectField {...rest} {...bind(form, name)} />;
}

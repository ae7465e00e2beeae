import { clsx } from "clsx";
import type { InputHTMLAttributes, Ref } from "react";
import { controlClass, Field, type WithField } from "./field";

type TextFieldProps = WithField<InputHTMLAttributes<HTMLInputElement>> & { label: string; ref?: Ref<HTMLInputElement> };

const inputClass = "h-11 rounded-xl px-3.5 text-[15px] read-only:bg-zinc-900/40 read-only:text-zinc-400";

/** A labelled input with its error message underneath, wired up for screen readers. */
export function TextField({ ref, ...props }: TextFieldProps) {
  const className = clsx(inputClass, controlClass(Boolean(props.error)));
  return (
    <Field {...props} render={(control, rest) => <input ref={ref} {...control} className={className} {...rest} />} />
  );
}

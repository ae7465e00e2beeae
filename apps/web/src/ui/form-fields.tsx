import type { ComponentProps, Ref } from "react";
import type { FieldValues } from "react-hook-form";
import { type BoundProps, bind } from "./form-binding";
import { TextField } from "./text-field";

/** The control's ref, given to the form (to focus an invalid field) and, if asked, to the caller too. */
function refs<E>(formRef: (el: E | null) => void, own: Ref<E> | undefined): Ref<E> {
  if (!own) return formRef;
  return (el: E | null) => {
    formRef(el);
    if (typeof own === "function") own(el);
    else own.current = el;
  };
}

/** A TextField registered on a react-hook-form form; `error` overrides the form's message for the field. */
export function FormTextField<T extends FieldValues>(props: BoundProps<typeof TextField, T> & { error?: string }) {
  const { form, name, error, ref, ...rest } = props;
  const bound = bind(form, name);
  return <TextField {...rest} {...bound} error={error ?? bound.error} ref={refs(bound.ref, ref)} />;
}

type PresetProps<T extends FieldValues> = Omit<ComponentProps<typeof FormTextField<T>>, "type">;

/** The e-mail field of the account and waitlist forms. */
export function EmailField<T extends FieldValues>(props: Omit<PresetProps<T>, "label">) {
  return (
    <FormTextField
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@example.com"
      {...props}
    />
  );
}

/** A password field; password managers fill a new one unless `autoComplete` says "current-password". */
export function PasswordField<T extends FieldValues>({ autoComplete = "new-password", ...props }: PresetProps<T>) {
  return <FormTextField type="password" autoComplete={autoComplete} {...props} />;
}

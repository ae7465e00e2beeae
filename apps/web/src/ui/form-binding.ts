import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

/** The parts of a react-hook-form form (`useForm`'s answer) a field needs. */
type Form<T extends FieldValues> = Pick<UseFormReturn<T>, "register" | "getFieldState" | "formState">;

/**
 * Props of a control `C` registered on a form: the form, and the field's name there (nested paths such as
 * `artists.2.name` too), instead of `name` and `error`.
 */
export type BoundProps<C extends (props: never) => unknown, T extends FieldValues> = Omit<
  Parameters<C>[0],
  "name" | "form" | "error"
> & { form: Form<T>; name: Path<T> };

/** The message the form holds for a field: the schema's, or one the API sent back (see handleFormError). */
export function fieldError<T extends FieldValues>(form: Form<T>, name: Path<T>): string | undefined {
  return form.getFieldState(name, form.formState).error?.message;
}

/** The props that register a control: the form's message for the field, then react-hook-form's own. */
export function bind<T extends FieldValues>(form: Form<T>, name: Path<T>) {
  return { error: fieldError(form, name), ...form.register(name) };
}

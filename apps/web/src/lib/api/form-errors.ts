import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "./api";
import { handleError } from "./handle-error";

/** Put the API's per-field messages on the form's fields; returns true when any field got one. */
export function applyFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(err) || !err.fields) return false;
  let applied = false;
  for (const [name, message] of Object.entries(err.fields)) {
    const field = fields.find((f) => f === name);
    if (field) {
      setError(field, { type: "server", message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

/** A form's failure: field messages go under the fields (plus the fallback toast), else handleError. */
export function handleFormError<T extends FieldValues>(
  err: unknown,
  fallbackMessage: string,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (applyFieldErrors(err, setError, fields)) {
    handleError(undefined, fallbackMessage);
    return;
  }
  handleError(err, fallbackMessage);
}

import { clsx } from "clsx";
import type { ComponentProps, ReactNode } from "react";
import { Button, LinkButton } from "./button";

/** A form's submit button: it spins while `pending`, and shows `pendingLabel` (when given) meanwhile. */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  ...rest
}: Omit<ComponentProps<typeof Button>, "type" | "loading"> & { pending: boolean; pendingLabel?: string }) {
  return (
    <Button type="submit" loading={pending} {...rest}>
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}

/**
 * Cancel beside a form's or dialog's main action (`children`): stacked on phones with the action on top, in a row
 * on the right from `sm`. `cancel` is a path to go back to, or what the button does; `busy` disables the button.
 */
export function FormActions({
  cancel,
  busy,
  className,
  children,
}: {
  cancel: string | (() => void);
  busy?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={clsx("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}>
      {typeof cancel === "string" ? (
        <LinkButton to={cancel} variant="ghost">
          Cancel
        </LinkButton>
      ) : (
        <Button variant="ghost" onClick={cancel} disabled={busy}>
          Cancel
        </Button>
      )}
      {children}
    </div>
  );
}

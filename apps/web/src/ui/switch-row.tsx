import { clsx } from "clsx";
import { Switch } from "radix-ui";
import { type ReactNode, useId } from "react";

/** A labelled on/off switch row (Radix Switch): the notification settings and the artist admin tools use it. */
export function SwitchRow({
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  className,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={clsx("flex items-center justify-between gap-4", className)}>
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-zinc-100">
          {label}
        </label>
        {description ? (
          <p id={`${id}-description`} className="mt-0.5 text-xs text-zinc-500">
            {description}
          </p>
        ) : null}
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={description ? `${id}-description` : undefined}
        className={clsx(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-white/10 transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
          "disabled:cursor-not-allowed disabled:opacity-50",
          "bg-zinc-700 data-[state=checked]:border-violet-400/50 data-[state=checked]:bg-violet-500",
        )}
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.3rem]" />
      </Switch.Root>
    </div>
  );
}

import { clsx } from "clsx";
import type { LucideIcon } from "lucide-react";

/** An icon in a tinted circle: the mark of the app's message panels and empty states. `className` sizes and tints it. */
export function IconCircle({
  icon: Icon,
  className,
  iconClassName = "size-6",
}: {
  icon: LucideIcon;
  className: string;
  iconClassName?: string;
}) {
  return (
    <span className={clsx("grid place-items-center rounded-full", className)}>
      <Icon aria-hidden className={iconClassName} />
    </span>
  );
}

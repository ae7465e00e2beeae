import { clsx } from "clsx";

const sizes = {
  sm: "size-9 text-sm font-semibold",
  lg: "size-16 text-2xl font-bold shadow-xl shadow-fuchsia-500/20 md:size-20 md:text-3xl",
} as const;

/**
 * A member's round avatar: the first letter of their username on the app's gradient (members have no pictures).
 * `className` gives the gradient's stops.
 */
export function UserAvatar({
  username,
  size,
  className,
}: {
  username: string;
  size: keyof typeof sizes;
  className: string;
}) {
  return (
    <span
      aria-hidden
      className={clsx(
        "grid shrink-0 place-items-center rounded-full bg-gradient-to-br uppercase text-white",
        sizes[size],
        className,
      )}
    >
      {username.slice(0, 1) || "?"}
    </span>
  );
}

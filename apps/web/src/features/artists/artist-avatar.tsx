import { clsx } from "clsx";

const sizes = {
  sm: "size-11 text-base",
  md: "size-14 text-xl",
  lg: "size-24 text-4xl md:size-32 md:text-5xl",
} as const;

/** The round gradient avatar with an artist's initial (artists have no pictures). */
export function ArtistAvatar({
  name,
  initial,
  size = "md",
  className,
}: {
  name: string;
  initial?: string | undefined;
  size?: keyof typeof sizes;
  className?: string;
}) {
  const letter = (initial || name.trim().slice(0, 1) || "?").toUpperCase();
  return (
    <span
      aria-hidden
      className={clsx(
        "grid shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 font-bold text-white",
        size === "lg" ? "shadow-xl shadow-fuchsia-500/20" : null,
        sizes[size],
        className,
      )}
    >
      {letter}
    </span>
  );
}

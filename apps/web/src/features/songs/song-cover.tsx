import { clsx } from "clsx";

/** The generated covers are square SVGs of this size (modules/covers on the server). */
const COVER_SIZE = 512;

/**
 * A song's cover: the art the server generates from its title and artists. Fixed intrinsic dimensions so the
 * layout never shifts, and lazy unless it is the one cover a page opens on.
 */
export function SongCover({
  src,
  title,
  eager = false,
  className,
}: {
  src: string;
  title: string;
  /** The page's main image (the song page): fetched at once instead of when scrolled near. */
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      src={src}
      alt={`Cover of ${title}`}
      width={COVER_SIZE}
      height={COVER_SIZE}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={eager ? "high" : undefined}
      className={clsx("bg-zinc-800 object-cover", className)}
    />
  );
}

import { clsx } from "clsx";
import { AudioLines } from "lucide-react";

// Hue pairs from the app's palette (violet, fuchsia, indigo, pink, sky, teal), picked per song.
const PALETTES: [number, number][] = [
  [262, 292],
  [292, 330],
  [240, 275],
  [330, 12],
  [205, 262],
  [175, 240],
  [275, 200],
  [310, 255],
];

/** A stable small number from a string, so a song keeps its colours everywhere. */
function hash(value: string): number {
  let h = 2166136261;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Generated artwork for a song (no cover images exist): a gradient and waveform keyed by the song's id. */
export function SongCover({
  id,
  title,
  compact = false,
  className,
}: {
  id: string;
  title: string;
  /** Thumbnail size: fewer bars and no badge. */
  compact?: boolean;
  className?: string;
}) {
  const h = hash(id);
  const [a, b] = PALETTES[h % PALETTES.length] ?? [262, 292];
  const angle = 110 + (h % 90);
  const bars = Array.from({ length: compact ? 9 : 24 }, (_, i) => 18 + ((h >>> (i % 24)) % 7) * 11 + (i % 3) * 4);
  return (
    <div
      aria-hidden
      className={clsx("relative overflow-hidden", className)}
      style={{
        background: `linear-gradient(${angle}deg, hsl(${a} 70% 38%), hsl(${b} 75% 30%) 60%, hsl(${b} 60% 14%))`,
      }}
    >
      <div className="absolute inset-0 bg-[radial-gradient(circle_at_25%_20%,rgba(255,255,255,0.22),transparent_55%)]" />
      <div
        className={clsx(
          "absolute flex h-1/2 items-end opacity-40",
          compact ? "inset-x-2 bottom-2 gap-[2px]" : "inset-x-4 bottom-4 gap-[3px]",
        )}
      >
        {bars.map((height, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed decorative pattern, never reordered
          <span key={i} className="flex-1 rounded-full bg-white/80" style={{ height: `${Math.min(height, 100)}%` }} />
        ))}
      </div>
      {compact ? null : (
        <span className="absolute top-3 right-3 grid size-8 place-items-center rounded-full bg-black/25 text-white/80 backdrop-blur-sm">
          <AudioLines className="size-4" />
        </span>
      )}
      <span className="sr-only">{title}</span>
    </div>
  );
}

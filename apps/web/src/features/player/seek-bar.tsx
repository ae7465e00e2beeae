import { clsx } from "clsx";
import { formatDuration } from "../../lib/format";

/**
 * A seek slider (the server answers Range requests): the played part in the brand gradient, the buffered part
 * lighter, named "Seek" with the time as its value text.
 */
export function SeekBar({
  current,
  duration,
  buffered = 0,
  onSeek,
  label = "Seek",
  className,
}: {
  current: number;
  duration: number;
  buffered?: number;
  onSeek: (seconds: number) => void;
  label?: string;
  className?: string;
}) {
  const max = duration > 0 ? duration : 1;
  const pct = duration > 0 ? Math.min(100, (current / duration) * 100) : 0;
  const loaded = duration > 0 ? Math.min(100, Math.max(pct, (buffered / duration) * 100)) : 0;
  return (
    <input
      type="range"
      aria-label={label}
      min={0}
      max={max}
      step={0.1}
      value={Math.min(current, max)}
      aria-valuetext={`${formatDuration(current)} of ${formatDuration(duration)}`}
      onChange={(e) => onSeek(Number(e.target.value))}
      className={clsx(
        "block h-1.5 w-full cursor-pointer appearance-none rounded-full bg-transparent",
        "focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400",
        "[&::-webkit-slider-thumb]:size-4 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow-md [&::-webkit-slider-thumb]:shadow-black/40",
        "[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-0 [&::-moz-range-thumb]:bg-white",
        className,
      )}
      style={{
        background: `linear-gradient(to right, var(--color-violet-400), var(--color-fuchsia-400) ${pct}%, rgb(255 255 255 / 0.28) ${pct}%, rgb(255 255 255 / 0.28) ${loaded}%, rgb(255 255 255 / 0.1) ${loaded}%)`,
      }}
    />
  );
}

import { clsx } from "clsx";
import { Play } from "lucide-react";
import { PlayToggle } from "./play-toggle";
import { playList } from "./player-store";
import type { QueueItem } from "./queue-model";

/**
 * A small play/pause button for a song in a compact list (a tracker's era or table row): plays the list from that
 * song. A song without audio gets an empty slot of the same size, so the rows' titles line up.
 */
export function TrackPlayButton({
  songId,
  title,
  hasAudio,
  item,
}: {
  songId: string;
  title: string;
  hasAudio: boolean;
  item: () => QueueItem;
}) {
  if (!hasAudio) return <span aria-hidden className="block size-8 shrink-0" />;
  return (
    <PlayToggle
      songId={songId}
      title={title}
      item={item}
      iconClassName="size-3.5"
      className={(playing) =>
        clsx(
          "size-8 transition-colors",
          playing
            ? "bg-violet-500 text-white"
            : "bg-white/[0.06] text-zinc-200 hover:bg-violet-500/80 hover:text-white",
        )
      }
    />
  );
}

/** "Play all" for a list: its songs queued from the first. `label` may hide on phones; `name` completes it for all. */
export function PlayAllButton({
  label,
  name,
  items,
  compactOnPhone = false,
}: {
  label: string;
  name?: string;
  items: () => QueueItem[];
  compactOnPhone?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={() => playList(items(), 0)}
      className={clsx(
        "inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full bg-violet-500 px-3 text-sm font-medium text-white",
        "hover:bg-(--color-violet-450) focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
        compactOnPhone && "max-sm:w-8 max-sm:justify-center max-sm:px-0",
      )}
    >
      <Play aria-hidden className="size-3.5" fill="currentColor" />
      <span className={clsx(compactOnPhone && "max-sm:sr-only")}>{label}</span>
      {name ? <span className="sr-only"> {name}</span> : null}
    </button>
  );
}

import { clsx } from "clsx";
import { LoaderCircle, Pause, Play } from "lucide-react";
import { usePlayList } from "./play-list";
import { toggleSong, usePlayback } from "./player-store";
import type { QueueItem } from "./queue-model";

/**
 * A song's own play/pause button (cards, the song page, tracker rows), in step with the player bar: "Play <title>"
 * or "Pause <title>", pressed while it plays. Play starts the list the button sits in from this song.
 */
export function PlayToggle({
  songId,
  title,
  item,
  className,
  iconClassName,
}: {
  songId: string;
  title: string;
  /** The song as a queue item, made when pressed. */
  item: () => QueueItem;
  /** Classes of the button, given whether the song is playing. */
  className: (playing: boolean) => string;
  iconClassName: string;
}) {
  const playback = usePlayback(songId);
  const list = usePlayList();
  const playing = playback.songId === songId && playback.playing;
  const Icon = playing && playback.loading ? LoaderCircle : playing ? Pause : Play;
  return (
    <button
      type="button"
      aria-label={`${playing ? "Pause" : "Play"} ${title}`}
      aria-pressed={playing}
      onClick={() => toggleSong(item(), list ?? undefined)}
      className={clsx(
        "grid shrink-0 place-items-center rounded-full",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
        className(playing),
      )}
    >
      <Icon
        aria-hidden
        className={clsx(
          iconClassName,
          Icon === LoaderCircle && "motion-safe:animate-spin",
          Icon === Play && "translate-x-px",
        )}
        fill={Icon === LoaderCircle ? "none" : "currentColor"}
      />
    </button>
  );
}

import { demoAudioProgressMessage, MESSAGES, type Song } from "@unheard/shared";
import { clsx } from "clsx";
import { Hourglass, VolumeX } from "lucide-react";
import { formatDuration } from "../../lib/format";
import { PlayToggle } from "../player/play-toggle";
import { PLAYBACK_FAILED, type Playback, playSongAt, usePlayback } from "../player/player-store";
import { itemFromSong } from "../player/queue-model";
import { SeekBar } from "../player/seek-bar";
import { useDemoAudioStatus } from "./demo-audio";

/** Where the shared player is in this song: times in seconds and the played share in percent (0 unless active). */
function progressOf(song: Song, playback: Playback) {
  const active = playback.songId === song.id;
  const duration = active && playback.duration > 0 ? playback.duration : (song.audio?.durationSec ?? 0);
  const current = active ? playback.currentTime : 0;
  const pct = duration > 0 ? Math.min(100, (current / duration) * 100) : 0;
  return { active, duration, current, pct };
}

/** The big round play/pause of a card or song page (the song has audio). */
function PlayPauseButton({ song, className, iconClassName }: { song: Song; className: string; iconClassName: string }) {
  return (
    <PlayToggle
      songId={song.id}
      title={song.title}
      item={() => itemFromSong(song)}
      iconClassName={iconClassName}
      className={() =>
        clsx(
          "bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-lg shadow-fuchsia-500/25",
          "transition-transform hover:scale-105 active:scale-95",
          className,
        )
      }
    />
  );
}

/**
 * A song without audio: its demo audio is still being made (shaped like the player that will take its place,
 * with how far the rendering has come), or it has none.
 */
function NoPreview({ size }: { size: "compact" | "full" }) {
  const demoAudio = useDemoAudioStatus();
  const minHeight = size === "compact" ? "min-h-10" : "min-h-14";
  // Until the server says which, an empty row: neither message flashes by before the other.
  if (demoAudio === undefined) return <div className={size === "compact" ? "h-10" : "h-5"} />;
  // The words wrap: a card is too narrow for them on one line, and cut with an ellipsis they could not be read
  // (issue 38). The row is at least the player's height, so the card does not jump when the player arrives.
  if (demoAudio)
    return (
      <div className={clsx("flex items-center", minHeight, size === "compact" ? "gap-3" : "gap-4")}>
        <span
          className={clsx(
            "grid shrink-0 place-items-center rounded-full bg-white/[0.06] text-violet-300",
            size === "compact" ? "size-10" : "size-14",
          )}
        >
          <Hourglass aria-hidden className={size === "compact" ? "size-4" : "size-6"} />
        </span>
        <p className="min-w-0 flex-1 break-words">
          <span className="block text-sm leading-snug text-zinc-300">{MESSAGES.demoAudioPreparing}</span>
          <span className="block text-[11px] leading-snug tabular-nums text-zinc-500">
            {demoAudioProgressMessage(demoAudio.done, demoAudio.total)}
          </span>
        </p>
      </div>
    );
  return (
    <p className={clsx("flex items-center gap-2 text-sm text-zinc-500", size === "compact" && "h-10")}>
      <VolumeX aria-hidden className="size-4 shrink-0" />
      {MESSAGES.previewUnavailable}
    </p>
  );
}

/**
 * A card's preview: play/pause with a thin progress line and time, or why there is none. Play starts the card's
 * list from this song (the rest of the list queued after it).
 */
export function CompactPlayer({ song }: { song: Song }) {
  const playback = usePlayback(song.id);
  if (!song.audio) return <NoPreview size="compact" />;
  const { active, duration, current, pct } = progressOf(song, playback);
  return (
    <div className="flex items-center gap-3">
      <PlayPauseButton song={song} className="size-10" iconClassName="size-4" />
      <div className="min-w-0 flex-1">
        <div className="h-1 overflow-hidden rounded-full bg-white/10">
          <div
            className="h-full rounded-full bg-gradient-to-r from-violet-400 to-fuchsia-400 transition-[width] duration-200 ease-linear"
            style={{ width: `${pct}%` }}
          />
        </div>
        <p className="mt-1.5 flex justify-between text-[11px] tabular-nums text-zinc-500">
          {active && playback.error ? (
            <span className="text-rose-300">{PLAYBACK_FAILED}</span>
          ) : (
            <>
              <span>{formatDuration(current)}</span>
              <span>{formatDuration(duration)}</span>
            </>
          )}
        </p>
      </div>
    </div>
  );
}

/** The song page's player: large play/pause, a seek bar and times; the same playback as the player bar. */
export function FullPlayer({ song }: { song: Song }) {
  const playback = usePlayback(song.id);
  if (!song.audio) return <NoPreview size="full" />;
  const { active, duration, current } = progressOf(song, playback);
  return (
    <div className="flex items-center gap-4">
      <PlayPauseButton song={song} className="size-14" iconClassName="size-6" />
      <div className="min-w-0 flex-1">
        <SeekBar current={current} duration={duration} onSeek={(seconds) => playSongAt(itemFromSong(song), seconds)} />
        <p className="mt-2 flex justify-between text-xs tabular-nums text-zinc-400">
          <span>{formatDuration(current)}</span>
          {active && playback.error ? <span className="text-rose-300">{PLAYBACK_FAILED}</span> : null}
          <span>{formatDuration(duration)}</span>
        </p>
      </div>
    </div>
  );
}

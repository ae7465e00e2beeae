import { demoAudioProgressMessage, MESSAGES, type Song } from "@unheard/shared";
import { clsx } from "clsx";
import { Hourglass, LoaderCircle, Pause, Play, VolumeX } from "lucide-react";
import { formatDuration } from "../../lib/format";
import { useDemoAudioStatus } from "./demo-audio";
import { type Playback, seekPlayback, togglePlayback, usePlayback } from "./player";

// Shown when the file exists but the browser could not play it.
const PLAYBACK_FAILED = "This preview could not be played";

/** Where the shared player is in this song: times in seconds and the played share in percent (0 unless active). */
function progressOf(song: Song, playback: Playback) {
  const active = playback.songId === song.id;
  const duration = active && playback.duration > 0 ? playback.duration : (song.audio?.durationSec ?? 0);
  const current = active ? playback.currentTime : 0;
  const pct = duration > 0 ? Math.min(100, (current / duration) * 100) : 0;
  return { active, duration, current, pct };
}

function PlayPauseButton({
  song,
  playback,
  className,
  iconClassName,
}: {
  song: Song;
  playback: Playback;
  className: string;
  iconClassName: string;
}) {
  const audio = song.audio;
  const active = playback.songId === song.id;
  const playing = active && playback.playing;
  const Icon = active && playback.loading && playing ? LoaderCircle : playing ? Pause : Play;
  return (
    <button
      type="button"
      aria-label={`${playing ? "Pause" : "Play"} ${song.title}`}
      aria-pressed={playing}
      disabled={!audio}
      onClick={() => audio && togglePlayback(song.id, audio.url, audio.durationSec)}
      className={clsx(
        "grid shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-lg shadow-fuchsia-500/25",
        "transition-transform hover:scale-105 active:scale-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300",
        className,
      )}
    >
      <Icon
        aria-hidden
        className={clsx(iconClassName, Icon === LoaderCircle && "animate-spin", Icon === Play && "translate-x-[1px]")}
        fill={Icon === LoaderCircle ? "none" : "currentColor"}
      />
    </button>
  );
}

/**
 * A song without audio: its demo audio is still being made (shaped like the player that will take its place,
 * with how far the rendering has come), or it has none.
 */
function NoPreview({ size }: { size: "compact" | "full" }) {
  const demoAudio = useDemoAudioStatus();
  const height = size === "compact" ? "h-10" : "h-14";
  // Until the server says which, an empty row: neither message flashes by before the other.
  if (demoAudio === undefined) return <div className={size === "compact" ? "h-10" : "h-5"} />;
  if (demoAudio)
    return (
      <div className={clsx("flex items-center", height, size === "compact" ? "gap-3" : "gap-4")}>
        <span
          className={clsx(
            "grid shrink-0 place-items-center rounded-full bg-white/[0.06] text-violet-300",
            size === "compact" ? "size-10" : "size-14",
          )}
        >
          <Hourglass aria-hidden className={size === "compact" ? "size-4" : "size-6"} />
        </span>
        <p className="min-w-0 flex-1">
          <span className="block truncate text-sm text-zinc-300">{MESSAGES.demoAudioPreparing}</span>
          <span className="block truncate text-[11px] tabular-nums text-zinc-500">
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

/** A card's preview: play/pause with a thin progress line and time, or why there is none. */
export function CompactPlayer({ song }: { song: Song }) {
  const playback = usePlayback(song.id);
  if (!song.audio) return <NoPreview size="compact" />;
  const { active, duration, current, pct } = progressOf(song, playback);
  return (
    <div className="flex items-center gap-3">
      <PlayPauseButton song={song} playback={playback} className="size-10" iconClassName="size-4" />
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

/** The song page's player: large play/pause, a seek bar (the server answers Range requests) and times. */
export function FullPlayer({ song }: { song: Song }) {
  const playback = usePlayback(song.id);
  const audio = song.audio;
  if (!audio) return <NoPreview size="full" />;
  const { active, duration, current, pct } = progressOf(song, playback);
  return (
    <div className="flex items-center gap-4">
      <PlayPauseButton song={song} playback={playback} className="size-14" iconClassName="size-6" />
      <div className="min-w-0 flex-1">
        <input
          type="range"
          aria-label="Seek"
          min={0}
          max={duration > 0 ? duration : 1}
          step={0.1}
          value={Math.min(current, duration > 0 ? duration : 1)}
          aria-valuetext={`${formatDuration(current)} of ${formatDuration(duration)}`}
          onChange={(e) => seekPlayback(song.id, audio.url, Number(e.target.value), audio.durationSec)}
          className={clsx(
            "block h-1.5 w-full cursor-pointer appearance-none rounded-full bg-transparent",
            "focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400",
            "[&::-webkit-slider-thumb]:size-4 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow-md [&::-webkit-slider-thumb]:shadow-black/40",
            "[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-0 [&::-moz-range-thumb]:bg-white",
          )}
          style={{
            background: `linear-gradient(to right, var(--color-violet-400), var(--color-fuchsia-400) ${pct}%, rgb(255 255 255 / 0.1) ${pct}%)`,
          }}
        />
        <p className="mt-2 flex justify-between text-xs tabular-nums text-zinc-400">
          <span>{formatDuration(current)}</span>
          {active && playback.error ? <span className="text-rose-300">{PLAYBACK_FAILED}</span> : null}
          <span>{formatDuration(duration)}</span>
        </p>
      </div>
    </div>
  );
}

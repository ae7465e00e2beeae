import { clsx } from "clsx";
import {
  ListMusic,
  LoaderCircle,
  type LucideIcon,
  Pause,
  Play,
  SkipBack,
  SkipForward,
  Volume1,
  Volume2,
  VolumeX,
} from "lucide-react";
import { Fragment, lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { formatDuration } from "../../lib/format";
import { FavoriteButton } from "../songs/favorite-button";
import { SongCover } from "../songs/song-cover";
import { useSong } from "../songs/songs";
import {
  next,
  PLAYBACK_FAILED,
  type PlayerState,
  previous,
  seek,
  setVolume,
  toggleMute,
  togglePlay,
  usePlayer,
} from "./player-store";
import type { QueueItem } from "./queue-model";
import { SeekBar } from "./seek-bar";

/** The queue panel (a dialog), loaded on first open. */
const QueuePanel = lazy(() => import("./queue-panel").then((m) => ({ default: m.QueuePanel })));

const roundButton =
  "grid shrink-0 place-items-center rounded-full text-zinc-300 transition-colors hover:bg-white/10 hover:text-white " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 " +
  "aria-disabled:cursor-not-allowed aria-disabled:opacity-40";

/**
 * The player under every page (above the bottom bar on phones): the current song linked, play/pause,
 * previous/next, a seek bar with the buffered part and times, volume (desktop), favourite and the queue.
 * It stays while the pages change; the cards and the song page show the same playback.
 */
export function PlayerBar() {
  const player = usePlayer();
  const [queueOpen, setQueueOpen] = useState(false);
  const [queueLoaded, setQueueLoaded] = useState(false);
  const item = player.queue.items[player.queue.index];
  if (!item) return null;
  const atStart = player.queue.index === 0 && player.currentTime <= 3;
  const atEnd = player.queue.index >= player.queue.items.length - 1;
  const upNext = player.queue.items.length - player.queue.index - 1;

  return (
    <section
      aria-label="Player"
      data-testid="player-bar"
      className={clsx(
        "fixed inset-x-0 z-30 border-t border-white/10 bg-zinc-950/95 backdrop-blur-xl md:left-64",
        "bottom-[calc(4rem+env(safe-area-inset-bottom))] md:bottom-0 md:pb-[env(safe-area-inset-bottom)]",
      )}
    >
      {/* Phones: the seek bar runs along the top edge, the times at its ends. */}
      <div className="px-3 pt-2 md:hidden">
        <Position player={player} className="h-1" />
      </div>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-3 md:h-20 md:gap-6 md:px-6">
        <NowPlaying item={item} player={player} />

        <div className="flex shrink-0 items-center gap-1 md:min-w-0 md:flex-[1.4] md:flex-col md:gap-1.5">
          <div className="flex items-center gap-1 md:gap-2">
            <SkipButton
              label="Previous song"
              keyName="P"
              icon={SkipBack}
              onClick={previous}
              idle={atStart}
              phoneHidden
            />
            <PlayButton player={player} />
            <SkipButton label="Next song" keyName="N" icon={SkipForward} onClick={next} idle={atEnd} />
          </div>
          <div className="hidden w-full items-center gap-2 text-[11px] text-zinc-400 tabular-nums md:flex">
            <span className="w-10 text-right">{formatDuration(player.currentTime)}</span>
            <Position player={player} className="flex-1" />
            <span className="w-10">{formatDuration(player.duration)}</span>
          </div>
        </div>

        <div className="flex shrink-0 items-center justify-end gap-1 md:flex-1 md:gap-2">
          <Volume player={player} />
          <button
            type="button"
            onClick={() => {
              setQueueLoaded(true);
              setQueueOpen(true);
            }}
            aria-haspopup="dialog"
            aria-label={upNext > 0 ? `Queue, ${upNext} up next` : "Queue"}
            title="Queue"
            className={clsx(roundButton, "relative size-9")}
          >
            <ListMusic aria-hidden className="size-5" />
            {upNext > 0 ? (
              <span
                aria-hidden
                className="absolute -top-0.5 -right-0.5 grid min-w-4 place-items-center rounded-full bg-violet-500 px-1 text-[10px] leading-4 font-semibold text-white tabular-nums"
              >
                {upNext > 99 ? "99+" : upNext}
              </span>
            ) : null}
          </button>
        </div>
      </div>
      <p aria-live="polite" className="sr-only">
        {player.announcement}
      </p>
      {queueLoaded ? (
        <Suspense fallback={null}>
          <QueuePanel open={queueOpen} onOpenChange={setQueueOpen} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The seek bar of the current song, with the part buffered (along the top on phones, between the times above). */
function Position({ player, className }: { player: PlayerState; className: string }) {
  return (
    <SeekBar
      current={player.currentTime}
      duration={player.duration}
      buffered={player.buffered}
      onSeek={seek}
      label="Position in song"
      className={className}
    />
  );
}

/** Cover, title and artists of the current song, linked; its favourite button from `sm` up. */
function NowPlaying({ item, player }: { item: QueueItem; player: PlayerState }) {
  const href = `/song/${encodeURIComponent(item.songId)}`;
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3">
      <Link to={href} tabIndex={-1} aria-hidden className="shrink-0">
        <SongCover src={item.coverUrl} title={item.title} className="size-11 rounded-lg md:size-14" />
      </Link>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-white">
          <Link
            to={href}
            className="hover:text-violet-200 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            {item.title}
          </Link>
        </p>
        <p className="truncate text-xs text-zinc-400">
          {player.error ? (
            <span className="text-rose-300">{PLAYBACK_FAILED}</span>
          ) : (
            item.artists.map((a, i) => (
              <Fragment key={`${a.id ?? ""}:${a.name}`}>
                {i > 0 ? ", " : null}
                {a.id ? (
                  <Link
                    to={`/artists/${encodeURIComponent(a.id)}`}
                    className="hover:text-violet-200 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-violet-400"
                  >
                    {a.name}
                  </Link>
                ) : (
                  a.name
                )}
              </Fragment>
            ))
          )}
        </p>
      </div>
      <div className="hidden shrink-0 sm:block">
        <CurrentFavorite songId={item.songId} />
      </div>
    </div>
  );
}

/** The current song's favourite button, once the song is known (from a list already loaded, or asked for). */
function CurrentFavorite({ songId }: { songId: string }) {
  const song = useSong(songId);
  return song.data ? <FavoriteButton song={song.data} /> : <span className="block h-8 w-14" />;
}

/** Previous or next: `idle` when there is nothing to go to (still focusable, aria-disabled). */
function SkipButton({
  label,
  keyName,
  icon: Icon,
  onClick,
  idle,
  phoneHidden = false,
}: {
  label: string;
  keyName: string;
  icon: LucideIcon;
  onClick: () => void;
  idle: boolean;
  phoneHidden?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={`${label.split(" ")[0]} (${keyName})`}
      onClick={onClick}
      aria-disabled={idle || undefined}
      className={clsx(roundButton, "size-9", phoneHidden && "hidden sm:grid")}
    >
      <Icon aria-hidden className="size-4" fill="currentColor" />
    </button>
  );
}

function PlayButton({ player }: { player: PlayerState }) {
  const busy = player.loading && player.playing;
  const Icon = busy ? LoaderCircle : player.playing ? Pause : Play;
  return (
    <button
      type="button"
      onClick={togglePlay}
      aria-label={player.playing ? "Pause" : "Play"}
      title={player.playing ? "Pause (Space)" : "Play (Space)"}
      className={clsx(
        "grid size-10 shrink-0 place-items-center rounded-full bg-white text-zinc-950 transition-transform",
        "hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300",
        "motion-reduce:transition-none motion-reduce:hover:scale-100",
      )}
    >
      <Icon
        aria-hidden
        className={clsx("size-5", busy && "motion-safe:animate-spin", Icon === Play && "translate-x-[1px]")}
        fill={busy ? "none" : "currentColor"}
      />
    </button>
  );
}

/** Mute and a volume slider, from `md` up (phones use their own volume keys). */
function Volume({ player }: { player: PlayerState }) {
  const level = player.muted ? 0 : player.volume;
  const Icon = level === 0 ? VolumeX : level < 0.5 ? Volume1 : Volume2;
  return (
    <div className="hidden items-center gap-1 md:flex">
      <button
        type="button"
        onClick={toggleMute}
        aria-label="Mute"
        aria-pressed={player.muted}
        title={player.muted ? "Unmute (M)" : "Mute (M)"}
        className={clsx(roundButton, "size-9")}
      >
        <Icon aria-hidden className="size-5" />
      </button>
      <input
        type="range"
        aria-label="Volume"
        min={0}
        max={100}
        step={1}
        value={Math.round(level * 100)}
        aria-valuetext={`${Math.round(level * 100)}%`}
        onChange={(e) => setVolume(Number(e.target.value) / 100)}
        className={clsx(
          "h-1 w-24 cursor-pointer appearance-none rounded-full bg-transparent",
          "focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400",
          "[&::-webkit-slider-thumb]:size-3 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-white",
          "[&::-moz-range-thumb]:size-3 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-0 [&::-moz-range-thumb]:bg-white",
        )}
        style={{
          background: `linear-gradient(to right, rgb(255 255 255 / 0.85) ${level * 100}%, rgb(255 255 255 / 0.15) ${level * 100}%)`,
        }}
      />
    </div>
  );
}

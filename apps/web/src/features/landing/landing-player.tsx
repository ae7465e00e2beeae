import type { Song } from "@unheard/shared";
import { clsx } from "clsx";
import { AudioLines, BadgeCheck, Pause, Play, SkipBack, SkipForward, Volume2, VolumeX } from "lucide-react";
import { type KeyboardEvent, type SyntheticEvent, useCallback, useEffect, useId, useRef, useState } from "react";

/** Spec §9: the demo plays at 70 % volume. */
export const LANDING_VOLUME = 0.7;
// Spec §9 asked for autoplay 0.5 s after the carousel settles. Sound that starts by itself is what WCAG 1.4.2 rules
// out, and it played under a newcomer who came for the waitlist form (issue 38): the demo plays only after Play.
// How long the carousel must stop scrolling before a swipe counts as settled on a card.
const SCROLL_SETTLE_MS = 120;

// Demo songs have no artwork; each slide gets one of these gradients instead.
const COVERS = [
  "from-violet-600 via-fuchsia-600 to-rose-500",
  "from-indigo-600 via-violet-600 to-fuchsia-500",
  "from-fuchsia-600 via-pink-600 to-amber-400",
  "from-sky-600 via-indigo-600 to-violet-600",
  "from-emerald-600 via-teal-600 to-sky-600",
];

function clock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "0:00";
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function artistNames(song: Song): string {
  return song.artists.map((a) => a.name).join(", ");
}

function reducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The landing page's five-track demo player: a swipeable carousel of slides with play/pause, mute,
 * previous/next and a seek bar. Nothing plays until Play is pressed; from then on a track that ends moves on to
 * the next (the last loops to the first) and a change of track keeps playing, until Pause.
 */
export function LandingPlayer({ tracks }: { tracks: Song[] }) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const railRef = useRef<HTMLDivElement | null>(null);
  const slideRefs = useRef<(HTMLDivElement | null)[]>([]);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  // Whether the person has asked for sound (Play, until Pause): only then does a new track start by itself.
  const listening = useRef(false);
  const titleId = useId();
  const count = tracks.length;
  const track = tracks[index];

  /** Bring slide `i` to the middle of the rail. */
  const scrollToSlide = useCallback((i: number) => {
    const rail = railRef.current;
    const slide = slideRefs.current[i];
    if (!rail || !slide) return;
    const left = slide.offsetLeft - (rail.clientWidth - slide.clientWidth) / 2;
    rail.scrollTo({ left, behavior: reducedMotion() ? "auto" : "smooth" });
  }, []);

  const select = useCallback(
    (i: number) => {
      if (count === 0) return;
      const next = ((i % count) + count) % count;
      setIndex(next);
      scrollToSlide(next);
    },
    [count, scrollToSlide],
  );

  // A swipe settles when scrolling stops: the slide nearest the middle becomes the current track.
  const onRailScroll = () => {
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => {
      const rail = railRef.current;
      if (!rail) return;
      const middle = rail.scrollLeft + rail.clientWidth / 2;
      let nearest = 0;
      let best = Number.POSITIVE_INFINITY;
      slideRefs.current.forEach((slide, i) => {
        if (!slide) return;
        const d = Math.abs(slide.offsetLeft + slide.clientWidth / 2 - middle);
        if (d < best) {
          best = d;
          nearest = i;
        }
      });
      setIndex(nearest);
    }, SCROLL_SETTLE_MS);
  };
  useEffect(() => () => clearTimeout(settleTimer.current), []);

  // A refused or interrupted play() (a track changed meanwhile, a browser's media policy) leaves the player paused,
  // which its Play button shows: nothing to report.
  const play = useCallback(async () => {
    const audio = audioRef.current;
    if (!audio) return;
    try {
      await audio.play();
    } catch {
      // Paused, as shown.
    }
  }, []);

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = LANDING_VOLUME;
  }, []);

  useEffect(() => {
    if (audioRef.current) audioRef.current.muted = muted;
  }, [muted]);

  // A new track: reset the clock; it plays on only if the person was listening (never by itself on arrival).
  const trackId = track?.id;
  useEffect(() => {
    if (!trackId) return;
    setTime(0);
    setDuration(0);
    if (listening.current) void play();
  }, [trackId, play]);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) {
      listening.current = true;
      void play();
    } else {
      listening.current = false;
      audio.pause();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // Arrow keys on the seek bar seek; elsewhere in the player they change the track.
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight") {
      e.preventDefault();
      select(index + 1);
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      select(index - 1);
    }
  };

  const onTime = (e: SyntheticEvent<HTMLAudioElement>) => setTime(e.currentTarget.currentTime);
  const onMeta = (e: SyntheticEvent<HTMLAudioElement>) => setDuration(e.currentTarget.duration);

  if (!track) return null;

  return (
    <section
      aria-roledescription="carousel"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      className="relative w-full overflow-hidden rounded-3xl border border-white/[0.08] bg-zinc-900/70 shadow-2xl shadow-violet-950/50 backdrop-blur"
    >
      <h2 id={titleId} className="sr-only">
        Demo player
      </h2>
      {/* biome-ignore lint/a11y/useMediaCaption: instrumental demo clips with no words to caption */}
      <audio
        ref={audioRef}
        src={track.audio?.url}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEmptied={() => setPlaying(false)}
        onTimeUpdate={onTime}
        onLoadedMetadata={onMeta}
        onDurationChange={onMeta}
        onEnded={() => select(index + 1)}
      />

      <div
        ref={railRef}
        onScroll={onRailScroll}
        className="relative flex snap-x snap-mandatory gap-4 overflow-x-auto px-[14%] pt-6 pb-2 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {tracks.map((song, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern marks slides as groups; a fieldset is for form controls
          <div
            key={song.id}
            ref={(el) => {
              slideRefs.current[i] = el;
            }}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}: ${song.title}`}
            aria-current={i === index ? "true" : undefined}
            className={clsx(
              "w-[72%] shrink-0 snap-center motion-safe:transition-all motion-safe:duration-300",
              i === index ? "scale-100 opacity-100" : "scale-90 opacity-40",
            )}
          >
            <button
              type="button"
              tabIndex={i === index ? -1 : 0}
              onClick={() => (i === index ? toggle() : select(i))}
              // Named by the title and artists it shows, after what a press does (WCAG 2.5.3).
              className={clsx(
                "relative block aspect-square w-full overflow-hidden rounded-2xl bg-gradient-to-br text-left shadow-xl",
                COVERS[i % COVERS.length],
              )}
            >
              <span
                aria-hidden
                className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(255,255,255,0.35),transparent_55%)]"
              />
              <AudioLines
                aria-hidden
                className={clsx(
                  "absolute top-1/2 left-1/2 size-1/3 -translate-x-1/2 -translate-y-1/2 text-white/80",
                  i === index && playing && "motion-safe:animate-pulse",
                )}
              />
              <span className="sr-only">{i === index ? (playing ? "Pause" : "Play") : "Go to"} </span>
              <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent p-4">
                <span className="block truncate text-lg font-bold text-white">{song.title}</span>
                <span className="block truncate text-sm text-white/75">{artistNames(song)}</span>
              </span>
            </button>
          </div>
        ))}
      </div>

      <div className="flex flex-col gap-4 px-5 pt-3 pb-5 sm:px-6">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0" aria-live="polite">
            <p className="text-xs font-medium uppercase tracking-[0.16em] text-fuchsia-300/90">
              {playing ? "Now playing" : "Demo track"} · {index + 1}/{count}
            </p>
            <h3 className="mt-1 truncate text-xl font-bold text-white" data-testid="landing-track-title">
              {track.title}
            </h3>
            <p className="truncate text-sm text-zinc-400">{artistNames(track)}</p>
          </div>
          <span className="mt-1 inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-500/15 px-2.5 py-0.5 text-xs font-semibold text-emerald-300 ring-1 ring-emerald-400/30 ring-inset">
            <BadgeCheck aria-hidden className="size-3.5" /> Verified
          </span>
        </div>

        <div className="flex flex-col gap-1">
          <input
            type="range"
            aria-label="Seek"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            onChange={(e) => {
              const audio = audioRef.current;
              if (audio) audio.currentTime = Number(e.target.value);
            }}
            style={{ backgroundSize: `${duration ? (time / duration) * 100 : 0}% 100%` }}
            className="h-1.5 w-full cursor-pointer appearance-none rounded-full bg-white/10 bg-gradient-to-r from-violet-400 to-fuchsia-400 bg-no-repeat accent-fuchsia-400 [&::-webkit-slider-thumb]:size-3.5 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow"
          />
          <div className="flex justify-between text-xs tabular-nums text-zinc-500">
            <span>{clock(time)}</span>
            <span>{clock(duration)}</span>
          </div>
        </div>

        <div className="flex items-center justify-between">
          <button
            type="button"
            onClick={() => setMuted((m) => !m)}
            aria-label={muted ? "Unmute" : "Mute"}
            aria-pressed={muted}
            className="grid size-10 place-items-center rounded-full text-zinc-300 hover:bg-white/10 hover:text-white"
          >
            {muted ? <VolumeX aria-hidden className="size-5" /> : <Volume2 aria-hidden className="size-5" />}
          </button>
          <div className="flex items-center gap-3">
            <button
              type="button"
              onClick={() => select(index - 1)}
              aria-label="Previous track"
              className="grid size-11 place-items-center rounded-full text-zinc-200 hover:bg-white/10 hover:text-white"
            >
              <SkipBack aria-hidden className="size-5" />
            </button>
            <button
              type="button"
              onClick={toggle}
              aria-label={playing ? "Pause" : "Play"}
              className="grid size-14 place-items-center rounded-full bg-white text-zinc-950 shadow-lg shadow-fuchsia-500/30 motion-safe:transition-transform motion-safe:hover:scale-105 motion-safe:active:scale-95"
            >
              {playing ? (
                <Pause aria-hidden className="size-6 fill-current" />
              ) : (
                <Play aria-hidden className="ml-0.5 size-6 fill-current" />
              )}
            </button>
            <button
              type="button"
              onClick={() => select(index + 1)}
              aria-label="Next track"
              className="grid size-11 place-items-center rounded-full text-zinc-200 hover:bg-white/10 hover:text-white"
            >
              <SkipForward aria-hidden className="size-5" />
            </button>
          </div>
          {/* Balances the mute button so the transport buttons stay centred. */}
          <span aria-hidden className="size-10" />
        </div>

        {/* Each dot sits in a 24 px target (WCAG 2.5.8), the dot itself as small as before. */}
        <div className="flex items-center justify-center">
          {tracks.map((song, i) => (
            <button
              key={song.id}
              type="button"
              onClick={() => select(i)}
              aria-label={`Track ${i + 1}: ${song.title}`}
              aria-current={i === index ? "true" : undefined}
              className="group grid h-6 min-w-6 place-items-center rounded-full px-[3px]"
            >
              <span
                aria-hidden
                className={clsx(
                  "h-1.5 rounded-full motion-safe:transition-all",
                  i === index ? "w-6 bg-fuchsia-400" : "w-1.5 bg-white/40 group-hover:bg-white/60",
                )}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

import { IDENTIFY_LIMITS, MESSAGES } from "@unheard/shared";
import { clsx } from "clsx";
import { LoaderCircle, Mic, ShieldCheck, Square } from "lucide-react";
import { useId } from "react";
import { loginPathFor } from "../../lib/safe-next";
import { LinkButton } from "../../ui/button";
import { PageHeader, Panel, usePageTitle } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { useMe } from "../accounts/me";
import { AudioFileButton } from "../audio-tools/audio-file-button";
import { meterFraction } from "../audio-tools/pcm";
import { type IdentifyState, LISTEN_SECONDS, useIdentify } from "./identify";
import { IdentifyAnswerCard } from "./identify-answer";

const TITLE = "Identify";

/** What the live status says in each phase (announced when it changes, so not the running seconds). */
function statusText(state: IdentifyState): string {
  if (state.phase === "listening") return state.stillListening ? "Not found yet, still listening…" : "Listening…";
  if (state.phase === "identifying") return "Identifying…";
  return "Tap to identify";
}

/** The big round button: Identify (the microphone) or Stop; a thumb-sized target that works from a home screen. */
function RecordButton({ state, onStart, onStop }: { state: IdentifyState; onStart: () => void; onStop: () => void }) {
  const listening = state.phase === "listening";
  const busy = state.phase === "identifying";
  const level = listening ? meterFraction(state.levelDb) : 0;
  return (
    <div className="flex flex-col items-center gap-4">
      <div className="relative grid size-44 place-items-center sm:size-48">
        {listening ? (
          // A pulse that stays inside the button's own square (a ping's halo would spill over the panel).
          <span aria-hidden className="absolute inset-0 rounded-full bg-rose-500/20 motion-safe:animate-pulse" />
        ) : null}
        {/* The input level as a ring that grows with it. */}
        <span
          aria-hidden
          data-testid="identify-level"
          className="absolute inset-0 rounded-full transition-[box-shadow] duration-100"
          style={{ boxShadow: `0 0 0 ${Math.round(level * 14)}px rgb(167 139 250 / 0.35)` }}
        />
        <button
          type="button"
          onClick={listening ? onStop : onStart}
          disabled={busy}
          aria-describedby="identify-status"
          className={clsx(
            "relative grid size-40 place-items-center rounded-full text-white shadow-xl transition-colors sm:size-44",
            "focus-visible:outline-4 focus-visible:outline-offset-4",
            listening
              ? "bg-rose-600 shadow-rose-600/30 hover:bg-rose-700 focus-visible:outline-rose-300"
              : "bg-violet-500 shadow-violet-500/30 hover:bg-(--color-violet-450) focus-visible:outline-violet-300",
            "disabled:cursor-wait disabled:opacity-80",
          )}
        >
          {listening ? (
            <Square aria-hidden className="size-12 fill-current" />
          ) : busy ? (
            <LoaderCircle aria-hidden className="size-14 animate-spin" />
          ) : (
            <Mic aria-hidden className="size-16" />
          )}
          <span className="sr-only">{listening ? "Stop listening" : "Identify a song"}</span>
        </button>
      </div>
      <div className="flex min-h-7 items-baseline gap-2">
        <p
          id="identify-status"
          data-testid="identify-status"
          aria-live="polite"
          className="text-center text-lg font-semibold text-white"
        >
          {statusText(state)}
        </p>
        {listening ? (
          <span aria-hidden className="font-mono text-sm tabular-nums text-zinc-400">
            {Math.floor(state.elapsed)} s
          </span>
        ) : null}
      </div>
      <div aria-hidden className="h-1 w-48 overflow-hidden rounded-full bg-white/[0.08]">
        <div
          className="h-full bg-violet-400/80 transition-[width] duration-100"
          style={{ width: `${listening ? Math.min(1, state.elapsed / LISTEN_SECONDS) * 100 : 0}%` }}
        />
      </div>
      <p className="max-w-sm text-center text-sm text-zinc-400">
        Hold your phone near the speaker. It listens for up to {LISTEN_SECONDS} seconds and stops as soon as it knows
        the song, sped up, slowed or played across a room.
      </p>
    </div>
  );
}

/** The other way in: a clip file of at most 20 s. */
function ClipUpload({ disabled, onFile }: { disabled: boolean; onFile: (file: File) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col items-center gap-2 text-center">
      <label htmlFor={id} className="text-sm font-medium text-zinc-200">
        Or upload a clip
      </label>
      <p className="text-xs text-zinc-400">
        An audio file of up to {IDENTIFY_LIMITS.maxClipSeconds} seconds (MP3, M4A, WAV, OGG, FLAC…)
      </p>
      {/* The button is the control: one tab stop, not two. */}
      <AudioFileButton id={id} size="lg" disabled={disabled} onFile={onFile} inputTabStop={false}>
        Choose a clip
      </AudioFileButton>
    </div>
  );
}

/** A visitor's Identify: what it is, and the way in. */
function SignedOut() {
  usePageTitle(TITLE);
  return (
    <Panel className="mx-auto flex max-w-lg flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-xl font-semibold text-white">{MESSAGES.identifySignIn}</h1>
      <p className="text-sm text-zinc-400">
        Heard an unreleased song in a clip? Let Unheard listen for a few seconds and it names the song.
      </p>
      <div className="flex gap-2">
        <LinkButton to={loginPathFor("/identify")}>Log In</LinkButton>
        <LinkButton to="/register" variant="secondary">
          Register
        </LinkButton>
      </div>
    </Panel>
  );
}

/** /identify (issue 39): any signed-in member names a song from the microphone or a clip file. */
export function IdentifyPage() {
  const { me, isLoading } = useMe();
  const { state, start, stop, identifyClip, reset } = useIdentify();
  if (isLoading) {
    return (
      <>
        <PageHeader title={TITLE} />
        <Spinner />
      </>
    );
  }
  if (!me) return <SignedOut />;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col">
      <PageHeader title={TITLE} subtitle="Name an unreleased song from a few seconds of it." />
      <div className="flex flex-col gap-5">
        {state.answer ? (
          <IdentifyAnswerCard answer={state.answer} waitlisted={me.waitlisted} clip={state.clip} onAgain={reset} />
        ) : null}
        <Panel className="flex flex-col items-center gap-6 py-8">
          <RecordButton state={state} onStart={() => void start()} onStop={stop} />
          <div aria-hidden className="h-px w-full bg-white/[0.06]" />
          <ClipUpload disabled={state.phase !== "idle"} onFile={(file) => void identifyClip(file)} />
        </Panel>
        <p className="flex items-start justify-center gap-2 text-center text-sm text-zinc-400">
          <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-300" />
          {MESSAGES.identifyClipsNotKept}
        </p>
      </div>
    </div>
  );
}

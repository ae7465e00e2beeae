import { clsx } from "clsx";
import { LoaderCircle, Mic, Square } from "lucide-react";
import { useId } from "react";
import { formatDuration } from "../../lib/format";
import { PageHeader, Panel } from "../../ui/page";
import { AudioFileButton } from "./audio-file-button";
import { meterFraction } from "./pcm";
import { MAX_RECORDING_SECONDS, type RecognitionPhase, type RecognitionState, useSongRecognition } from "./recognition";
import { RecognitionResults } from "./recognition-results";

const PHASE_LABEL: Record<RecognitionPhase, string> = {
  idle: "Idle",
  recording: "Recording",
  processing: "Processing",
};

const PHASE_TONE: Record<RecognitionPhase, string> = {
  idle: "bg-zinc-500/15 text-zinc-300 ring-zinc-400/20",
  recording: "bg-rose-500/15 text-rose-200 ring-rose-400/30",
  processing: "bg-amber-500/15 text-amber-200 ring-amber-400/30",
};

/** The state badge: Idle, Recording (pulsing dot) or Processing. */
function PhaseBadge({ phase }: { phase: RecognitionPhase }) {
  return (
    <span
      data-testid="recognition-phase"
      className={clsx(
        "inline-flex w-fit items-center gap-2 rounded-full px-3 py-1 text-xs font-semibold ring-1",
        PHASE_TONE[phase],
      )}
    >
      <span
        aria-hidden
        className={clsx(
          "size-2 rounded-full",
          phase === "recording" ? "animate-pulse bg-rose-400" : phase === "processing" ? "bg-amber-300" : "bg-zinc-400",
        )}
      />
      {PHASE_LABEL[phase]}
    </span>
  );
}

/** Live input level, 60 dB wide, green to amber to red. */
function LevelMeter({ levelDb, active }: { levelDb: number; active: boolean }) {
  const fraction = active ? meterFraction(levelDb) : 0;
  const shown = Number.isFinite(levelDb) && active ? `${levelDb.toFixed(0)} dBFS` : "—";
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between text-xs text-zinc-400">
        <span id="input-level-label">Input level</span>
        <span className="tabular-nums">{shown}</span>
      </div>
      <meter
        aria-labelledby="input-level-label"
        min={0}
        max={100}
        value={Math.round(fraction * 100)}
        className="sr-only"
      />
      <div aria-hidden className="h-2.5 overflow-hidden rounded-full bg-white/[0.07]">
        <div
          data-testid="level-bar"
          className="h-full rounded-full bg-gradient-to-r from-emerald-400 via-amber-300 to-rose-400 transition-[width] duration-100"
          style={{ width: `${fraction * 100}%` }}
        />
      </div>
    </div>
  );
}

/** How many hashes the server extracted from what it has heard. */
function FingerprintStatus({ state }: { state: RecognitionState }) {
  const { result, phase } = state;
  let text: string;
  if (result) {
    text = `${result.hashes.toLocaleString()} hashes extracted from ${result.seconds.toFixed(1)} s of audio`;
  } else if (phase === "recording") text = "Listening… the first fingerprints arrive after about a second.";
  else if (phase === "processing") text = "Fingerprinting…";
  else text = "No audio fingerprinted yet.";
  return (
    <div className="rounded-xl border border-white/[0.06] bg-zinc-950/40 px-4 py-3">
      <p className="text-xs font-medium uppercase tracking-wider text-zinc-500">Fingerprint status</p>
      <p data-testid="fingerprint-status" className="mt-1 text-sm text-zinc-200" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/** The microphone controls: Record / Stop, state, timer, level meter. */
function Recorder({ state, onRecord, onStop }: { state: RecognitionState; onRecord: () => void; onStop: () => void }) {
  const { phase, elapsed } = state;
  const recording = phase === "recording";
  const fromMic = state.source?.kind !== "file";
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-5">
        <div className="flex flex-col items-center gap-1.5">
          <div className="relative">
            {recording ? (
              <span aria-hidden className="absolute inset-0 animate-ping rounded-full bg-rose-500/25" />
            ) : null}
            {recording ? (
              <button
                type="button"
                onClick={onStop}
                className="relative grid size-20 place-items-center rounded-full bg-rose-500 text-white shadow-lg shadow-rose-500/30 transition-colors hover:bg-rose-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-rose-300"
                aria-label="Stop"
              >
                <Square aria-hidden className="size-7 fill-current" />
              </button>
            ) : (
              <button
                type="button"
                onClick={onRecord}
                disabled={phase !== "idle"}
                className="relative grid size-20 place-items-center rounded-full bg-violet-500 text-white shadow-lg shadow-violet-500/30 transition-colors hover:bg-(--color-violet-450) focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300 disabled:opacity-50"
                aria-label="Record"
              >
                {phase === "processing" ? (
                  <LoaderCircle aria-hidden className="size-8 animate-spin" />
                ) : (
                  <Mic aria-hidden className="size-8" />
                )}
              </button>
            )}
          </div>
          <span aria-hidden className="text-xs font-medium text-zinc-400">
            {recording ? "Stop" : "Record"}
          </span>
        </div>
        <div className="flex min-w-0 flex-1 basis-56 flex-col items-start gap-2">
          <PhaseBadge phase={phase} />
          <p className="text-sm text-zinc-400">
            {recording
              ? "Hold the microphone near the speaker. Stops at the first confident match."
              : phase === "processing"
                ? fromMic
                  ? "Matching the whole recording…"
                  : `Matching ${state.source?.kind === "file" ? state.source.name : "the file"}…`
                : `Press Record and play the song. Listens for up to ${MAX_RECORDING_SECONDS} seconds.`}
          </p>
        </div>
        <div className="ml-auto text-right">
          <p className="text-xs text-zinc-500">Elapsed</p>
          <p data-testid="recognition-elapsed" className="font-mono text-2xl font-semibold tabular-nums text-white">
            {formatDuration(elapsed)}
            <span className="text-base text-zinc-500"> / {formatDuration(MAX_RECORDING_SECONDS)}</span>
          </p>
        </div>
      </div>
      <div className="h-1 overflow-hidden rounded-full bg-white/[0.06]" aria-hidden>
        <div
          className="h-full bg-violet-400/70 transition-[width] duration-100"
          style={{ width: `${Math.min(1, elapsed / MAX_RECORDING_SECONDS) * 100}%` }}
        />
      </div>
      <LevelMeter levelDb={state.levelDb} active={recording} />
    </div>
  );
}

/** 'Recognise a file': an audio clip sent to the server instead of the microphone. */
function FileRecognition({ disabled, onFile }: { disabled: boolean; onFile: (file: File) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-zinc-200">
        Recognise a file
      </label>
      <p className="text-xs text-zinc-500">An audio clip (MP3, WAV, OGG, FLAC, M4A…); the first minute is matched.</p>
      <div className="flex items-center gap-3">
        <AudioFileButton id={id} size="sm" disabled={disabled} onFile={onFile}>
          Choose audio file
        </AudioFileButton>
      </div>
    </div>
  );
}

/** /song-recognition (super admin): identify a song from the microphone or a clip. */
export function SongRecognitionPage() {
  const { state, start, stop, recogniseFile } = useSongRecognition();
  const done = state.phase === "idle" && state.outcome !== null && state.result !== null;
  return (
    <>
      <PageHeader title="Song Recognition" subtitle="Identify a song from a short recording." />
      <div className="flex flex-col gap-6">
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Panel>
            <Recorder state={state} onRecord={() => void start()} onStop={stop} />
          </Panel>
          <Panel className="flex flex-col gap-5">
            <FingerprintStatus state={state} />
            <FileRecognition disabled={state.phase !== "idle"} onFile={(file) => void recogniseFile(file)} />
          </Panel>
        </div>
        {done && state.result ? (
          <RecognitionResults result={state.result} matched={state.outcome === "matched"} />
        ) : null}
        {state.phase === "idle" && state.outcome === "no-match" && !state.result ? (
          <RecognitionResults
            result={{ hashes: 0, seconds: 0, match: null, candidates: [], message: "" }}
            matched={false}
          />
        ) : null}
      </div>
    </>
  );
}

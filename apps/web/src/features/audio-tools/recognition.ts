import { DEFAULT_PRESET } from "@unheard/fingerprint";
import { foundMatchesMessage, MESSAGES } from "@unheard/shared";
import { useCallback, useRef, useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { type RecognitionCandidate, type RecognitionResult, recognizeFile, recognizePcm } from "./audio-tools";
import { type MicrophoneSession, newMicrophoneSession, useMicrophoneSession } from "./microphone-session";
import { RECOGNITION_SAMPLE_RATE } from "./pcm";

/** The page gives up after this long without a confident match (issue 8). */
export const MAX_RECORDING_SECONDS = 15;
/** The growing recording is re-sent about this often while recording. */
export const SEND_INTERVAL_SECONDS = 1;
/** Nothing is sent before this much audio is in (too few hashes to say anything). */
export const MIN_SEND_SECONDS = 1;

/** Idle, recording from the microphone, or waiting for the server's final answer. */
export type RecognitionPhase = "idle" | "recording" | "processing";

/** How the last recognition ended: a confident match, or none after the clip. */
export type RecognitionOutcome = "matched" | "no-match";

/** Everything the song recognition page shows. */
export type RecognitionState = {
  phase: RecognitionPhase;
  /** Seconds since recording started. */
  elapsed: number;
  /** Input level of the latest block, RMS dBFS (-Infinity for silence). */
  levelDb: number;
  /** The latest answer of the server (live while recording, then final). */
  result: RecognitionResult | null;
  outcome: RecognitionOutcome | null;
  /** Where the audio came from: the microphone or a file (with its name). */
  source: { kind: "microphone" } | { kind: "file"; name: string } | null;
};

const INITIAL: RecognitionState = {
  phase: "idle",
  elapsed: 0,
  levelDb: Number.NEGATIVE_INFINITY,
  result: null,
  outcome: null,
  source: null,
};

/** One recording: the shared session, and the length behind the result on screen. */
type Session = MicrophoneSession & {
  id: number;
  /** Length (s) of the recording behind the result on screen: an older answer never replaces a newer one. */
  shownSeconds: number;
};

/** A new session numbered `id`, from the microphone or (`file`) a file, as newMicrophoneSession makes it. */
function newSession(id: number, file: boolean): Session {
  return { ...newMicrophoneSession(file), id, shownSeconds: 0 };
}

/**
 * Candidates worth calling potential matches: the match, and any other song with some confidence (it grows with
 * the lead over the runner-up) and at least as many aligned hashes as a match needs (the server's preset). Songs
 * that merely share a few hashes by chance are left out.
 */
export function potentialMatches(
  result: RecognitionResult,
  minAligned = DEFAULT_PRESET.match.minAligned,
): RecognitionCandidate[] {
  const matchId = result.match?.song.id;
  const list = result.candidates.filter((c) => c.song.id === matchId || (c.confidence > 0 && c.aligned >= minAligned));
  if (result.match && !list.some((c) => c.song.id === matchId)) list.unshift(result.match);
  return list;
}

/** Toast how a recognition ended. */
function announce(result: RecognitionResult) {
  if (result.match) toast.success(foundMatchesMessage(potentialMatches(result).length));
  else toast(MESSAGES.noMatches, { description: MESSAGES.noMatchesGuidance });
}

/**
 * Song recognition from the microphone (or a file): records, re-sends the whole recording so far about once a
 * second, stops at the first confident match, and otherwise gives a final answer after 15 s (or on Stop).
 */
export function useSongRecognition() {
  const [state, setState] = useState<RecognitionState>(INITIAL);
  const { session, close, stopListening, listen, sendRecording, awaitFile } = useMicrophoneSession<Session>();
  const nextId = useRef(0);

  const end = useCallback(
    (s: Session, result: RecognitionResult | null, outcome: RecognitionOutcome | null) => {
      close(s);
      setState((prev) => ({ ...prev, phase: "idle", result: result ?? prev.result, outcome }));
      if (result) announce(result);
    },
    [close],
  );

  const fail = useCallback(
    (s: Session, err: unknown) => {
      close(s);
      setState((prev) => ({ ...prev, phase: "idle", outcome: null }));
      handleError(err, MESSAGES.processAudioFailed);
    },
    [close],
  );

  /** Send the recording so far; `final` waits for the answer and ends the session with it. */
  const send = useCallback(
    (s: Session, final: boolean) => {
      sendRecording(s, (pcm, signal) => recognizePcm(pcm, RECOGNITION_SAMPLE_RATE, signal), {
        onAnswer: (result, seconds) => {
          if (final) {
            end(s, result, result.match ? "matched" : "no-match");
            return;
          }
          if (seconds < s.shownSeconds) return;
          s.shownSeconds = seconds;
          if (result.match) {
            end(s, result, "matched");
            return;
          }
          setState((prev) => ({ ...prev, result }));
        },
        onError: (err) => fail(s, err),
      });
    },
    [sendRecording, end, fail],
  );

  /** Stop recording and ask for a final answer on everything recorded. */
  const finish = useCallback(
    (s: Session) => {
      if (!stopListening(s)) return;
      const seconds = s.recording?.seconds ?? 0;
      if (seconds < 0.5) {
        // Nothing worth sending: back to idle with the guidance.
        end(s, null, "no-match");
        toast(MESSAGES.noMatches, { description: MESSAGES.noMatchesGuidance });
        return;
      }
      setState((prev) => ({ ...prev, phase: "processing", levelDb: Number.NEGATIVE_INFINITY }));
      send(s, true);
    },
    [stopListening, end, send],
  );

  const start = useCallback(async () => {
    if (session.current) return;
    const s = newSession(++nextId.current, false);
    session.current = s;
    setState({ ...INITIAL, phase: "recording", source: { kind: "microphone" } });
    await listen(s, {
      onRefused: () => setState(INITIAL),
      onTick: (elapsed, now) => {
        setState((prev) => ({ ...prev, elapsed: Math.min(elapsed, MAX_RECORDING_SECONDS), levelDb: s.levelDb }));
        if (elapsed >= MAX_RECORDING_SECONDS) {
          finish(s);
          return;
        }
        const recorded = s.recording?.seconds ?? 0;
        if (!s.inFlight && recorded >= MIN_SEND_SECONDS && now - s.lastSentAt >= SEND_INTERVAL_SECONDS * 1000) {
          send(s, false);
        }
      },
    });
  }, [session, listen, finish, send]);

  const stop = useCallback(() => {
    const s = session.current;
    if (s && !s.finishing) finish(s);
  }, [session, finish]);

  /** Recognise an uploaded clip instead of the microphone. */
  const recogniseFile = useCallback(
    async (file: File) => {
      if (session.current) return;
      const s = newSession(++nextId.current, true);
      session.current = s;
      setState({ ...INITIAL, phase: "processing", source: { kind: "file", name: file.name } });
      await awaitFile(s, recognizeFile(file, s.inFlight?.signal), {
        onAnswer: (result) => end(s, result, result.match ? "matched" : "no-match"),
        onError: (err) => fail(s, err),
      });
    },
    [session, awaitFile, end, fail],
  );

  return { state, start, stop, recogniseFile };
}

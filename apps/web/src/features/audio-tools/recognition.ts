import { DEFAULT_PRESET } from "@unheard/fingerprint";
import { foundMatchesMessage, MESSAGES } from "@unheard/shared";
import { useCallback, useEffect, useRef, useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { type RecognitionCandidate, type RecognitionResult, recognizeFile, recognizePcm } from "./audio-tools";
import { blockLevel, PcmRecording, RECOGNITION_SAMPLE_RATE, toPcm16 } from "./pcm";
import { type Capture, startCapture } from "./recorder";

/** The page gives up after this long without a confident match (issue 8). */
export const MAX_RECORDING_SECONDS = 15;
/** The growing recording is re-sent about this often while recording. */
export const SEND_INTERVAL_SECONDS = 1;
/** Nothing is sent before this much audio is in (too few hashes to say anything). */
export const MIN_SEND_SECONDS = 1;
/** The screen (timer, meter) refreshes this often. */
const TICK_MS = 100;

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

/** One recording: the microphone, what it captured, and the request in flight. */
type Session = {
  id: number;
  capture: Capture | null;
  recording: PcmRecording | null;
  startedAt: number;
  timer: ReturnType<typeof setInterval> | null;
  inFlight: AbortController | null;
  lastSentAt: number;
  /** Length (s) of the recording behind the result on screen: an older answer never replaces a newer one. */
  shownSeconds: number;
  levelDb: number;
  finishing: boolean;
};

/** A new session: from the microphone (`file` false) it is filled in as the capture starts; a file is sent at once. */
function newSession(id: number, file: boolean): Session {
  return {
    id,
    capture: null,
    recording: null,
    startedAt: performance.now(),
    timer: null,
    inFlight: file ? new AbortController() : null,
    lastSentAt: 0,
    shownSeconds: 0,
    levelDb: Number.NEGATIVE_INFINITY,
    finishing: file,
  };
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

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
  const session = useRef<Session | null>(null);
  const nextId = useRef(0);

  const release = useCallback((s: Session) => {
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    s.capture?.stop();
    s.capture = null;
    s.inFlight?.abort();
    s.inFlight = null;
  }, []);

  const end = useCallback(
    (s: Session, result: RecognitionResult | null, outcome: RecognitionOutcome | null) => {
      release(s);
      if (session.current === s) session.current = null;
      setState((prev) => ({ ...prev, phase: "idle", result: result ?? prev.result, outcome }));
      if (result) announce(result);
    },
    [release],
  );

  const fail = useCallback(
    (s: Session, err: unknown) => {
      release(s);
      if (session.current === s) session.current = null;
      setState((prev) => ({ ...prev, phase: "idle", outcome: null }));
      handleError(err, MESSAGES.processAudioFailed);
    },
    [release],
  );

  /** Send the recording so far; `final` waits for the answer and ends the session with it. */
  const send = useCallback(
    (s: Session, final: boolean) => {
      const recording = s.recording;
      if (!recording) return;
      const seconds = recording.seconds;
      const pcm = toPcm16(recording.snapshot());
      const controller = new AbortController();
      s.inFlight?.abort();
      s.inFlight = controller;
      s.lastSentAt = performance.now();
      recognizePcm(pcm, RECOGNITION_SAMPLE_RATE, controller.signal).then(
        (result) => {
          if (s.inFlight === controller) s.inFlight = null;
          if (session.current !== s || controller.signal.aborted) return;
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
        (err: unknown) => {
          if (s.inFlight === controller) s.inFlight = null;
          if (session.current !== s || isAbort(err)) return;
          fail(s, err);
        },
      );
    },
    [end, fail],
  );

  /** Stop recording and ask for a final answer on everything recorded. */
  const finish = useCallback(
    (s: Session) => {
      if (s.finishing) return;
      s.finishing = true;
      if (s.timer) clearInterval(s.timer);
      s.timer = null;
      s.capture?.stop();
      s.capture = null;
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
    [end, send],
  );

  const start = useCallback(async () => {
    if (session.current) return;
    const s = newSession(++nextId.current, false);
    session.current = s;
    setState({ ...INITIAL, phase: "recording", source: { kind: "microphone" } });
    const early: Float32Array[] = [];
    let capture: Capture;
    try {
      capture = await startCapture((block) => {
        s.levelDb = blockLevel(block).rmsDb;
        if (s.recording) s.recording.push(block);
        else early.push(block.slice());
      });
    } catch (err) {
      if (session.current === s) session.current = null;
      setState(INITIAL);
      toast.error(MESSAGES.recordingFailed, {
        description: err instanceof Error && err.message ? err.message : undefined,
      });
      return;
    }
    if (session.current !== s) {
      capture.stop();
      return;
    }
    s.capture = capture;
    s.recording = new PcmRecording(capture.sampleRate);
    for (const block of early) s.recording.push(block);
    s.startedAt = performance.now();
    s.lastSentAt = s.startedAt;
    s.timer = setInterval(() => {
      if (session.current !== s || s.finishing) return;
      const now = performance.now();
      const elapsed = (now - s.startedAt) / 1000;
      setState((prev) => ({ ...prev, elapsed: Math.min(elapsed, MAX_RECORDING_SECONDS), levelDb: s.levelDb }));
      if (elapsed >= MAX_RECORDING_SECONDS) {
        finish(s);
        return;
      }
      const recorded = s.recording?.seconds ?? 0;
      if (!s.inFlight && recorded >= MIN_SEND_SECONDS && now - s.lastSentAt >= SEND_INTERVAL_SECONDS * 1000) {
        send(s, false);
      }
    }, TICK_MS);
  }, [finish, send]);

  const stop = useCallback(() => {
    const s = session.current;
    if (s && !s.finishing) finish(s);
  }, [finish]);

  /** Recognise an uploaded clip instead of the microphone. */
  const recogniseFile = useCallback(
    async (file: File) => {
      if (session.current) return;
      const s = newSession(++nextId.current, true);
      session.current = s;
      setState({ ...INITIAL, phase: "processing", source: { kind: "file", name: file.name } });
      try {
        const result = await recognizeFile(file, s.inFlight?.signal);
        if (session.current !== s) return;
        end(s, result, result.match ? "matched" : "no-match");
      } catch (err) {
        if (session.current !== s || isAbort(err)) return;
        fail(s, err);
      }
    },
    [end, fail],
  );

  // Leaving the page releases the microphone and drops the request in flight.
  useEffect(
    () => () => {
      const s = session.current;
      session.current = null;
      if (s) release(s);
    },
    [release],
  );

  return { state, start, stop, recogniseFile };
}

import { MESSAGES } from "@unheard/shared";
import { useCallback, useEffect, useRef } from "react";
import { toast } from "../../lib/toast";
import { blockLevel, PcmRecording, toPcm16 } from "./pcm";
import { type Capture, startCapture } from "./recorder";

/** The screen (timer, meter) refreshes this often while listening. */
const TICK_MS = 100;

/** One listening session: the microphone, what it captured, the sends made and the request in flight. */
export type MicrophoneSession = {
  capture: Capture | null;
  recording: PcmRecording | null;
  startedAt: number;
  timer: ReturnType<typeof setInterval> | null;
  inFlight: AbortController | null;
  /** How many times the recording (or the file) was sent. */
  sent: number;
  /** performance.now() of the latest send (of the start until the first). */
  lastSentAt: number;
  levelDb: number;
  finishing: boolean;
};

/** A new session: from the microphone (`file` false) it is filled in as the capture starts; a file is sent at once. */
export function newMicrophoneSession(file: boolean): MicrophoneSession {
  return {
    capture: null,
    recording: null,
    startedAt: performance.now(),
    timer: null,
    inFlight: file ? new AbortController() : null,
    sent: file ? 1 : 0,
    lastSentAt: 0,
    levelDb: Number.NEGATIVE_INFINITY,
    finishing: file,
  };
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

/** What `listen` calls back. */
export type ListenHandlers = {
  /** The microphone could not be opened: the session is over and a toast says why; put the screen back. */
  onRefused: () => void;
  /** Every tick while the session is current and still listening: seconds since recording began, and the time. */
  onTick: (elapsed: number, now: number) => void;
};

/** What a request of a session calls back: only while that session is current, and never for an abort. */
export type AnswerHandlers<T> = {
  /** The answer, with the seconds of recording it was given (0 for a file). */
  onAnswer: (answer: T, seconds: number) => void;
  onError: (err: unknown) => void;
};

/**
 * The microphone session behind song recognition and Identify: one session at a time, its capture, recording,
 * timer and request in flight, released on leaving the page. When to send and what an answer means are the caller's.
 */
export function useMicrophoneSession<S extends MicrophoneSession>() {
  const session = useRef<S | null>(null);

  const release = useCallback((s: S) => {
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    s.capture?.stop();
    s.capture = null;
    s.inFlight?.abort();
    s.inFlight = null;
  }, []);

  /** Release `s` (timer, microphone, request in flight) and forget it if it is still the current session. */
  const close = useCallback(
    (s: S) => {
      release(s);
      if (session.current === s) session.current = null;
    },
    [release],
  );

  /** Stop the timer and the microphone to send what was recorded; false when `s` was already finishing. */
  const stopListening = useCallback((s: S): boolean => {
    if (s.finishing) return false;
    s.finishing = true;
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    s.capture?.stop();
    s.capture = null;
    return true;
  }, []);

  /** Open the microphone for the current session `s`, record into it and tick until it stops listening. */
  const listen = useCallback(async (s: S, { onRefused, onTick }: ListenHandlers): Promise<void> => {
    // Blocks can arrive before the capture's rate is known: kept, and recorded once it is.
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
      onRefused();
      toast.error(MESSAGES.recordingFailed, {
        description: err instanceof Error && err.message ? err.message : undefined,
      });
      return;
    }
    // Stopped or left while the browser asked for the microphone.
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
      onTick((now - s.startedAt) / 1000, now);
    }, TICK_MS);
  }, []);

  /** Send the recording so far as 16-bit PCM with `request`, dropping the request in flight. */
  const sendRecording = useCallback(
    <T>(
      s: S,
      request: (pcm: ArrayBuffer, signal: AbortSignal) => Promise<T>,
      { onAnswer, onError }: AnswerHandlers<T>,
    ) => {
      const recording = s.recording;
      if (!recording) return;
      const seconds = recording.seconds;
      const pcm = toPcm16(recording.snapshot());
      const controller = new AbortController();
      s.inFlight?.abort();
      s.inFlight = controller;
      s.sent++;
      s.lastSentAt = performance.now();
      request(pcm, controller.signal).then(
        (answer) => {
          if (s.inFlight === controller) s.inFlight = null;
          if (session.current !== s || controller.signal.aborted) return;
          onAnswer(answer, seconds);
        },
        (err: unknown) => {
          if (s.inFlight === controller) s.inFlight = null;
          if (session.current !== s || isAbort(err)) return;
          onError(err);
        },
      );
    },
    [],
  );

  /** Wait for the file request of session `s` (made with `s.inFlight`'s signal). */
  const awaitFile = useCallback(async <T>(s: S, request: Promise<T>, { onAnswer, onError }: AnswerHandlers<T>) => {
    try {
      const answer = await request;
      if (session.current === s) onAnswer(answer, 0);
    } catch (err) {
      if (session.current !== s || isAbort(err)) return;
      onError(err);
    }
  }, []);

  // Leaving the page releases the microphone and drops the request in flight.
  useEffect(
    () => () => {
      const s = session.current;
      session.current = null;
      if (s) release(s);
    },
    [release],
  );

  return { session, close, stopListening, listen, sendRecording, awaitFile };
}

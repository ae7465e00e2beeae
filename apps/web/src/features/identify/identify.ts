import { IDENTIFY_LIMITS, type IdentifyAnswer, identifyFileTooLargeMessage, MESSAGES } from "@unheard/shared";
import { useCallback, useState } from "react";
import { isApiError, sendRequest } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { formatDuration } from "../../lib/format";
import { toast } from "../../lib/toast";
import { type MicrophoneSession, newMicrophoneSession, useMicrophoneSession } from "../audio-tools/microphone-session";
import { pcm16Wav, RECOGNITION_SAMPLE_RATE } from "../audio-tools/pcm";

/**
 * Seconds of recording at which it is sent: the first answer usually names the song, and listening stops there.
 * Each send counts against the member's hourly limit (decision 032), so there are never more than three.
 */
export const SEND_AT_SECONDS = [4, 8, 12] as const satisfies readonly number[] & {
  length: typeof IDENTIFY_LIMITS.sendsPerRecording;
};
/** The page listens this long at most. */
export const LISTEN_SECONDS = SEND_AT_SECONDS[SEND_AT_SECONDS.length - 1] as number;
/** A recording shorter than this is not sent when the member stops early: too little to tell. */
const MIN_SECONDS = 1;

/** Waiting, listening to the microphone, or waiting for the server's answer to a file or the whole recording. */
export type IdentifyPhase = "idle" | "listening" | "identifying";

/** What the Identify page shows. */
export type IdentifyState = {
  phase: IdentifyPhase;
  /** Seconds since listening started. */
  elapsed: number;
  /** Input level of the latest block, RMS dBFS (-Infinity for silence). */
  levelDb: number;
  /** The final answer, once there is one. */
  answer: IdentifyAnswer | null;
  /** An answer came back without the song while still listening. */
  stillListening: boolean;
  /**
   * The clip the answer was made from (the recording as sent, or the file), kept in this page's memory only so the
   * member can attach it to a report; dropped with the answer.
   */
  clip: Blob | null;
};

const INITIAL: IdentifyState = {
  phase: "idle",
  elapsed: 0,
  levelDb: Number.NEGATIVE_INFINITY,
  answer: null,
  stillListening: false,
  clip: null,
};

/** "from 1:12": where in the song the clip starts. */
export const fromPosition = (seconds: number) => `from ${formatDuration(seconds)}`;

/** The next send point after `sent` sends, or undefined when every one is used. */
export const nextSendAt = (sent: number): number | undefined => SEND_AT_SECONDS[sent];

/** POST /api/identify/pcm: the recording so far, 16-bit little-endian mono PCM at `sampleRate`. */
export function identifyPcm(pcm: ArrayBuffer, sampleRate: number, signal?: AbortSignal) {
  return sendRequest<IdentifyAnswer>(
    `/api/identify/pcm?sampleRate=${sampleRate}`,
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/octet-stream" },
      body: pcm,
      signal: signal ?? null,
    },
    MESSAGES.processAudioFailed,
  );
}

/** POST /api/identify/file: a clip file as the multipart field `audio`. */
export function identifyFile(file: File, signal?: AbortSignal) {
  const form = new FormData();
  form.append("audio", file, file.name);
  return sendRequest<IdentifyAnswer>(
    "/api/identify/file",
    { method: "POST", headers: { accept: "application/json" }, body: form, signal: signal ?? null },
    MESSAGES.processAudioFailed,
  );
}

/**
 * POST /api/identify/report: report the song Identify named with the clip attached (the fields first, then the
 * clip, as the server reads them).
 */
export function reportWithClip(input: { songId: string; reason: string; details: string; clip: Blob }) {
  const form = new FormData();
  form.append("songId", input.songId);
  form.append("reason", input.reason);
  form.append("details", input.details);
  form.append("clip", input.clip, input.clip instanceof File ? input.clip.name : "clip.wav");
  return sendRequest<{ ok: true; message?: string }>(
    "/api/identify/report",
    { method: "POST", headers: { accept: "application/json" }, body: form },
    MESSAGES.reportFailed,
  );
}

/** A failed request, toasted: the server's words for a refusal (limits, length, busy), or the fallback. */
function toastFailure(err: unknown) {
  handleError(err, isApiError(err) && err.status === 503 ? MESSAGES.identifyBusy : MESSAGES.processAudioFailed);
}

/**
 * Identify from the microphone (or a clip file): listens, sends the recording at 4 and 8 s and stops at the first
 * song found, else sends all of it at 12 s (or on Stop) for the final answer.
 */
export function useIdentify() {
  const [state, setState] = useState<IdentifyState>(INITIAL);
  const { session, close, stopListening, listen, sendRecording, awaitFile } = useMicrophoneSession();

  const end = useCallback(
    (s: MicrophoneSession, answer: IdentifyAnswer | null, clip: Blob | null = null) => {
      close(s);
      setState((prev) => ({
        ...prev,
        phase: "idle",
        levelDb: Number.NEGATIVE_INFINITY,
        answer,
        stillListening: false,
        clip: answer?.match ? clip : null,
      }));
    },
    [close],
  );

  const fail = useCallback(
    (s: MicrophoneSession, err: unknown) => {
      end(s, null);
      toastFailure(err);
    },
    [end],
  );

  /** Send the recording so far; `final` ends the session with whatever comes back. */
  const send = useCallback(
    (s: MicrophoneSession, final: boolean) => {
      let sent: ArrayBuffer | null = null;
      sendRecording(
        s,
        (pcm, signal) => {
          sent = pcm;
          return identifyPcm(pcm, RECOGNITION_SAMPLE_RATE, signal);
        },
        {
          onAnswer: (answer) => {
            if (final || answer.match) end(s, answer, sent ? pcm16Wav(sent, RECOGNITION_SAMPLE_RATE) : null);
            else setState((prev) => ({ ...prev, stillListening: true }));
          },
          onError: (err) => fail(s, err),
        },
      );
    },
    [sendRecording, end, fail],
  );

  /** Stop listening and send everything recorded for the final answer. */
  const finish = useCallback(
    (s: MicrophoneSession) => {
      if (!stopListening(s)) return;
      if ((s.recording?.seconds ?? 0) < MIN_SECONDS) {
        end(s, null);
        toast(MESSAGES.identifyHeardNothing, { description: MESSAGES.identifyHeardNothingGuidance });
        return;
      }
      setState((prev) => ({ ...prev, phase: "identifying", levelDb: Number.NEGATIVE_INFINITY }));
      send(s, true);
    },
    [stopListening, end, send],
  );

  const start = useCallback(async () => {
    if (session.current) return;
    const s = newMicrophoneSession(false);
    session.current = s;
    setState({ ...INITIAL, phase: "listening" });
    await listen(s, {
      onRefused: () => setState(INITIAL),
      onTick: (elapsed) => {
        setState((prev) => ({ ...prev, elapsed: Math.min(elapsed, LISTEN_SECONDS), levelDb: s.levelDb }));
        const recorded = s.recording?.seconds ?? 0;
        if (recorded >= LISTEN_SECONDS || elapsed >= LISTEN_SECONDS + 1) {
          finish(s);
          return;
        }
        const at = nextSendAt(s.sent);
        // The last point is the final send (finish); the ones before it go while listening goes on.
        if (at !== undefined && at < LISTEN_SECONDS && recorded >= at && !s.inFlight) send(s, false);
      },
    });
  }, [session, listen, finish, send]);

  const stop = useCallback(() => {
    const s = session.current;
    if (s && !s.finishing) finish(s);
  }, [session, finish]);

  /** Identify a clip file instead of the microphone. */
  const identifyClip = useCallback(
    async (file: File) => {
      if (session.current) return;
      if (file.size > IDENTIFY_LIMITS.maxFileMb * 1024 * 1024) {
        toast.error(identifyFileTooLargeMessage(IDENTIFY_LIMITS.maxFileMb));
        return;
      }
      const s = newMicrophoneSession(true);
      session.current = s;
      setState({ ...INITIAL, phase: "identifying" });
      await awaitFile(s, identifyFile(file, s.inFlight?.signal), {
        onAnswer: (answer) => end(s, answer, file),
        onError: (err) => fail(s, err),
      });
    },
    [session, awaitFile, end, fail],
  );

  /** Back to the start, the answer cleared (Try again). */
  const reset = useCallback(() => {
    if (!session.current) setState(INITIAL);
  }, [session]);

  return { state, start, stop, identifyClip, reset };
}

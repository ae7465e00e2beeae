/**
 * Why a file was refused: it is not audio we can read, it ends before its header says, it holds no sound, it is
 * longer than the server accepts (MAX_AUDIO_MINUTES), it decodes to far more sound than its size can hold (a
 * decompression bomb), or reading it ran out of its time or memory (issue 24).
 */
export type AudioDecodeFailure = "undecodable" | "truncated" | "silent" | "too_long" | "implausible" | "too_costly";

/** Thrown by the decoder; callers turn the reason into the user's message. */
export class AudioDecodeError extends Error {
  constructor(
    readonly reason: AudioDecodeFailure,
    /** For "too_long": the longest audio accepted, in seconds. */
    readonly maxSeconds?: number,
  ) {
    super(`audio ${reason}`);
    this.name = "AudioDecodeError";
  }
}

/** Why a file was refused: it is not audio we can read, it ends before its header says, or it holds no sound. */
export type AudioDecodeFailure = "undecodable" | "truncated" | "silent";

/** Thrown by the decoder; callers turn the reason into the user's message. */
export class AudioDecodeError extends Error {
  constructor(readonly reason: AudioDecodeFailure) {
    super(`audio ${reason}`);
    this.name = "AudioDecodeError";
  }
}

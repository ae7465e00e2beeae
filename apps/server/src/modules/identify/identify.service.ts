// Identify (issue 39, decision 032): any signed-in member, waitlisted ones too, names a song from a clip of at most
// 20 s, within hourly limits per member and per address, through the audio pool's queue. No clip is kept: the
// microphone's PCM lives in this request's memory only, and a clip file in a temp file removed on every path,
// unless the member sends it with a report (`report`): then it is kept with the report until an admin handles it.
import { createWriteStream } from "node:fs";
import { mkdir, open, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  IDENTIFY_LIMITS,
  type IdentifyAnswer,
  identifiedMessage,
  identifyClipTooLongMessage,
  identifyFileTooLargeMessage,
  identifyLimitMessage,
  MESSAGES,
} from "@unheard/shared";
import { AppError } from "../../errors.js";
import {
  type AudioFormat,
  audioErrorMessage,
  type DecodedAudio,
  decodeAudioFile,
  sniffAudio,
  unrecognisedAudioMessage,
} from "../../lib/audio.js";
import { declaredLength } from "../../lib/audio-length.js";
import type { AudioPool } from "../../lib/audio-pool.js";
import { newId } from "../../lib/ids.js";
import { clientKey, type Limit, type RateLimiter } from "../../lib/rate-limit.js";
import type { Viewer } from "../auth/viewer.js";
import type { FingerprintsService, Recognition } from "../fingerprints/fingerprints.service.js";
import { present } from "../fingerprints/recognition-answer.js";
import type { ReportsService } from "../reports/reports.service.js";
import type { SongsService } from "../songs/songs.service.js";

/** The longest clip listened to, in seconds. */
export const MAX_CLIP_SECONDS = IDENTIFY_LIMITS.maxClipSeconds;
/** The largest clip file taken, in bytes. */
export const MAX_CLIP_BYTES = IDENTIFY_LIMITS.maxFileMb * 1024 * 1024;
/** A file's length may pass the limit by this much: encoders pad the end (an MP3's last frame, AAC priming). */
const FILE_LENGTH_TOLERANCE_SECONDS = 0.5;
/**
 * A clip with no song found is "Not on Unheard yet" only if something was heard: at least this many hashes (music
 * gives 200 a second, digital silence none)... (decision 032)
 */
export const MIN_HEARD_HASHES = 20;
/**
 * ...and a level of at least this, RMS in dBFS: a quiet room's noise floor gives as many hashes as music (the
 * fingerprint follows peaks, whatever their level), and saying "Not on Unheard yet" then would send the member off
 * to upload what was never heard. Music played near a phone records at about -35 to -15 dBFS.
 */
export const MIN_HEARD_DB = -50;

/** RMS level of samples in dBFS (-Infinity for silence). */
function levelDb(samples: Float32Array): number {
  let sum = 0;
  for (const v of samples) sum += v * v;
  return samples.length > 0 ? 10 * Math.log10(sum / samples.length) : Number.NEGATIVE_INFINITY;
}
const HOUR = 60 * 60;

/** Where the server answers what Identify may not say (Server-Timing). */
type Reply = { header: (name: string, value: string) => unknown };

/** A clip file as the multipart parser streams it. */
export type ClipFile = { file: Readable & { truncated?: boolean }; filename: string };

/** Identifying clips for members: limits, length bounds, the recognition, and the answer they may see. */
export function createIdentifyService(deps: {
  fingerprints: Pick<FingerprintsService, "recognize">;
  songs: Pick<SongsService, "visibleRow" | "hydrate" | "get">;
  limiter: RateLimiter;
  /** Clips per member and per client address an hour; 0 = no limit (config.identify). */
  limits: { perMemberHour: number; perAddressHour: number };
  /** Where a clip file waits while it is read ($DATA_DIR/tmp). */
  dataDir: string;
  /** Decode a clip file: the audio pool's threads (admitted like an upload); unset, on this thread. */
  decode?: AudioPool["decode"];
  /** Filing a report with the clip attached. */
  reports?: Pick<ReportsService, "create">;
}) {
  const { fingerprints, songs, limiter, limits } = deps;
  const memberLimit: Limit = { name: "identify-member", limit: limits.perMemberHour, windowSec: HOUR };
  const addressLimit: Limit = { name: "identify-address", limit: limits.perAddressHour, windowSec: HOUR };

  /** Count a hit on `rule`; past it, refuse with whose limit it is and when they can identify again. */
  async function counted(who: "member" | "address", rule: Limit, subject: string): Promise<void> {
    if (rule.limit <= 0) return;
    try {
      await limiter.hit(rule, subject);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "rate_limited") throw err;
      const retryAfter = Number(err.headers?.["retry-after"] ?? rule.windowSec);
      throw new AppError("rate_limited", identifyLimitMessage(who, rule.limit, retryAfter), {
        ...(err.headers ? { headers: err.headers } : {}),
      });
    }
  }

  /** A busy audio pool's refusal (503, Retry-After kept), said for Identify; anything else as it is. */
  function busy(err: unknown): never {
    if (err instanceof AppError && err.code === "unavailable")
      throw new AppError("unavailable", MESSAGES.identifyBusy, err.headers ? { headers: err.headers } : {});
    throw err;
  }

  /** The recognition as the member may see it: hidden songs never, pending ones by the visibility rule. */
  async function answer(
    result: Recognition,
    samples: Float32Array,
    seconds: number,
    viewer: Viewer,
    reply: Reply,
  ): Promise<IdentifyAnswer> {
    const presented = await present(songs, result, seconds, viewer, reply);
    const found = presented.match;
    const song = found ? await songs.get(found.song.id, viewer).catch(() => undefined) : undefined;
    // Identify never names a hidden song, even to an admin: the admins' tools are where hidden songs are handled.
    if (!found || !song || song.isHidden) {
      const heard = result.hashes >= MIN_HEARD_HASHES && levelDb(samples) >= MIN_HEARD_DB;
      return {
        seconds,
        heard,
        match: null,
        message: heard ? MESSAGES.identifyNotOnUnheard : MESSAGES.identifyHeardNothing,
      };
    }
    return {
      seconds,
      heard: true,
      match: {
        song: {
          id: song.id,
          title: song.title,
          artists: song.artists,
          coverUrl: song.coverUrl,
          status: song.status,
        },
        certainty: found.certainty,
        offsetSeconds: Math.max(0, found.offsetSeconds),
        transform: found.transform,
        tracker: {
          artistId: song.artists[0]?.id ?? null,
          era: song.era,
          availability: song.availability,
          quality: song.quality,
          versionLabel: song.versionLabel,
          leakDate: song.leakDate,
        },
      },
      message: identifiedMessage(
        song.title,
        song.artists.map((a) => a.name),
      ),
    };
  }

  /** A clip file's first bytes, for its format. */
  async function headOf(file: string): Promise<Buffer> {
    const head = Buffer.alloc(8192);
    const fh = await open(file, "r");
    try {
      const { bytesRead } = await fh.read(head, 0, head.length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  /** Write a clip file to a temp file within the size limit; its path (the caller removes it). */
  async function received(clip: ClipFile): Promise<string> {
    const dir = path.join(deps.dataDir, "tmp");
    await mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `${newId()}.identify`);
    const tooLarge = () => new AppError("payload_too_large", identifyFileTooLargeMessage(IDENTIFY_LIMITS.maxFileMb));
    try {
      await pipeline(clip.file, createWriteStream(tmp)).catch((err: { statusCode?: number }) => {
        // The parser stops a file at its size limit with a 413 of its own; said here for Identify.
        throw err.statusCode === 413 ? tooLarge() : err;
      });
      if (clip.file.truncated) throw tooLarge();
      return tmp;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** A clip file that is audio of at most 20 s (headers first, then decoded on the pool), or a clear refusal. */
  async function checked(tmp: string, filename: string): Promise<{ format: AudioFormat; decoded: DecodedAudio }> {
    const format = sniffAudio(await headOf(tmp));
    if (!format) throw new AppError("unsupported_media_type", unrecognisedAudioMessage(filename));
    const maxSeconds = MAX_CLIP_SECONDS + FILE_LENGTH_TOLERANCE_SECONDS;
    // A file whose headers promise a longer clip is refused before anything is decoded.
    const declared = await declaredLength(tmp, format.decoder, (await stat(tmp)).size).catch(() => undefined);
    if (declared?.seconds && declared.seconds > maxSeconds)
      throw new AppError("payload_too_large", identifyClipTooLongMessage(MAX_CLIP_SECONDS));
    let decoded: DecodedAudio;
    try {
      // On the audio pool's threads, admitted through its queue like an upload (busy: 503).
      decoded = await (deps.decode ?? decodeAudioFile)(tmp, format, { keepSeconds: maxSeconds });
    } catch (err) {
      if (err instanceof AppError) busy(err);
      throw new AppError("bad_request", audioErrorMessage(err));
    }
    if (decoded.durationSec > maxSeconds)
      throw new AppError("payload_too_large", identifyClipTooLongMessage(MAX_CLIP_SECONDS));
    return { format, decoded };
  }

  return {
    /**
     * Count one clip against the member's and the address's hourly limits (before any work), refusing past either
     * with 429, Retry-After and when they can identify again. The member's first: a member past their own limit
     * does not use up the budget of the others behind the same address.
     */
    async admit(viewer: Viewer, ip: string): Promise<void> {
      await counted("member", memberLimit, viewer.id);
      await counted("address", addressLimit, clientKey(ip));
    },

    /** Name the song of streamed microphone audio: 16-bit little-endian mono PCM at `sampleRate`. */
    async fromPcm(viewer: Viewer, body: unknown, sampleRate: number, reply: Reply): Promise<IdentifyAnswer> {
      if (!Buffer.isBuffer(body) || body.length < 2) throw new AppError("bad_request", MESSAGES.processAudioFailed);
      const n = Math.floor(body.length / 2);
      if (n > MAX_CLIP_SECONDS * sampleRate)
        throw new AppError("payload_too_large", identifyClipTooLongMessage(MAX_CLIP_SECONDS));
      const samples = new Float32Array(n);
      for (let i = 0; i < n; i++) samples[i] = body.readInt16LE(i * 2) / 32768;
      // The first step is admitted through the pool's queue (busy: 503 with Retry-After).
      const result = await fingerprints.recognize(samples, sampleRate).catch(busy);
      return answer(result, samples, n / sampleRate, viewer, reply);
    },

    /** Name the song of an uploaded clip file; the file is removed whatever happens. */
    async fromFile(viewer: Viewer, clip: ClipFile, reply: Reply): Promise<IdentifyAnswer> {
      const tmp = await received(clip);
      try {
        const { decoded } = await checked(tmp, clip.filename);
        // Admitted with the decode: the recognition is part of the same work and is not refused halfway.
        const result = await fingerprints.recognize(decoded.mono, decoded.monoRate, true);
        return answer(result, decoded.mono, decoded.mono.length / decoded.monoRate, viewer, reply);
      } finally {
        await rm(tmp, { force: true });
      }
    },

    /**
     * Report a song with the clip the member identified it from attached: the clip is checked as Identify checks
     * it (audio, at most 20 s), then kept with the report until an admin handles it. Returns the report's id.
     */
    async report(
      viewer: Viewer,
      songId: string,
      input: Parameters<ReportsService["create"]>[2],
      clip: ClipFile,
    ): Promise<string> {
      if (!deps.reports) throw new AppError("not_found", MESSAGES.notFound);
      const tmp = await received(clip);
      try {
        const { format } = await checked(tmp, clip.filename);
        return await deps.reports.create(viewer, songId, input, { tmp, ext: format.ext, mime: format.mime });
      } finally {
        // Moved in as the report's clip when it was filed; otherwise removed here.
        await rm(tmp, { force: true });
      }
    },
  };
}

/** The Identify service type. */
export type IdentifyService = ReturnType<typeof createIdentifyService>;

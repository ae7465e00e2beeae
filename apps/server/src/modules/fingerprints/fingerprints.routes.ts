import { createWriteStream } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { CERTAINTIES } from "@unheard/fingerprint";
import { audioTransformSchema, MESSAGES } from "@unheard/shared";
import { z } from "zod";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import {
  audioErrorMessage,
  type DecodedAudio,
  decodeAudioFile,
  sniffAudio,
  unrecognisedAudioMessage,
} from "../../lib/audio.js";
import type { AudioPool } from "../../lib/audio-pool.js";
import { newId } from "../../lib/ids.js";
import type { JobQueue } from "../../lib/jobs.js";
import { idParams, routeOptions } from "../../lib/route-schemas.js";
import { toIso } from "../../lib/time.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SongsService } from "../songs/songs.service.js";
import type { FingerprintsService } from "./fingerprints.service.js";
import { present } from "./recognition-answer.js";

const options = routeOptions(["fingerprints"], 400, 401, 403, 404, 413, 415);
/** A recording sent for recognition: at most this long (the page stops at 15 s). */
const MAX_CLIP_SECONDS = 30;

const candidateSchema = z.object({
  song: z.object({
    id: z.string(),
    title: z.string(),
    artists: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  aligned: z.number(),
  confidence: z.number(),
  offsetSeconds: z.number(),
  /** How the clip was sped up, pitch-shifted or stretched from the song; null when it plays as stored. */
  transform: audioTransformSchema.nullable(),
});
const recognitionSchema = z.object({
  hashes: z.number(),
  seconds: z.number(),
  /** The match, with how sure it is in words and the runner-up's aligned hashes it stands out against. */
  match: candidateSchema
    .extend({
      certainty: z.enum(CERTAINTIES),
      runnerUpAligned: z.number(),
      /** What lines up: hashes as stored or through a warp, or invariant triplets (decision 033). */
      evidence: z.enum(["plain", "warped", "invariant"]),
    })
    .nullable(),
  candidates: z.array(candidateSchema),
  message: z.string(),
});

/** Song recognition (super admin), fingerprint status, and the job list for admins. */
export function fingerprintsRoutes(
  app: App,
  deps: {
    fingerprints: FingerprintsService;
    songs: SongsService;
    viewers: ViewerResolver;
    jobs: JobQueue;
    config: Config;
    /** Decode a clip: the audio pool's threads (issue 24); unset, on this thread. */
    decode?: AudioPool["decode"];
  },
) {
  const { fingerprints, songs, viewers, jobs, config, decode } = deps;

  // The page streams the microphone: each call carries the whole recording so far as 16-bit mono PCM, so the
  // server keeps no per-recording state and any instance can answer. The raw-body parser (4 MB) lives in this
  // route's own plugin context: every other route still refuses application/octet-stream with 415 (issue 24).
  app.register(async (scoped) => {
    scoped.addContentTypeParser(
      "application/octet-stream",
      { parseAs: "buffer", bodyLimit: 4 * 1024 * 1024 },
      (_req, body, done) => {
        done(null, body);
      },
    );
    recognitionPcmRoute(scoped as unknown as App);
  });

  function recognitionPcmRoute(app: App) {
    app.post(
      "/api/recognition/pcm",
      options(recognitionSchema, {
        querystring: z.object({ sampleRate: z.coerce.number().int().min(4000).max(48000) }),
      }),
      async (req, reply) => {
        const viewer = await viewers.superAdmin(req);
        const body = req.body;
        if (!Buffer.isBuffer(body) || body.length < 2) throw new AppError("bad_request", MESSAGES.processAudioFailed);
        const n = Math.floor(body.length / 2);
        if (n > MAX_CLIP_SECONDS * req.query.sampleRate)
          throw new AppError("payload_too_large", `Recordings are limited to ${MAX_CLIP_SECONDS} s`);
        const samples = new Float32Array(n);
        for (let i = 0; i < n; i++) samples[i] = body.readInt16LE(i * 2) / 32768;
        return present(
          songs,
          await fingerprints.recognize(samples, req.query.sampleRate),
          n / req.query.sampleRate,
          viewer,
          reply,
        );
      },
    );
  }

  app.post(
    "/api/recognition/file",
    { schema: { ...options(recognitionSchema).schema, consumes: ["multipart/form-data"] } },
    async (req, reply) => {
      const viewer = await viewers.superAdmin(req);
      if (!req.isMultipart()) throw new AppError("unsupported_media_type", "Send the clip as multipart/form-data");
      const file = await req.file({ limits: { fileSize: Math.floor(config.maxUploadMb * 1024 * 1024), files: 1 } });
      if (!file) throw new AppError("validation_failed", MESSAGES.uploadAudioRequired);
      const dir = path.join(config.dataDir, "tmp");
      await mkdir(dir, { recursive: true });
      const tmp = path.join(dir, `${newId()}.clip`);
      try {
        await pipeline(file.file, createWriteStream(tmp));
        if (file.file.truncated) throw new AppError("payload_too_large", MESSAGES.audioTooLarge);
        const head = Buffer.alloc(8192);
        const fh = await open(tmp, "r");
        const { bytesRead } = await fh.read(head, 0, head.length, 0);
        await fh.close();
        const format = sniffAudio(head.subarray(0, bytesRead));
        if (!format) throw new AppError("unsupported_media_type", unrecognisedAudioMessage(file.filename));
        let decoded: DecodedAudio;
        try {
          // A long file is matched on its first minute: enough to recognise, bounded in cost. Decoded on the
          // audio pool's threads, within its budgets (issue 24).
          decoded = await (decode ?? decodeAudioFile)(tmp, format, { keepSeconds: 60 });
        } catch (err) {
          // A busy audio pool (503) is not the file's fault.
          if (err instanceof AppError) throw err;
          throw new AppError("bad_request", audioErrorMessage(err));
        }
        return present(
          songs,
          await fingerprints.recognize(decoded.mono, decoded.monoRate, true),
          decoded.mono.length / decoded.monoRate,
          viewer,
          reply,
        );
      } finally {
        await rm(tmp, { force: true });
      }
    },
  );

  app.get(
    "/api/songs/:id/fingerprints",
    options(
      z.object({
        songId: z.string(),
        count: z.number(),
        perSecond: z.number(),
        fingerprintedAt: z.string().nullable(),
        preset: z.string().nullable(),
        job: z
          .object({
            status: z.string(),
            lastError: z.string().nullable(),
            attempts: z.number(),
            updatedAt: z.string(),
          })
          .nullable(),
      }),
      { params: idParams },
    ),
    async (req) => {
      await viewers.admin(req);
      return fingerprints.status(req.params.id);
    },
  );

  // How far the invariant index's background backfill is (decision 033).
  app.get(
    "/api/admin/fingerprints/invariant",
    options(
      z.object({
        songs: z.number(),
        indexed: z.number(),
        remaining: z.number(),
        retired: z.number(),
        preset: z.string(),
      }),
    ),
    async (req) => {
      await viewers.admin(req);
      const backfill = fingerprints.backfill;
      if (!backfill) throw new AppError("not_found", MESSAGES.notFound);
      return backfill.progress();
    },
  );

  app.get(
    "/api/admin/jobs",
    options(
      z.object({
        items: z.array(
          z.object({
            id: z.string(),
            kind: z.string(),
            payload: z.string(),
            status: z.string(),
            attempts: z.number(),
            lastError: z.string().nullable(),
            updatedAt: z.string(),
          }),
        ),
      }),
    ),
    async (req) => {
      await viewers.admin(req);
      const rows = await jobs.recent();
      return {
        items: rows.map((j) => ({
          id: j.id,
          kind: j.kind,
          payload: j.payload,
          status: j.status,
          attempts: Number(j.attempts),
          lastError: j.last_error,
          updatedAt: toIso(j.updated_at),
        })),
      };
    },
  );
}

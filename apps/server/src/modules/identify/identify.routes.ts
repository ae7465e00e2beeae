import {
  identifyAnswerSchema,
  identifyPcmQuerySchema,
  MESSAGES,
  okSchema,
  REPORT_REASONS,
  reportInputSchema,
} from "@unheard/shared";
import { z } from "zod";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import { routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import { type IdentifyService, MAX_CLIP_BYTES } from "./identify.service.js";

const options = routeOptions(["identify"], 400, 401, 403, 404, 409, 413, 415, 429, 503);
/** The report's fields, sent before the clip in the form. */
const reportFieldsSchema = reportInputSchema.extend({ songId: z.string().min(1).max(64) });
/** The raw PCM body's limit: 20 s at the highest rate the query takes (48 kHz, 16-bit) is 1.9 MB; past this, 413. */
const PCM_BODY_LIMIT = 4 * 1024 * 1024;

/** Identify (issue 39): any signed-in member names a song from a microphone recording or a clip file. */
export function identifyRoutes(app: App, deps: { identify: IdentifyService; viewers: ViewerResolver }) {
  const { identify, viewers } = deps;

  // The page sends the recording so far as 16-bit mono PCM. The raw-body parser lives in this route's own plugin
  // context, as recognition's does: every other route still refuses application/octet-stream with 415.
  app.register(async (scoped) => {
    scoped.addContentTypeParser(
      "application/octet-stream",
      { parseAs: "buffer", bodyLimit: PCM_BODY_LIMIT },
      (_req, body, done) => {
        done(null, body);
      },
    );
    (scoped as unknown as App).post(
      "/api/identify/pcm",
      options(identifyAnswerSchema, { querystring: identifyPcmQuerySchema }),
      async (req, reply) => {
        const viewer = await viewers.signedIn(req, MESSAGES.identifySignIn);
        await identify.admit(viewer, req.ip);
        return identify.fromPcm(viewer, req.body, req.query.sampleRate, reply);
      },
    );
  });

  app.post(
    "/api/identify/file",
    { schema: { ...options(identifyAnswerSchema).schema, consumes: ["multipart/form-data"] } },
    async (req, reply) => {
      const viewer = await viewers.signedIn(req, MESSAGES.identifySignIn);
      if (!req.isMultipart()) throw new AppError("unsupported_media_type", "Send the clip as multipart/form-data");
      await identify.admit(viewer, req.ip);
      const file = await req.file({ limits: { fileSize: MAX_CLIP_BYTES, files: 1 } });
      if (!file) throw new AppError("validation_failed", MESSAGES.uploadAudioRequired);
      return identify.fromFile(viewer, file, reply);
    },
  );

  // A report of the song Identify named, with the clip attached (the only way a clip is kept; issue 39).
  app.post(
    "/api/identify/report",
    { schema: { ...options(okSchema, {}, 201).schema, consumes: ["multipart/form-data"] } },
    async (req, reply) => {
      const viewer = await viewers.member(req, MESSAGES.loginToReport);
      if (!req.isMultipart()) throw new AppError("unsupported_media_type", "Send the report as multipart/form-data");
      // The clip is decoded as an Identify clip is: it counts against the same hourly limits.
      await identify.admit(viewer, req.ip);
      const fields: Record<string, string> = {};
      for await (const part of req.parts({
        limits: { fileSize: MAX_CLIP_BYTES, files: 1, fields: 4, fieldSize: 2000 },
      })) {
        if (part.type === "field") {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== "clip") {
          part.file.resume();
          continue;
        }
        const parsed = reportFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          part.file.resume();
          const reasonMissing = !REPORT_REASONS.includes(fields.reason as (typeof REPORT_REASONS)[number]);
          throw new AppError(
            "validation_failed",
            reasonMissing
              ? MESSAGES.reportReasonRequired
              : (parsed.error.issues[0]?.message ?? MESSAGES.reportReasonRequired),
          );
        }
        const { songId, ...input } = parsed.data;
        await identify.report(viewer, songId, input, part);
        return reply.status(201).send({ ok: true as const, message: MESSAGES.identifyReportSent });
      }
      throw new AppError("validation_failed", MESSAGES.uploadAudioRequired);
    },
  );
}

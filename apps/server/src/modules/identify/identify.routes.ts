import { identifyAnswerSchema, identifyPcmQuerySchema, MESSAGES } from "@unheard/shared";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import { routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import { type IdentifyService, MAX_CLIP_BYTES } from "./identify.service.js";

const options = routeOptions(["identify"], 400, 401, 413, 415, 429, 503);
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
}

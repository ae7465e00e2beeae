import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  editResultSchema,
  editSongSchema,
  errorBodySchema,
  favoriteStateSchema,
  feedQuerySchema,
  MESSAGES,
  songHistorySchema,
  songPageSchema,
  songSchema,
  songVersionsSchema,
  uploadSongSchema,
  versionLinkSchema,
} from "@unheard/shared";
import { z } from "zod";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import { type App, sendPublic } from "../../http.js";
import { sniffAudio, unrecognisedAudioMessage } from "../../lib/audio.js";
import { newId } from "../../lib/ids.js";
import { type PublicCache, songCacheKey } from "../../lib/public-cache.js";
import { errorResponses, idParams, pageQuery, routeOptions } from "../../lib/route-schemas.js";
import { compileSerializer } from "../../lib/serializer.js";
import type { AudioStorage } from "../../lib/storage.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { SongsService } from "./songs.service.js";
import { mediaCacheControl } from "./visibility.js";

const songPageJson = compileSerializer(songPageSchema);
const songJson = compileSerializer(songSchema);

const tags = ["songs"];
const options = routeOptions(tags, 400, 401, 403, 404);

/** A single `bytes=` range (suffix and open-ended forms too), or undefined when it cannot be served. */
function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return undefined;
  let start: number;
  let end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  return start < size && start <= end ? { start, end } : undefined;
}

/** A multipart list of names: one value is comma-separated, repeated values are one name each. */
function names(values: string[] | undefined): string | string[] | null {
  if (!values) return null;
  return values.length === 1 ? (values[0] ?? null) : values;
}

/** Songs: feeds, search, detail, audio, upload, edit, delete, favourites. */
export function songsRoutes(
  app: App,
  deps: {
    songsService: SongsService;
    viewers: ViewerResolver;
    storage: AudioStorage;
    config: Config;
    publicCache: PublicCache;
  },
) {
  const { songsService, viewers, storage, config, publicCache } = deps;
  const maxBytes = Math.floor(config.maxUploadMb * 1024 * 1024);
  const tmpDir = path.join(config.dataDir, "tmp");

  // Everyone but admins starts from the shared visitor answer; members get their own state laid over it.
  app.get(
    "/api/songs",
    { schema: { tags, querystring: feedQuerySchema, response: { 200: songPageSchema, 400: errorBodySchema } } },
    async (req, reply) => {
      const viewer = await viewers.viewer(req);
      if (viewer?.isAdmin) return songsService.feed(req.query, viewer);
      const cached = await publicCache.through(
        `feed:${JSON.stringify(req.query)}`,
        () => songsService.feed(req.query, undefined),
        songPageJson,
      );
      if (!viewer) return sendPublic(reply, cached);
      return { ...cached.value, items: await songsService.personalize(cached.value.items, viewer) };
    },
  );

  app.get(
    "/api/songs/recommendations",
    { schema: { tags, response: { 200: z.object({ items: z.array(songSchema) }) } } },
    async (req) => ({
      items: await songsService.recommendations(await viewers.viewer(req)),
    }),
  );

  app.get(
    "/api/landing/tracks",
    { schema: { tags, response: { 200: z.object({ items: z.array(songSchema) }) } } },
    async () => ({
      items: await songsService.landingTracks(),
    }),
  );

  app.get("/api/me/favorites", options(songPageSchema, { querystring: pageQuery() }), async (req) => {
    const viewer = await viewers.member(req, MESSAGES.loginToFavorite);
    return songsService.favorites(viewer, req.query.cursor, req.query.limit);
  });

  app.get("/api/songs/:id", options(songSchema, { params: idParams }), async (req, reply) => {
    const viewer = await viewers.viewer(req);
    // Admins also see hidden songs and duplicate-audio matches: theirs is never the shared answer.
    if (viewer?.isAdmin) return songsService.get(req.params.id, viewer);
    // The shared answer is a visitor's: verified songs only (a pending one answers 404, as a missing id does).
    const shared = () =>
      publicCache.through(songCacheKey(req.params.id), () => songsService.get(req.params.id, undefined), songJson);
    if (!viewer) return sendPublic(reply, await shared());
    const cached = await shared().catch((err: unknown) => {
      if (err instanceof AppError && err.code === "not_found") return undefined;
      throw err;
    });
    // Members also see pending songs (they vote on them): read for them, never cached.
    if (!cached) return songsService.get(req.params.id, viewer);
    const [song] = await songsService.personalize([cached.value], viewer);
    return song;
  });

  app.get("/api/songs/:id/history", options(songHistorySchema, { params: idParams }), async (req) => ({
    items: await songsService.history(req.params.id, await viewers.viewer(req)),
  }));

  app.get("/api/songs/:id/versions", options(songVersionsSchema, { params: idParams }), async (req) => ({
    items: await songsService.versions(req.params.id, await viewers.viewer(req)),
  }));

  // Linking a song as a version of another is an edit: its owner and admins only.
  app.put(
    "/api/songs/:id/version-of",
    options(songSchema, { params: idParams, body: versionLinkSchema }),
    async (req) => songsService.linkVersion(await viewers.member(req), req.params.id, req.body),
  );

  app.delete("/api/songs/:id/version-of", options(songSchema, { params: idParams }), async (req) =>
    songsService.linkVersion(await viewers.member(req), req.params.id, null),
  );

  // The audio file, with Range support so the browser's player can seek.
  app.get("/api/songs/:id/audio", { schema: { tags, params: idParams } }, async (req, reply) => {
    const row = await songsService.visibleRow(req.params.id, await viewers.viewer(req));
    if (!row.audio_key || !row.audio_mime) throw new AppError("not_found", MESSAGES.previewUnavailable);
    const size = await storage.size(row.audio_key);
    if (size === undefined) throw new AppError("not_found", MESSAGES.previewUnavailable);
    const etag = `"${row.audio_sha256 ?? row.audio_key}"`;
    let range: { start: number; end: number } | undefined;
    if (req.headers.range) {
      range = parseRange(req.headers.range, size);
      if (!range) {
        reply.header("content-range", `bytes */${size}`);
        throw new AppError("range_not_satisfiable", "Requested range not satisfiable");
      }
    }
    reply.header("accept-ranges", "bytes").header("etag", etag).header("x-content-type-options", "nosniff");
    // The URL carries the content hash (?v=): a public song's audio is cached for good, no other (visibility.ts).
    const versioned = typeof (req.query as { v?: unknown }).v === "string";
    reply.header("cache-control", mediaCacheControl(row, versioned));
    if (req.headers["if-none-match"] === etag) return reply.status(304).send();
    reply.header("content-type", row.audio_mime);
    // Opened before the status and length are set, so a store error answers as an error.
    const body = await storage.read(row.audio_key, range);
    if (!range) {
      reply.header("content-length", size);
      return reply.send(body);
    }
    const { start, end } = range;
    reply
      .status(206)
      .header("content-range", `bytes ${start}-${end}/${size}`)
      .header("content-length", end - start + 1);
    return reply.send(body);
  });

  app.post(
    "/api/songs",
    {
      schema: {
        tags,
        consumes: ["multipart/form-data"],
        response: { 201: songSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
      bodyLimit: maxBytes + 1024 * 1024,
    },
    async (req, reply) => {
      const viewer = await viewers.member(req);
      if (!req.isMultipart()) throw new AppError("unsupported_media_type", "Send the song as multipart/form-data");
      await mkdir(tmpDir, { recursive: true });
      const fields: Record<string, string[]> = {};
      let file: { path: string; size: number; sha256: string } | undefined;
      // The name the browser gave the file: only to word a refusal (issue 38), never to store or type the file.
      let fileName = "";
      let sink: WriteStream | undefined;
      try {
        for await (const part of req.parts({
          // Up to 10 artists and the 18 single fields (name lists and tags as comma-separated values).
          limits: { fileSize: maxBytes, files: 1, fields: 32, fieldSize: 10_000 },
        })) {
          if (part.type === "field") {
            fields[part.fieldname] = [...(fields[part.fieldname] ?? []), String(part.value)];
            continue;
          }
          if (part.fieldname !== "audio" || file) {
            part.file.resume();
            continue;
          }
          fileName = part.filename;
          const tempPath = path.join(tmpDir, `${newId()}.upload`);
          const hash = createHash("sha256");
          let size = 0;
          file = { path: tempPath, size: 0, sha256: "" };
          sink = createWriteStream(tempPath);
          await pipeline(
            part.file,
            new Transform({
              transform(chunk: Buffer, _enc, cb) {
                hash.update(chunk);
                size += chunk.length;
                cb(null, chunk);
              },
            }),
            sink,
          );
          if (part.file.truncated)
            throw new AppError("payload_too_large", `${MESSAGES.audioTooLarge} (max ${config.maxUploadMb} MB)`);
          file = { path: tempPath, size, sha256: hash.digest("hex") };
        }
        // Artists come as repeated fields; a single JSON array is accepted too.
        const artistValues = fields.artists ?? [];
        const artists =
          artistValues.length === 1 && artistValues[0]?.startsWith("[")
            ? (JSON.parse(artistValues[0]) as unknown)
            : artistValues;
        const parsed = uploadSongSchema.safeParse({
          title: fields.title?.[0] ?? "",
          artists,
          genre: fields.genre?.[0],
          releaseDate: fields.releaseDate?.[0] ?? null,
          soundcloudUrl: fields.soundcloudUrl?.[0] ?? null,
          era: fields.era?.[0] ?? null,
          // Names come as repeated fields or one comma-separated value.
          producers: names(fields.producers),
          features: names(fields.features),
          references: names(fields.references),
          aliases: names(fields.aliases),
          versionLabel: fields.versionLabel?.[0] ?? null,
          tags: names(fields.tags),
          leakDate: fields.leakDate?.[0] ?? null,
          fileDate: fields.fileDate?.[0] ?? null,
          trackLength: fields.trackLength?.[0] ?? null,
          availability: fields.availability?.[0] ?? null,
          quality: fields.quality?.[0] ?? null,
          notes: fields.notes?.[0] ?? null,
          links: names(fields.links),
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = String(issue?.path[0] ?? "body");
          throw new AppError("validation_failed", issue?.message ?? MESSAGES.badRequest, {
            fields: { [field]: issue?.message ?? "" },
          });
        }
        if (!file || file.size === 0) {
          throw new AppError("validation_failed", MESSAGES.uploadAudioRequired, {
            fields: { audio: MESSAGES.uploadAudioRequired },
          });
        }
        const head = Buffer.alloc(8192);
        const fh = await open(file.path, "r");
        const { bytesRead } = await fh.read(head, 0, head.length, 0);
        await fh.close();
        const format = sniffAudio(head.subarray(0, bytesRead));
        if (!format) {
          const message = unrecognisedAudioMessage(fileName);
          throw new AppError("unsupported_media_type", message, { fields: { audio: message } });
        }
        const uploaded = file;
        file = undefined; // the service owns the temp file from here
        const song = await songsService.upload(
          viewer,
          parsed.data,
          { ...uploaded, format },
          { allowDuplicateAudio: fields.allowDuplicateAudio?.[0] === "true" },
        );
        return reply.status(201).send(song);
      } catch (err) {
        if (err instanceof SyntaxError) throw new AppError("validation_failed", MESSAGES.uploadRequiredFields);
        const code = (err as { code?: string }).code;
        if (code === "FST_REQ_FILE_TOO_LARGE")
          throw new AppError("payload_too_large", `${MESSAGES.audioTooLarge} (max ${config.maxUploadMb} MB)`);
        if (code === "FST_PARTS_LIMIT" || code === "FST_FILES_LIMIT" || code === "FST_FIELDS_LIMIT") {
          throw new AppError("bad_request", "Too many form fields or files");
        }
        throw err;
      } finally {
        // A body that breaks off mid-file fails the pipeline before the temp file has finished opening: wait for
        // the write stream to close, or the file would appear after it was removed.
        const stream = sink;
        if (stream && !stream.closed) await new Promise<void>((done) => stream.once("close", () => done()));
        if (file) await rm(file.path, { force: true });
      }
    },
  );

  app.patch(
    "/api/songs/:id",
    {
      schema: {
        tags,
        params: idParams,
        body: editSongSchema,
        response: { 200: editResultSchema, 202: editResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      // An admin edits others' songs directly only with canEditAllSongs; without it, as a member.
      const member = await viewers.member(req, "You must be logged in to propose an edit");
      const viewer = await viewers.as(member, "canEditAllSongs");
      const result = await songsService.edit(viewer, req.params.id, req.body);
      return reply.status(result.applied ? 200 : 202).send(result);
    },
  );

  app.delete(
    "/api/songs/:id",
    options(z.object({ ok: z.literal(true), message: z.string() }), { params: idParams }),
    async (req) => {
      const viewer = await viewers.superAdmin(req);
      await songsService.remove(viewer, req.params.id);
      return { ok: true as const, message: MESSAGES.songDeleted };
    },
  );

  // Favourites are held back by the waitlist gate like the /favorites screen (they move counts and trending).
  for (const method of ["PUT", "DELETE"] as const) {
    app.route({
      method,
      url: "/api/songs/:id/favorite",
      ...options(favoriteStateSchema, { params: idParams }),
      handler: async (req) => {
        const viewer = await viewers.member(req, MESSAGES.loginToFavorite);
        return songsService.setFavorite(viewer, req.params.id, method === "PUT");
      },
    });
  }
}

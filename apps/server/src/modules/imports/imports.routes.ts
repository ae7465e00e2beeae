import {
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  importBatchDetailSchema,
  importBatchListSchema,
  importBatchSchema,
  importOptionsSchema,
  importPreviewSchema,
  MESSAGES,
} from "@unheard/shared";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import type { App } from "../../http.js";
import { errorResponses, idParams, routeOptions } from "../../lib/route-schemas.js";
import type { ViewerResolver } from "../auth/viewer.js";
import type { ImportInput, ImportsService } from "./imports.service.js";

const options = routeOptions(["imports"], 400, 401, 403, 404, 409, 413, 415);
const MAX_BYTES = IMPORT_LIMITS.maxMb * 1024 * 1024;

const uploadErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);
/** What the upload routes share: multipart bodies up to MAX_BYTES. */
const upload = { consumes: ["multipart/form-data"], tags: ["imports"] };
const bodyLimit = MAX_BYTES + 1024 * 1024;

/**
 * The file (multipart field `file`) and the fields beside it: mapping (JSON array, a one-tab file), mappings (JSON
 * object: tab -> array), headerRows (JSON object: tab -> line), tabs (JSON array), asVerified, defaultArtist,
 * legend (JSON object: mark -> tag).
 */
async function readUpload(req: FastifyRequest): Promise<ImportInput> {
  if (!req.isMultipart()) throw new AppError("unsupported_media_type", IMPORT_MESSAGES.fileRequired);
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_BYTES, files: 1, fields: 12, fieldSize: 50_000 } })) {
      if (part.type === "field") {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== "file" || file) {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer();
      file = { name: part.filename || "import.csv", bytes };
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("payload_too_large", IMPORT_MESSAGES.tooLarge);
    if (code === "FST_PARTS_LIMIT" || code === "FST_FILES_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw new AppError("bad_request", "Too many form fields or files");
    throw err;
  }
  if (!file) throw new AppError("validation_failed", IMPORT_MESSAGES.fileRequired);
  const json = (name: string, message: string): unknown => {
    try {
      return fields[name] ? JSON.parse(fields[name]) : undefined;
    } catch {
      throw new AppError("validation_failed", message);
    }
  };
  const parsed = importOptionsSchema.safeParse({
    mapping: json("mapping", IMPORT_MESSAGES.mappingLength),
    mappings: json("mappings", IMPORT_MESSAGES.mappingLength),
    headerRows: json("headerRows", IMPORT_MESSAGES.headerRowInvalid),
    tabs: json("tabs", IMPORT_MESSAGES.tabsInvalid),
    asVerified: fields.asVerified === "true",
    defaultArtist: fields.defaultArtist || undefined,
    legend: json("legend", IMPORT_MESSAGES.legendInvalid),
  });
  if (!parsed.success) throw new AppError("validation_failed", parsed.error.issues[0]?.message ?? MESSAGES.badRequest);
  const { asVerified, ...reading } = parsed.data;
  return { fileName: file.name, bytes: file.bytes, asVerified, reading };
}

/** Bulk import from tracker spreadsheets (issue 16): admins holding canBulkImport only. */
export function importsRoutes(app: App, deps: { imports: ImportsService; viewers: ViewerResolver }) {
  const { imports, viewers } = deps;
  const importer = (req: FastifyRequest) => viewers.permitted(req, "canBulkImport", IMPORT_MESSAGES.noPermission);
  // A run going on in the background stops between chunks before the database closes (it stays undoable).
  app.addHook("preClose", () => imports.stop());

  app.post(
    "/api/imports/preview",
    { schema: { ...upload, response: { 200: importPreviewSchema, ...uploadErrors } }, bodyLimit },
    async (req) => {
      const viewer = await importer(req);
      return imports.preview(viewer, await readUpload(req));
    },
  );

  app.post(
    "/api/imports",
    { schema: { ...upload, response: { 201: importBatchSchema, ...uploadErrors } }, bodyLimit },
    async (req, reply) => {
      const viewer = await importer(req);
      return reply.status(201).send(await imports.run(viewer, await readUpload(req)));
    },
  );

  app.get("/api/imports", options(importBatchListSchema), async (req) => {
    await importer(req);
    return { items: await imports.list() };
  });

  app.get("/api/imports/:id", options(importBatchDetailSchema, { params: idParams }), async (req) => {
    await importer(req);
    return imports.detail(req.params.id);
  });

  app.post("/api/imports/:id/undo", options(importBatchSchema, { params: idParams }), async (req) => {
    const viewer = await importer(req);
    return imports.undo(viewer, req.params.id);
  });
}

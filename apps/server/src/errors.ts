import { MESSAGES } from "@unheard/shared";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/** Stable error codes of the API, each with its HTTP status. */
const STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  email_not_verified: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  username_taken: 409,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  invalid_token: 400,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const;

/** Code of an AppError. */
export type ErrorCode = keyof typeof STATUS;

/** The one error type the server throws on purpose; the handler maps it to HTTP. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Structured facts the page may use (e.g. which song an upload duplicates). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { fields?: Record<string, string>; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.fields = opts.fields;
    this.headers = opts.headers;
    this.details = opts.details;
  }
}

/**
 * A multipart body the parser could not read (no or bad boundary, cut off, unterminated part): the client's
 * fault. @fastify/busboy throws plain Errors with these messages and no status, which would otherwise be a 500.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Boundary required|The needle cannot .*|.*unexpected end of multipart data)$/i;

/** Fastify's errors raised before routing (a URL that does not decode), in the API's error shape. */
export function frameworkErrorHandler(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  reply.status(400).send({ error: { code: "bad_request", message: err.message || MESSAGES.badRequest } });
}

/** Map any error to `{ error: { code, message } }`; never leaks internals for 5xx. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply
        .status(err.status)
        .send({ error: { code: err.code, message: err.message, fields: err.fields, details: err.details } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
        fields[key] ??= v.message ?? "Invalid value";
      }
      const first = Object.values(fields)[0] ?? MESSAGES.badRequest;
      return reply.status(400).send({ error: { code: "validation_failed", message: first, fields } });
    }
    // SQLite gave up waiting for the write lock: a retryable condition, not a server fault.
    if ((err as { code?: string }).code === "SQLITE_BUSY") {
      return reply
        .status(503)
        .header("retry-after", "1")
        .send({ error: { code: "unavailable", message: MESSAGES.busy } });
    }
    // PostgreSQL refuses a NUL character in text (SQLite stores it): a value the client sent, not a server fault.
    if ((err as { code?: string }).code === "22021") {
      return reply.status(400).send({ error: { code: "bad_request", message: MESSAGES.badRequest } });
    }
    if (typeof err.statusCode !== "number" && MALFORMED_MULTIPART.test(err.message ?? "")) {
      return reply.status(400).send({ error: { code: "bad_request", message: "Malformed multipart body" } });
    }
    const status = typeof err.statusCode === "number" ? err.statusCode : 500;

    if (status >= 500) {
      req.log.error({ err }, "request failed");
      return reply.status(500).send({ error: { code: "internal", message: MESSAGES.internal } });
    }
    // Fastify's own 4xx (malformed JSON, body too large, wrong content type).
    const code =
      status === 413
        ? "payload_too_large"
        : status === 415
          ? "unsupported_media_type"
          : status === 429
            ? "rate_limited"
            : "bad_request";
    const message =
      status === 413
        ? MESSAGES.payloadTooLarge
        : status === 415
          ? MESSAGES.unsupportedMediaType
          : err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError
            ? "Malformed JSON body"
            : err.message || MESSAGES.badRequest;
    return reply.status(status).send({ error: { code, message } });
  });
}

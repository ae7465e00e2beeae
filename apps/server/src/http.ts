import type { IncomingMessage, ServerResponse } from "node:http";
import { MESSAGES } from "@unheard/shared";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "./errors.js";
import type { CachedBody } from "./lib/public-cache.js";

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Request headers as a fetch Headers object, for Better Auth. */
export function webHeaders(req: FastifyRequest): Headers {
  return fromNodeHeaders(req.headers);
}

/** Pass Better Auth's Set-Cookie headers on to the reply. */
export function setCookies(reply: FastifyReply, cookies: string[]): void {
  if (cookies.length > 0) reply.header("set-cookie", cookies);
}

/** Resolve the session user id or refuse with 401. */
export async function requireUserId(
  req: FastifyRequest,
  sessionUserId: (h: Headers) => Promise<string | undefined>,
): Promise<string> {
  const id = await sessionUserId(webHeaders(req));
  if (!id) throw new AppError("unauthorized", MESSAGES.signInRequired);
  return id;
}

/** Visitors' answers may be stored but must be revalidated; the cookie decides who is a visitor. */
export const PUBLIC_CACHE_CONTROL = "public, no-cache";

/**
 * Send a cached public answer (see lib/public-cache.ts) with its stored ETag; buildApp's onSend hook answers
 * 304 when the client holds it already, as it does for every JSON GET.
 */
export function sendPublic(reply: FastifyReply, cached: CachedBody): FastifyReply {
  reply.header("etag", cached.etag).header("cache-control", PUBLIC_CACHE_CONTROL).header("vary", "cookie");
  return reply.type("application/json; charset=utf-8").send(cached.body);
}

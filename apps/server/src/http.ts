import type { IncomingMessage, ServerResponse } from "node:http";
import { MESSAGES } from "@unheard/shared";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "./errors.js";

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

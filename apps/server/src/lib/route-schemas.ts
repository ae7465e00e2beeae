import { errorBodySchema } from "@unheard/shared";
import { type ZodType, z } from "zod";

/** Path parameters of a route on one record: `/…/:id`. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** Query of a cursor-paged list: an opaque cursor and a page size up to `max` (`fallback` when absent). */
export function pageQuery(max = 48, fallback = 24) {
  return z.object({
    cursor: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(max).default(fallback),
  });
}

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503;

/** Response schemas for the error statuses a route may answer with; every error has the same body. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorBodySchema])) as Record<S, typeof errorBodySchema>;
}

/** The parts of a request a route validates. */
type RequestParts = { params?: ZodType; querystring?: ZodType; body?: ZodType };

/**
 * A module's route options maker: every route of the module shares its OpenAPI tags and error answers, and
 * states only what it reads and what it answers on success (`status`, 200 unless given).
 */
export function routeOptions<E extends ErrorStatus>(tags: string[], ...errors: E[]) {
  const failures = errorResponses(...errors);
  return <R extends ZodType, P extends RequestParts = Record<never, never>, S extends 200 | 201 = 200>(
    reply: R,
    parts: P = {} as P,
    status: S = 200 as S,
  ) => ({
    schema: { tags, ...parts, response: { ...failures, [status]: reply } as Record<S, R> & typeof failures },
  });
}

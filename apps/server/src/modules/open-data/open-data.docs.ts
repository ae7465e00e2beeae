import type { SwaggerTransform } from "@fastify/swagger";
import { errorBodySchema, exportSongSchema } from "@unheard/shared";
import { z } from "zod";
import { responseJsonSchema } from "../../lib/serializer.js";

/** The OpenAPI tag of the read-only public API. */
export const OPEN_DATA_TAG = "open data";

const LIMITS =
  "Limited per client address (IPv4 address or IPv6 /64) and server instance: PUBLIC_RATE_LIMIT requests a minute " +
  "(120 by default) over the open data reads, answered 429 with `Retry-After` beyond it; every answer carries " +
  "`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds).";
const CACHING =
  "Without a session cookie the answer is the same for everyone: `Cache-Control: public, no-cache`, `Vary: Cookie` " +
  "and an `ETag`; send it back as `If-None-Match` and an unchanged answer is a bodiless 304. Signed-in answers " +
  "carry the member's own votes and favourites and are `private, no-cache`.";

/** The top-level tag's description in the OpenAPI document. */
export const OPEN_DATA_TAGS = [
  {
    name: OPEN_DATA_TAG,
    description:
      "Read-only public API over verified songs, artists and search, and the full exports of verified songs " +
      `(CSV and JSON). No key needed. ${LIMITS} ${CACHING} The data is the community's: credit Unheard and link the song pages.`,
  },
];

/** Summaries and descriptions of the public routes (method and URL pattern as registered). */
const PUBLIC_ROUTES: Record<string, { summary: string; description: string }> = {
  "/api/songs": {
    summary: "Verified songs: the trending or newest feed",
    description:
      "Pages of verified songs, newest first (`feed=newest`) or by this week's favourites (`feed=trending`), " +
      "filtered by `genre`, `release`, `availability` and `quality`. Follow `nextCursor` (as `cursor`) for the " +
      "next page; `limit` is 1-48.",
  },
  "/api/songs/:id": {
    summary: "A song",
    description:
      "One song with its artists, counts, leak details and versions. Pending songs are visible too (`status`); " +
      "hidden songs are 404.",
  },
  "/api/artists/:id": { summary: "An artist", description: "An artist's profile and counts." },
  "/api/artists/:id/songs": {
    summary: "An artist's songs",
    description: "Pages of the songs crediting an artist, newest first; follow `nextCursor`.",
  },
  "/api/search": {
    summary: "Search songs and artists",
    description:
      "Songs and artists matching `q` (1-100 characters), tolerant of accents and typos; artists on the first page only.",
  },
  "/api/export/songs.csv": {
    summary: "Every verified song as CSV",
    description:
      "RFC 4180 CSV in UTF-8 with a byte order mark and CRLF line ends, one row per verified song in id order, " +
      "streamed. Lists (artists, producers, features) are joined by `; `. Text cells starting with `=`, `+`, `-`, " +
      "`@`, a tab or a carriage return get a leading `'` so spreadsheets do not run them as formulas. " +
      "`Cache-Control: public, max-age=300`. Limited to EXPORT_RATE_LIMIT downloads a minute per client address " +
      "(10 by default).",
  },
  "/api/export/songs.json": {
    summary: "Every verified song as JSON",
    description:
      "One JSON array of every verified song in id order (the items of the schema below), streamed element by " +
      "element. `Cache-Control: public, max-age=300`. Limited to EXPORT_RATE_LIMIT downloads a minute per client " +
      "address (10 by default).",
  },
};

const rateLimited = { description: "Too many requests from this address", ...responseJsonSchema(errorBodySchema) };

/** The exports' bodies (streamed, so their routes declare no 200 schema for the serialiser). */
const EXPORT_BODIES: Record<string, Record<string, unknown>> = {
  "/api/export/songs.csv": {
    description: "The CSV file (header row first)",
    content: { "text/csv": { schema: { type: "string" } } },
  },
  "/api/export/songs.json": {
    description: "The JSON array of every verified song",
    content: { "application/json": { schema: responseJsonSchema(z.array(exportSongSchema)) } },
  },
};

/**
 * The document's transform with the public routes tagged, summarised and described. The routes stay in their
 * own modules (and tags); this adds the open data view over them without touching each one.
 */
export function documentOpenData(transform: SwaggerTransform): SwaggerTransform {
  return (input) => {
    const out = transform(input);
    const doc = PUBLIC_ROUTES[input.url];
    if (!doc || ![input.route.method].flat().includes("GET")) return out;
    const schema = out.schema as Record<string, unknown> & { tags?: string[]; response?: Record<string, unknown> };
    return {
      ...out,
      schema: {
        ...schema,
        ...doc,
        tags: [OPEN_DATA_TAG, ...(schema.tags ?? [])],
        response: {
          ...schema.response,
          ...(EXPORT_BODIES[input.url] ? { 200: EXPORT_BODIES[input.url] } : {}),
          429: rateLimited,
        },
      },
    };
  };
}

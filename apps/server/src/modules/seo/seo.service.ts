// What search engines read besides the pages (issue 28, "Findable"): robots.txt, and the sitemaps of every page a
// visitor may see: the static pages, every public song (visibility.ts: verified and not hidden) and every artist
// with one. Pending and hidden songs are never listed.
import { PAGE_ROUTES, type PageRoute } from "@unheard/shared";
import { toIso } from "../../lib/time.js";
import { escapeXml } from "../covers/covers.service.js";
import { isPublic } from "../songs/visibility.js";
import type { SeoRepo } from "./seo.repo.js";

/** URLs per sitemap file: the sitemaps protocol's bound (50,000 URLs, and 50 MB, which this stays far under). */
export const SITEMAP_PAGE_SIZE = 50_000;
/** Rows read per query while a sitemap file is written: each chunk of text stays well under 128 KB. */
const READ_CHUNK = 500;

/** The pages crawlers are welcome on; every other page of PAGE_ROUTES (member and admin pages) is disallowed. */
export const CRAWLED_PAGES: readonly PageRoute[] = ["home", "landing", "about", "developers", "song", "artist"];
/** The pages without parameters that the sitemap lists. */
export const STATIC_PAGES = ["/", "/about", "/landing", "/developers"] as const;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** A sitemap file's name: the static pages, or a numbered block of songs or artists. */
const FILE_NAME = /^(?:pages|(songs|artists)-([1-9]\d{0,8}))\.xml$/;

/** A timestamp as the sitemap's <lastmod> (W3C datetime, to the second). */
function lastmod(at: string | Date | null | undefined): string | null {
  const iso = toIso(at);
  return iso ? iso.replace(/\.\d+Z$/, "Z") : null;
}

/** One <url> entry; the location is escaped (an id may hold an apostrophe, which no URL encoding changes). */
function urlEntry(loc: string, modified: string | null): string {
  return `<url><loc>${escapeXml(loc)}</loc>${modified ? `<lastmod>${modified}</lastmod>` : ""}</url>\n`;
}

/** A page pattern as a robots.txt path: parameters become `*` ("songs/:id/edit" is "/songs/*\/edit"). */
function robotsPath(pattern: string): string {
  return `/${pattern
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "*" : segment))
    .join("/")}`;
}

/** robots.txt: every page but the member and admin ones, no API but the songs' covers, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  const crawled = new Set<string>(CRAWLED_PAGES);
  const disallowed = [
    ...new Set(
      (Object.entries(PAGE_ROUTES) as [PageRoute, string][])
        .filter(([route]) => !crawled.has(route))
        .map(([, pattern]) => robotsPath(pattern)),
    ),
  ].sort();
  return [
    "User-agent: *",
    "Allow: /",
    // The longest matching rule wins (RFC 9309): the covers are open although the rest of the API is not.
    "Allow: /api/songs/*/cover.svg",
    "Disallow: /api/",
    ...disallowed.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** The sitemaps (the index and its files) and robots.txt. */
export function createSeoService(deps: {
  repo: SeoRepo;
  publicUrl: string;
  /** URLs per sitemap file at most (tests make it small to cross the paging). */
  pageSize?: number;
  /** Rows per query while a file is written. */
  readChunk?: number;
}) {
  const { repo, publicUrl } = deps;
  const pageSize = deps.pageSize ?? SITEMAP_PAGE_SIZE;
  const readChunk = Math.min(deps.readChunk ?? READ_CHUNK, pageSize);
  const fileUrl = (name: string) => `${publicUrl}/sitemaps/${name}`;
  const pages = (count: number) => Math.max(1, Math.ceil(count / pageSize));

  /**
   * The entries of one block of `pageSize` ids (songs or artists, public or not) from `start`, read by keyset a
   * chunk at a time: the file lists the visible ones, so it never holds more than `pageSize` URLs.
   */
  async function* entries(kind: "songs" | "artists", start: string): AsyncGenerator<string> {
    let position: { from: string } | { after: string } = { from: start };
    for (let read = 0; read < pageSize; ) {
      const want = Math.min(readChunk, pageSize - read);
      let last: string | undefined;
      let count: number;
      if (kind === "songs") {
        const rows = await repo.songsFrom(position, want);
        count = rows.length;
        last = rows.at(-1)?.id;
        const text = rows
          .filter(isPublic)
          .map((r) => urlEntry(`${publicUrl}/song/${encodeURIComponent(r.id)}`, lastmod(r.updated_at)))
          .join("");
        if (text) yield text;
      } else {
        const rows = await repo.artistsFrom(position, want);
        count = rows.length;
        last = rows.at(-1)?.id;
        const text = rows
          // An artist page is listed once it has a public song: what it shows visitors is then more than a name
          // (which may come from a pending upload's credits).
          .filter((r) => r.songs_updated_at !== null && r.songs_updated_at !== undefined)
          .map((r) => {
            const songs = lastmod(r.songs_updated_at);
            const own = lastmod(r.updated_at);
            const latest = songs && own ? (songs > own ? songs : own) : (songs ?? own);
            return urlEntry(`${publicUrl}/artists/${encodeURIComponent(r.id)}`, latest);
          })
          .join("");
        if (text) yield text;
      }
      read += count;
      if (count < want || last === undefined) return;
      position = { after: last };
    }
  }

  async function* urlset(body: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
    yield `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n`;
    yield* body;
    yield "</urlset>\n";
  }

  return {
    robots: () => robotsTxt(publicUrl),

    /** The sitemap index: the static pages' file, then every block of songs and of artists. */
    async index(): Promise<string> {
      const [songs, artists] = await Promise.all([repo.songCount(), repo.artistCount()]);
      const names = [
        "pages.xml",
        ...Array.from({ length: pages(songs) }, (_, i) => `songs-${i + 1}.xml`),
        ...Array.from({ length: pages(artists) }, (_, i) => `artists-${i + 1}.xml`),
      ];
      return [
        `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n`,
        ...names.map((name) => `<sitemap><loc>${escapeXml(fileUrl(name))}</loc></sitemap>\n`),
        "</sitemapindex>\n",
      ].join("");
    },

    /**
     * One sitemap file in chunks of text, or undefined when there is no such file (an unknown name, a block past
     * the end). The first block of songs and of artists always exists, empty in an empty catalogue.
     */
    async file(name: string): Promise<AsyncGenerator<string> | undefined> {
      const m = FILE_NAME.exec(name);
      if (!m) return undefined;
      const [, kind, page] = m;
      if (kind !== "songs" && kind !== "artists")
        return urlset(STATIC_PAGES.map((p) => urlEntry(`${publicUrl}${p}`, null)));
      const offset = (Number(page) - 1) * pageSize;
      const start = await (kind === "songs" ? repo.songIdAt(offset) : repo.artistIdAt(offset));
      if (start === undefined) return offset === 0 ? urlset([]) : undefined;
      return urlset(entries(kind, start));
    },
  };
}

/** The SEO service type. */
export type SeoService = ReturnType<typeof createSeoService>;

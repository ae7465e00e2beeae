// The head of a server-rendered page (issue 28, "Findable"): its title, description, canonical URL, Open Graph and
// Twitter tags and schema.org structured data (JSON-LD), for song, artist, era, home, search and the static pages.
// A visitor's head: pending and hidden songs have none (visibility.ts), so nothing of them reaches the HTML.
import { GENRES, isSafeLink, type PageMatch, type PageRoute } from "@unheard/shared";
import type { Database } from "../../db/database.js";
import { nameKey } from "../../lib/text.js";
import { coverUrl } from "../covers/covers.service.js";
import { names } from "../songs/leak-details.js";
import { isPublic } from "../songs/visibility.js";
import { createSeoRepo, creditsOf, type SeoRepo, type SeoSongRow } from "./seo.repo.js";

/** What a page's <head> says of it (rendered by renderHeadTags). */
export type PageHead = {
  /** The document title; also og:title and twitter:title. */
  title: string;
  description: string;
  /** The page's one URL (absolute): views and filters that show the same thing point here. */
  canonical: string;
  /** Open Graph type: website, music.song, music.album, profile. */
  ogType: string;
  /** The robots meta tag ("noindex, follow"), when the page should stay out of search results. */
  robots?: string;
  /** An absolute image URL (og:image, twitter:image) and its description. */
  image?: { url: string; alt: string };
  /** More Open Graph properties in order (music:duration, music:musician, og:audio...). */
  og: [property: string, content: string][];
  twitterCard: "summary" | "summary_large_image";
  /** schema.org objects, one <script type="application/ld+json"> each. */
  jsonLd: Record<string, unknown>[];
  /** Feeds of the page (issue 37: its changelog as Atom), as <link rel="alternate"> for feed readers to find. */
  feeds?: { title: string; href: string }[];
  /** The page's route: injectHead preloads its screen's files (issue 38), as the web build listed them. */
  route?: PageRoute;
};

const SITE_NAME = "Unheard";
const SCHEMA = "https://schema.org";
/** Songs an artist page's structured data names (its newest); the rest are counted. */
const ARTIST_TRACKS = 10;
/** Songs an era's structured data names, in the tracker's order; the rest are counted. */
const ERA_TRACKS = 100;
/** Descriptions are cut to what search results show, at a word. */
const DESCRIPTION_MAX = 300;
/** The longest search query a head repeats (the search API's own bound). */
const QUERY_MAX = 100;

/**
 * The query parameter of an era on an artist page: `/artists/<id>?era=<name>` shows the tracker's eras view
 * (the default view, so `view` is left out; `view=eras` means the same) with that era selected.
 */
export const ERA_PARAM = "era";

/** Text on one line, cut at a word to at most `max` characters. */
function oneLine(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Seconds as an ISO 8601 duration (PT3M25S, PT1H2M). */
export function isoDuration(totalSec: number): string {
  const sec = Math.round(totalSec);
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s || (!h && !m) ? `${s}S` : ""}`;
}

/** The length of a song: its audio's when it has audio, else what the tracker says; null when unknown. */
function durationOf(row: Pick<SeoSongRow, "audio_key" | "duration_sec" | "track_length">): number | null {
  const audio = row.audio_key ? Number(row.duration_sec ?? 0) : 0;
  if (audio > 0) return audio;
  const length = Number(row.track_length ?? 0);
  return length > 0 ? length : null;
}

const genreOf = (genre: string) => ((GENRES as readonly string[]).includes(genre) ? genre : "Other");

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** HTML text and attribute values: markup characters escaped. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/**
 * JSON for a <script> element: `<`, `>` and `&` as \u escapes, so no text in it (a title holding `</script>` or
 * `<!--`) can end the element or change how the HTML parser reads it; U+2028/2029 escaped as well.
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The tags of a head, one per line: title, description, robots, canonical, Open Graph, Twitter, JSON-LD. */
export function renderHeadTags(head: PageHead): string {
  const meta = (attr: "name" | "property", key: string, content: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    meta("name", "description", head.description),
    ...(head.robots ? [meta("name", "robots", head.robots)] : []),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    ...(head.feeds ?? []).map(
      (f) =>
        `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(f.title)}" href="${escapeHtml(f.href)}" />`,
    ),
    meta("property", "og:site_name", SITE_NAME),
    meta("property", "og:type", head.ogType),
    meta("property", "og:title", head.title),
    meta("property", "og:description", head.description),
    meta("property", "og:url", head.canonical),
    ...(head.image
      ? [meta("property", "og:image", head.image.url), meta("property", "og:image:alt", head.image.alt)]
      : []),
    ...head.og.map(([property, content]) => meta("property", property, content)),
    meta("name", "twitter:card", head.twitterCard),
    meta("name", "twitter:title", head.title),
    meta("name", "twitter:description", head.description),
    ...(head.image
      ? [meta("name", "twitter:image", head.image.url), meta("name", "twitter:image:alt", head.image.alt)]
      : []),
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${jsonLdText(data)}</script>`),
  ].join("\n    ");
}

/**
 * The comment the web build leaves in index.html (apps/web/src/build/route-chunks.ts): for each page route, the files
 * its screen needs beyond what the app's entry loads, as places in a list of files.
 */
const ROUTE_CHUNKS = /[ \t]*<!--unheard:route-chunks (\{[^>]*\})-->\r?\n?/;

/** The build's `{ files, routes }` as each route's files; anything else as none. */
function readRouteChunks(text: string): Record<string, string[]> {
  try {
    const { files, routes } = JSON.parse(text) as { files?: unknown; routes?: unknown };
    if (!Array.isArray(files) || !routes || typeof routes !== "object") return {};
    return Object.fromEntries(
      Object.entries(routes).map(([route, places]) => [
        route,
        (Array.isArray(places) ? places : []).map((i) => files[Number(i)]).filter((f) => typeof f === "string"),
      ]),
    );
  } catch {
    // A build that wrote something else: no preloads, the page works as before.
    return {};
  }
}

/** A public asset path as the build writes them: `/assets/name-hash.js`, nothing a tag could be broken with. */
const ASSET_PATH = /^\/[\w./-]+\.js$/;

let lastTemplate: { html: string; chunks: Record<string, string[]> } | undefined;

/** The build's list of route files in index.html (none without a build's list, or an unreadable one). */
export function routeChunksOf(html: string): { chunks: Record<string, string[]> } {
  if (lastTemplate?.html === html) return lastTemplate;
  const found = ROUTE_CHUNKS.exec(html);
  lastTemplate = { html, chunks: found?.[1] ? readRouteChunks(found[1]) : {} };
  return lastTemplate;
}

/**
 * The <link rel="modulepreload"> tags of a page's screen (issue 38): without them the browser learned of the
 * screen's files only once the app's entry had loaded and run, one round trip after another before a press worked.
 */
export function preloadTags(chunks: Record<string, string[]>, route: PageRoute | undefined): string[] {
  const files = route && Array.isArray(chunks[route]) ? chunks[route] : [];
  return files
    .filter((f) => typeof f === "string" && ASSET_PATH.test(f))
    .map((f) => `<link rel="modulepreload" crossorigin href="${escapeHtml(f)}" />`);
}

/**
 * index.html with the page's head: its <title> replaced by the head's tags, its generic description dropped, and
 * the build's list of route files replaced by the page's screen's modulepreload links. The list sits after the app's
 * entry and the entry's own preloads, so the screen's files are asked for right after them, long before the entry
 * has run, without holding the entry up (ahead of it they delayed it by ~0.6 s on a throttled phone). Replaced by
 * a function, not a string: a string replacement would expand "$'", "$`" and "$&" in a song's title into pieces of
 * the page (e2e/xss.spec.ts).
 */
export function injectHead(html: string, head: PageHead): string {
  const preloads = preloadTags(routeChunksOf(html).chunks, head.route);
  return html
    .replace(ROUTE_CHUNKS, () => (preloads.length > 0 ? `    ${preloads.join("\n    ")}\n` : ""))
    .replace(/[ \t]*<meta name="description"[^>]*>\r?\n?/g, () => "")
    .replace(/<title>[^<]*<\/title>/, () => renderHeadTags(head));
}

/** The heads of the pages, built from the database as visitors see it. */
export function createPageHeads(
  deps: { database: Database; publicUrl: string } | { repo: SeoRepo; publicUrl: string },
) {
  const repo = "repo" in deps ? deps.repo : createSeoRepo(deps.database);
  const { publicUrl } = deps;
  const songUrl = (id: string) => `${publicUrl}/song/${encodeURIComponent(id)}`;
  const artistUrl = (id: string) => `${publicUrl}/artists/${encodeURIComponent(id)}`;
  const eraUrl = (artistId: string, era: string) => `${artistUrl(artistId)}?${ERA_PARAM}=${encodeURIComponent(era)}`;
  const coverOf = (row: Pick<SeoSongRow, "id" | "title" | "credits">) =>
    `${publicUrl}${coverUrl(
      row.id,
      row.title,
      creditsOf(row.credits).map((a) => a.name),
    )}`;
  const group = (a: { id: string; name: string }) => ({ "@type": "MusicGroup", name: a.name, url: artistUrl(a.id) });
  /** An artist's changelog as Atom (issue 37), offered on their page and their eras' pages. */
  const artistFeed = (a: { id: string; name: string }) => ({
    title: `${a.name}: tracker updates`,
    href: `${publicUrl}/api/artists/${encodeURIComponent(a.id)}/changes.atom`,
  });

  /** A song as a schema.org MusicRecording (the short form lists of tracks use, or the song page's full one). */
  function recording(row: SeoSongRow, full = false): Record<string, unknown> {
    const duration = durationOf(row);
    const base: Record<string, unknown> = {
      "@type": "MusicRecording",
      name: row.title,
      url: songUrl(row.id),
      ...(duration ? { duration: isoDuration(duration) } : {}),
      ...(row.leak_date ? { datePublished: row.leak_date } : {}),
    };
    if (!full) return base;
    const artists = creditsOf(row.credits);
    const first = artists[0];
    const producers = names(row.producers);
    const aliases = names(row.aliases);
    return {
      "@context": SCHEMA,
      "@type": "MusicRecording",
      "@id": songUrl(row.id),
      ...base,
      byArtist: artists.map(group),
      ...(row.file_date ? { dateCreated: row.file_date } : {}),
      ...(row.era && first
        ? { inAlbum: { "@type": "MusicAlbum", name: row.era, url: eraUrl(first.id, row.era), byArtist: group(first) } }
        : {}),
      genre: genreOf(row.genre),
      image: coverOf(row),
      ...(aliases.length > 0 ? { alternateName: aliases } : {}),
      ...(producers.length > 0 ? { producer: producers.map((name) => ({ "@type": "Person", name })) } : {}),
    };
  }

  async function songHead(id: string): Promise<PageHead | undefined> {
    const row = await repo.song(id);
    // Pending and hidden songs have no head: the page is served as it always was, and says nothing of them.
    if (!row || !isPublic(row)) return undefined;
    const artists = creditsOf(row.credits);
    const byline = artists.map((a) => a.name).join(", ");
    const features = names(row.features);
    const duration = durationOf(row);
    const description = oneLine(
      [
        `${row.title}${byline ? ` by ${byline}` : ""}${features.length > 0 ? ` (feat. ${features.join(", ")})` : ""}`,
        row.era ? `, from the ${row.era}${/\bera$/i.test(row.era) ? "" : " era"}` : "",
        `. ${genreOf(row.genre)}`,
        row.leak_date ? `, leaked ${row.leak_date}` : "",
        ", verified on Unheard, the home of unreleased music.",
      ].join(""),
    );
    const ld = { ...recording(row, true), description };
    const first = artists[0];
    return {
      title: [row.title, byline, SITE_NAME].filter(Boolean).join(" · "),
      description,
      canonical: songUrl(row.id),
      ogType: "music.song",
      image: { url: coverOf(row), alt: `Cover art of ${row.title}` },
      og: [
        ...(duration ? [["music:duration", String(Math.round(duration))] as [string, string]] : []),
        ...artists.map((a): [string, string] => ["music:musician", artistUrl(a.id)]),
        ...(row.era && first ? [["music:album", eraUrl(first.id, row.era)] as [string, string]] : []),
        ...(row.audio_key
          ? [["og:audio", `${publicUrl}/api/songs/${encodeURIComponent(row.id)}/audio`] as [string, string]]
          : []),
      ],
      twitterCard: "summary",
      jsonLd: [ld],
    };
  }

  async function artistHead(id: string, eraParam: string | null): Promise<PageHead | undefined> {
    const artist = await repo.artist(id);
    if (!artist) return undefined;
    if (eraParam) {
      const key = nameKey(eraParam);
      const era = (await repo.eraNamesOf(id)).find((name) => nameKey(name) === key);
      if (era) return eraHead({ id: artist.id, name: artist.username }, era);
      // An era the artist's public songs do not have: the artist's own page (its canonical URL says so).
    }
    const [counts, newest] = await Promise.all([repo.artistCounts(id), repo.newestSongsOf(id, ARTIST_TRACKS)]);
    const name = artist.username;
    const url = artistUrl(id);
    const description = oneLine(
      artist.bio.trim() ||
        (counts.songs > 0
          ? `${plural(counts.songs, "unreleased song")} by ${name}${counts.eras > 0 ? ` across ${plural(counts.eras, "era")}` : ""}: leaks, snippets and eras, verified on Unheard.`
          : `${name} on Unheard, the home of unreleased music.`),
    );
    const latest = newest[0];
    const image = isSafeLink(artist.image)
      ? { url: artist.image, alt: name }
      : latest
        ? { url: coverOf(latest), alt: `Cover art of ${latest.title}` }
        : undefined;
    const sameAs = [artist.instagram, artist.twitter, artist.website].filter(isSafeLink);
    return {
      title: `${name} · ${SITE_NAME}`,
      description,
      canonical: url,
      ogType: "profile",
      // A page with no public song says no more than a name, which may come from a pending upload's credits.
      ...(counts.songs === 0 ? { robots: "noindex, follow" } : {}),
      ...(image ? { image } : {}),
      og: [["profile:username", name]],
      twitterCard: "summary",
      feeds: [artistFeed({ id, name })],
      jsonLd: [
        {
          "@context": SCHEMA,
          "@type": "MusicGroup",
          "@id": url,
          name,
          url,
          description,
          ...(image ? { image: image.url } : {}),
          ...(sameAs.length > 0 ? { sameAs } : {}),
          track: {
            "@type": "ItemList",
            numberOfItems: counts.songs,
            itemListElement: newest.map((s, i) => ({ "@type": "ListItem", position: i + 1, item: recording(s) })),
          },
        },
      ],
    };
  }

  async function eraHead(artist: { id: string; name: string }, era: string): Promise<PageHead> {
    const [songs, count, said] = await Promise.all([
      repo.eraSongsOf(artist.id, era, ERA_TRACKS),
      repo.eraSongCount(artist.id, era),
      repo.era(artist.id, nameKey(era)),
    ]);
    const url = eraUrl(artist.id, era);
    const leaks = songs
      .map((s) => s.leak_date)
      .filter((d): d is string => Boolean(d))
      .sort();
    const from = said?.starts_on ?? leaks[0] ?? null;
    const to = said?.ends_on ?? leaks.at(-1) ?? null;
    const span = from && to ? (from === to ? from : `${from} to ${to}`) : (from ?? to);
    const description = oneLine(
      said?.description?.trim() ||
        `${era}, an era of ${artist.name}: ${plural(count, "unreleased song")}${span ? ` (${span})` : ""}, verified on Unheard.`,
    );
    const first = songs[0];
    const image = isSafeLink(said?.cover_url)
      ? { url: said.cover_url, alt: `${era} — ${artist.name}` }
      : first
        ? { url: coverOf(first), alt: `Cover art of ${first.title}` }
        : undefined;
    return {
      title: `${era} — ${artist.name} · ${SITE_NAME}`,
      description,
      canonical: url,
      ogType: "music.album",
      ...(image ? { image } : {}),
      og: [
        ["music:musician", artistUrl(artist.id)],
        ...songs.slice(0, ARTIST_TRACKS).map((s): [string, string] => ["music:song", songUrl(s.id)]),
      ],
      twitterCard: "summary",
      feeds: [artistFeed(artist)],
      jsonLd: [
        {
          "@context": SCHEMA,
          "@type": "MusicAlbum",
          "@id": url,
          name: era,
          url,
          description,
          byArtist: group(artist),
          numTracks: count,
          ...(image ? { image: image.url } : {}),
          track: songs.map((s) => recording(s)),
        },
      ],
    };
  }

  /** A head for the pages without data of their own. */
  const plain = (path: string, title: string, description: string, jsonLd: Record<string, unknown>[] = []) => ({
    title,
    description,
    canonical: `${publicUrl}${path}`,
    ogType: "website",
    og: [],
    twitterCard: "summary" as const,
    jsonLd,
  });

  /** A page's head without its route (headFor adds it). */
  async function headOf(match: PageMatch, search: URLSearchParams): Promise<PageHead | undefined> {
    switch (match.route) {
      case "song":
        return songHead(match.params.id ?? "");
      case "artist": {
        const view = search.get("view");
        return artistHead(match.params.artistId ?? "", view === null || view === "eras" ? search.get(ERA_PARAM) : null);
      }
      case "home": {
        const q = (search.get("q") ?? "").trim().slice(0, QUERY_MAX);
        // Search results are many pages of one list, and the songs have their own pages: kept out of the index.
        if (q)
          return {
            ...plain(
              `/?q=${encodeURIComponent(q)}`,
              `Search: ${q} · ${SITE_NAME}`,
              `Unreleased songs and artists matching “${q}” on Unheard.`,
            ),
            robots: "noindex, follow",
          };
        return plain(
          "/",
          `${SITE_NAME} · Unreleased songs, verified by fans`,
          "Discover, track and verify unreleased songs with the Unheard community: leaks, snippets and eras of every artist.",
          [
            {
              "@context": SCHEMA,
              "@type": "WebSite",
              name: SITE_NAME,
              url: `${publicUrl}/`,
              potentialAction: {
                "@type": "SearchAction",
                target: { "@type": "EntryPoint", urlTemplate: `${publicUrl}/?q={search_term_string}` },
                "query-input": "required name=search_term_string",
              },
            },
          ],
        );
      }
      case "about":
        return plain(
          "/about",
          `About · ${SITE_NAME}`,
          "A community for music that hasn't dropped yet: what Unheard is, how songs get verified and how to join.",
        );
      case "landing":
        return plain(
          "/landing",
          `Early Access · ${SITE_NAME}`,
          "Hear what hasn't dropped yet. Join the Unheard waitlist for early access to the community of unreleased music.",
        );
      case "changes":
        return {
          ...plain(
            "/changes",
            `Recent changes · ${SITE_NAME}`,
            "New songs, upgrades and removals in every artist's tracker on Unheard, newest first: the community's changelog.",
          ),
          feeds: [{ title: "Recent changes on Unheard", href: `${publicUrl}/api/changes.atom` }],
        };
      case "developers":
        return plain(
          "/developers",
          `Developers · ${SITE_NAME}`,
          "Open data: every verified song on Unheard, free to download and to query. No key needed.",
        );
      default:
        return undefined;
    }
  }

  return {
    /**
     * The head of a page as a visitor sees it, or undefined when the page has none of its own (member and admin
     * pages, a missing artist, a song that is not public: the page is then served as it always was).
     */
    async headFor(match: PageMatch, search: URLSearchParams): Promise<PageHead | undefined> {
      const head = await headOf(match, search);
      // The route, for the screen's preloads (injectHead).
      return head && { ...head, route: match.route };
    },
  };
}

/** The page heads type. */
export type PageHeads = ReturnType<typeof createPageHeads>;

import { EXPORT_CSV_COLUMNS, PUBLIC_API_LIMITS } from "@unheard/shared";
import { BookOpen, Download, FileJson, FileSpreadsheet, Gauge, Scale, TerminalSquare } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClass } from "../../ui/button";
import { IconSection } from "../../ui/icon-section";
import { PageHeader } from "../../ui/page";

/** The read-only routes third parties may call, with what each answers. */
const ENDPOINTS: { path: string; what: string }[] = [
  { path: "/api/songs?feed=newest", what: "Verified songs, newest first (feed=trending: this week's favourites)" },
  { path: "/api/songs/{id}", what: "One song: artists, counts, leak details, versions" },
  { path: "/api/artists/{id}", what: "An artist's profile" },
  { path: "/api/artists/{id}/songs", what: "An artist's songs, newest first" },
  { path: "/api/search?q=midnight", what: "Songs and artists matching a query, typos forgiven" },
  { path: "/api/export/songs.csv", what: "Every verified song as CSV" },
  { path: "/api/export/songs.json", what: "Every verified song as one JSON array" },
];

const EXAMPLE_ITEM = `{
  "id": "k3x9q2m8w1v7b4n6",
  "title": "Midnight Circuit",
  "artists": [{ "id": "a7f2c9d1e5b8h3j0", "name": "Nova Lane" }],
  "genre": "Electronic",
  "releaseDate": null,
  "soundcloudUrl": null,
  "verifiedAt": "2025-03-02T18:04:11.000Z",
  "upvotes": 14,
  "downvotes": 1,
  "favoriteCount": 52,
  "era": "Neon Era",
  "producers": ["Kilo Park"],
  "features": [],
  "leakDate": "2025-02-27",
  "availability": "full",
  "quality": "high",
  "notes": null,
  "versionOf": null,
  "versionKind": null,
  "url": "https://unheard.example/song/k3x9q2m8w1v7b4n6",
  "createdAt": "2025-02-28T09:12:40.000Z"
}`;

/**
 * A block of code that scrolls sideways on narrow screens instead of widening the page. It takes focus, so a keyboard
 * can scroll it too (WCAG 2.1.1), and is a region named `label`, so a screen reader says what has focus.
 */
function Code({ label, children }: { label: string; children: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled
      tabIndex={0}
      className="overflow-x-auto rounded-xl border border-white/[0.06] bg-black/40 p-4"
    >
      <pre className="font-mono text-xs leading-relaxed text-zinc-200">
        <code>{children}</code>
      </pre>
    </section>
  );
}

/** Inline code. */
function C({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-white/[0.06] px-1.5 py-0.5 font-mono text-[0.8125rem] text-zinc-100">{children}</code>
  );
}

/** /developers: the open data exports, the public API with examples, its limits and caching, attribution. */
export function DevelopersPage() {
  const origin = window.location.origin;
  return (
    <>
      <PageHeader
        title="Developers"
        subtitle="Open data: every verified song, free to download and to query. No key needed."
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <IconSection icon={Download} tint="text-violet-300" title="Download the catalogue">
          <p>
            Every verified song in one file, generated on request and streamed, so it is always current. Pending and
            hidden songs are left out.
          </p>
          <div className="flex flex-wrap gap-2">
            <a href="/api/export/songs.csv" download className={buttonClass("primary")}>
              <FileSpreadsheet aria-hidden className="size-4" />
              Download CSV
            </a>
            <a href="/api/export/songs.json" download className={buttonClass("secondary")}>
              <FileJson aria-hidden className="size-4" />
              Download JSON
            </a>
          </div>
          <p>
            The CSV is UTF-8 (with a byte order mark, so spreadsheets read accents correctly), one row per song, lists
            joined by <C>; </C>. Text that starts with <C>=</C>, <C>+</C>, <C>-</C> or <C>@</C> gets a leading <C>'</C>{" "}
            so spreadsheets show it instead of running it as a formula. Its columns:
          </p>
          <p className="font-mono text-xs leading-relaxed break-words text-zinc-400">{EXPORT_CSV_COLUMNS.join(", ")}</p>
        </IconSection>

        <IconSection icon={Gauge} tint="text-amber-300" title="Limits and caching">
          <ul className="flex list-disc flex-col gap-1.5 pl-5 marker:text-zinc-600">
            <li>
              <strong className="text-zinc-100">{PUBLIC_API_LIMITS.readsPerMinute} requests a minute</strong> per
              address over the API's reads, and{" "}
              <strong className="text-zinc-100">{PUBLIC_API_LIMITS.exportsPerMinute} export downloads a minute</strong>.
              An IPv6 network counts as one address per /64.
            </li>
            <li>
              Past the limit the answer is <C>429</C> with <C>Retry-After</C> (seconds). Every answer carries{" "}
              <C>RateLimit-Limit</C>, <C>RateLimit-Remaining</C> and <C>RateLimit-Reset</C>.
            </li>
            <li>
              Answers without a session cookie are <C>Cache-Control: public, no-cache</C> with an <C>ETag</C>: send it
              back as <C>If-None-Match</C> and an unchanged answer is an empty <C>304</C>.
            </li>
            <li>
              Exports are <C>public, max-age=300</C>: download at most every five minutes, and prefer them to paging
              through the whole API.
            </li>
          </ul>
        </IconSection>

        <IconSection wide icon={TerminalSquare} tint="text-emerald-300" title="Public API">
          <p>
            Read-only JSON over HTTPS. Lists are paged: pass the answer's <C>nextCursor</C> as <C>cursor</C>.
          </p>
          <ul className="flex flex-col divide-y divide-white/[0.06] rounded-xl border border-white/[0.06]">
            {ENDPOINTS.map((e) => (
              <li key={e.path} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
                <span className="flex min-w-0 items-baseline gap-2 sm:w-80 sm:shrink-0">
                  <span className="rounded-md bg-emerald-500/15 px-1.5 py-0.5 font-mono text-[0.6875rem] font-semibold text-emerald-300">
                    GET
                  </span>
                  <span className="min-w-0 font-mono text-xs break-all text-zinc-100">{e.path}</span>
                </span>
                <span className="text-zinc-400">{e.what}</span>
              </li>
            ))}
          </ul>
          <div className="grid min-w-0 gap-4 lg:grid-cols-2">
            <div className="flex min-w-0 flex-col gap-2">
              <h3 className="font-medium text-zinc-100">Examples</h3>
              <Code label="Examples">
                {`# The newest verified songs, 10 at a time
curl '${origin}/api/songs?feed=newest&limit=10'

# Search songs and artists
curl '${origin}/api/search?q=midnight'

# Everything, as CSV
curl -o songs.csv '${origin}/api/export/songs.csv'

# Only when it changed
curl -H 'If-None-Match: W/"<etag>"' '${origin}/api/songs/<id>'`}
              </Code>
            </div>
            <div className="flex min-w-0 flex-col gap-2">
              <h3 className="font-medium text-zinc-100">One song in the JSON export</h3>
              <Code label="One song in the JSON export">{EXAMPLE_ITEM}</Code>
            </div>
          </div>
          <p>
            <a href="/api/docs" className={buttonClass("link")}>
              <BookOpen aria-hidden className="size-4" />
              Full reference (OpenAPI)
            </a>{" "}
            lists every parameter and field; the public routes are under{" "}
            <strong className="text-zinc-100">open data</strong>.
          </p>
        </IconSection>

        <IconSection wide icon={Scale} tint="text-sky-300" title="Using the data">
          <p>
            Titles, credits, dates and leak details are facts gathered and verified by the community. Use them in
            trackers, bots, research or anything else, and credit them as{" "}
            <strong className="text-zinc-100">“Data from Unheard”</strong> with a link to the song's page (every record
            carries its <C>url</C>). The audio is not part of the open data: it belongs to its rights holders.
          </p>
        </IconSection>
      </div>
    </>
  );
}

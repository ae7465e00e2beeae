import type { ArtistHit } from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck } from "lucide-react";
import { Link } from "react-router";
import { plural } from "../../lib/format";
import { ArtistAvatar } from "./artist-avatar";

/** An artist search hit; the count, badge and initial are optional so older search answers render too. */
export type ArtistResult = Pick<ArtistHit, "id" | "name"> &
  Partial<Pick<ArtistHit, "initial" | "trackCount" | "isVerified">>;

/** Matching artists above the songs in 'Search Results': avatar initial, name, verified badge, track count. */
export function ArtistResults({ artists, className }: { artists: readonly ArtistResult[]; className?: string }) {
  if (artists.length === 0) return null;
  return (
    <section aria-labelledby="artist-results-heading" className={clsx("mb-6 flex flex-col gap-3", className)}>
      <h2 id="artist-results-heading" className="text-sm font-semibold uppercase tracking-[0.14em] text-zinc-500">
        Artists
      </h2>
      {/* One scrolling row on phones, so songs stay near the top; it wraps on wider screens. */}
      <ul className="-mx-4 flex gap-3 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
        {artists.map((a) => (
          <li key={a.id} className="shrink-0">
            <Link
              to={`/artists/${encodeURIComponent(a.id)}`}
              data-artist-id={a.id}
              className="flex w-56 items-center gap-3 rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-3 pr-4 transition-colors hover:border-white/15 hover:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-violet-400"
            >
              <ArtistAvatar name={a.name} initial={a.initial} size="sm" />
              <span className="flex min-w-0 flex-col">
                <span className="flex min-w-0 items-center gap-1 font-medium text-zinc-100">
                  <span className="truncate">{a.name}</span>
                  {a.isVerified ? (
                    <>
                      <BadgeCheck aria-hidden className="size-4 shrink-0 text-violet-300" />
                      <span className="sr-only">(verified)</span>
                    </>
                  ) : null}
                </span>
                <span className="text-xs text-zinc-400">
                  {typeof a.trackCount === "number" ? plural(a.trackCount, "track") : "Artist"}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

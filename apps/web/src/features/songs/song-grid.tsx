import type { Song } from "@unheard/shared";
import { clsx } from "clsx";
import { type ReactNode, Suspense, useCallback, useMemo } from "react";
import { Button } from "../../ui/button";
import { PlayListProvider } from "../player/play-list";
import { itemFromSong } from "../player/queue-model";
import { SongCard } from "./song-card";

/** The responsive song grid: 1, 2, 3 then 4 columns. */
export const GRID_CLASS = "grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 md:gap-5";

/**
 * Grey placeholder cards while a grid loads, laid out like <SongCard> (banner from `sm`, thumbnail and genre line
 * on phones, title, artist, player row, date row), so the loaded cards take exactly their place: no layout shift.
 */
export function GridSkeleton({ count = 4, className }: { count?: number; className?: string }) {
  return (
    <div role="status" aria-label="Loading songs" className={clsx(GRID_CLASS, className)}>
      {Array.from({ length: count }, (_, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          key={i}
          className="flex flex-col overflow-hidden rounded-2xl border border-white/[0.06] bg-zinc-900/60"
        >
          <div className="hidden aspect-[16/9] animate-pulse bg-white/[0.04] sm:block" />
          <div className="flex flex-1 flex-col gap-3 p-4">
            <div className="flex min-w-0 items-center gap-3">
              <div className="size-14 shrink-0 animate-pulse rounded-xl bg-white/[0.04] sm:hidden" />
              <div className="min-w-0 flex-1">
                <div className="flex h-6 items-center">
                  <div className="h-4 w-2/3 animate-pulse rounded bg-white/[0.06]" />
                </div>
                <div className="mt-0.5 flex h-5 items-center">
                  <div className="h-3 w-1/2 animate-pulse rounded bg-white/[0.05]" />
                </div>
                <div className="mt-0.5 h-4 sm:hidden" />
              </div>
            </div>
            <div className="flex h-10 items-center gap-3">
              <div className="size-10 shrink-0 animate-pulse rounded-full bg-white/[0.06]" />
              <div className="h-1 flex-1 rounded-full bg-white/[0.06]" />
            </div>
            <div className="mt-auto flex h-9 items-center justify-between pt-1">
              <div className="h-3 w-24 animate-pulse rounded bg-white/[0.05]" />
              <div className="size-8 animate-pulse rounded-full bg-white/[0.04]" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

/** A short message where a list has nothing to show. */
export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-white/10 px-6 py-10 text-center">
      {icon ? (
        <span className="mb-1 grid size-11 place-items-center rounded-full bg-violet-500/15 text-violet-300">
          {icon}
        </span>
      ) : null}
      <p className="font-medium text-zinc-200">{title}</p>
      {children ? <div className="max-w-md text-sm text-zinc-400">{children}</div> : null}
    </div>
  );
}

/** The paged list state a grid needs (the fields of an infinite query it reads). */
export type PagedSongs = {
  data: { pages: { items: Song[] }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
};

/** Songs of an infinite query, flattened (a song moved between pages while paging appears once). */
export function songsOf(query: Pick<PagedSongs, "data">): Song[] {
  const seen = new Set<string>();
  const out: Song[] = [];
  for (const page of query.data?.pages ?? []) {
    for (const s of page.items) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      out.push(s);
    }
  }
  return out;
}

/** A grid of songs with loading, error, empty and 'Load more' states. */
export function SongGrid({
  query,
  empty,
  errorMessage,
  mode = "browse",
  actions,
  badge,
  headingLevel = 3,
  skeletonCount = 4,
}: {
  query: PagedSongs;
  empty: ReactNode;
  errorMessage: string;
  mode?: "browse" | "verify";
  actions?: (song: Song) => ReactNode;
  /** Something laid over a card, e.g. a status pill. */
  badge?: (song: Song) => ReactNode;
  /** Heading level of the card titles (2 when no section heading sits above the grid). */
  headingLevel?: 2 | 3;
  skeletonCount?: number;
}) {
  // Play on a card plays the list from there: made at the press, from the songs loaded by then.
  const data = query.data;
  const songs = useMemo(() => songsOf({ data }), [data]);
  const source = useCallback(() => songs.map(itemFromSong), [songs]);
  if (query.isPending) return <GridSkeleton count={skeletonCount} />;
  if (query.isError && !query.data) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-rose-400/20 bg-rose-500/5 px-6 py-8 text-center">
        <p role="alert" className="text-sm text-rose-200">
          {errorMessage}
        </p>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (songs.length === 0) return <>{empty}</>;
  return (
    <PlayListProvider source={source}>
      <div className="flex flex-col gap-6">
        <ul className={GRID_CLASS}>
          {songs.map((song) => (
            <li key={song.id} className="relative flex">
              {/* A boundary per card: a server-rendered grid hydrates a card at a time, the browser free in between
                (one long task for 20 cards was most of a phone's blocking time on the home page). */}
              <Suspense fallback={null}>
                <SongCard
                  song={song}
                  mode={mode}
                  actions={actions?.(song)}
                  headingLevel={headingLevel}
                  className="w-full"
                />
                {badge?.(song)}
              </Suspense>
            </li>
          ))}
        </ul>
        {query.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          </div>
        ) : null}
      </div>
    </PlayListProvider>
  );
}

import { CHANGE_SOURCE_LABELS, type ChangeEntry, type ChangeKind } from "@unheard/shared";
import { clsx } from "clsx";
import { ArrowRightLeft, ArrowUp, type LucideIcon, Minus, Pencil, Plus, RotateCcw, Rss } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { RelativeTime } from "../../lib/relative-time";
import { Button, buttonClass } from "../../ui/button";
import { LoadError } from "../../ui/list-states";
import { Spinner } from "../../ui/spinner";
import { summaryParts } from "./change-text";
import type { useChanges } from "./changes";

/** Each kind of line's mark: what it did, at a glance (the words say it too). */
const KINDS: Record<ChangeKind, { icon: LucideIcon; tone: string }> = {
  new: { icon: Plus, tone: "bg-emerald-500/15 text-emerald-300" },
  upgraded: { icon: ArrowUp, tone: "bg-violet-500/15 text-violet-300" },
  changed: { icon: Pencil, tone: "bg-zinc-500/20 text-zinc-300" },
  removed: { icon: Minus, tone: "bg-rose-500/15 text-rose-300" },
  returned: { icon: RotateCcw, tone: "bg-sky-500/15 text-sky-300" },
  renamed: { icon: ArrowRightLeft, tone: "bg-amber-500/15 text-amber-300" },
};

// Links in running text are underlined, not told apart by colour alone (docs/ACCESSIBILITY.md).
const linkClass =
  "rounded-sm text-violet-200 underline decoration-violet-300/40 underline-offset-2 hover:decoration-violet-200 " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400";

type ChangesQuery = ReturnType<typeof useChanges>;

/**
 * A changelog's lines, newest first: the summary with its song linked, where it came from and when; "Show more" reads
 * the next page and takes focus to the first line it brought. `withArtist` names each line's artist (everyone's list).
 */
export function ChangeList({
  query,
  label,
  withArtist = false,
  empty,
  errorMessage,
  loadingLabel,
}: {
  query: ChangesQuery;
  /** The list's accessible name. */
  label: string;
  withArtist?: boolean;
  empty: string;
  errorMessage: string;
  loadingLabel: string;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  // "Show more" hands focus to the first line it brought, once that line is on the page.
  const focusLine = useRef<number | null>(null);
  const count = query.data?.pages.reduce((n, p) => n + p.items.length, 0) ?? 0;
  useEffect(() => {
    const index = focusLine.current;
    if (index === null || count <= index) return;
    focusLine.current = null;
    const line = listRef.current?.children[index];
    if (line instanceof HTMLElement) line.focus();
  }, [count]);
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError && !query.data) {
    return <LoadError message={errorMessage} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  if (items.length === 0) return <p className="text-sm text-zinc-400">{empty}</p>;

  const showMore = () => {
    if (query.isFetchingNextPage) return;
    // The first new line takes focus: the reader goes on from there, and the button may be gone.
    focusLine.current = items.length;
    void query.fetchNextPage();
  };

  return (
    <div className="flex flex-col gap-4">
      <ol
        ref={listRef}
        aria-label={label}
        className="overflow-hidden rounded-2xl border border-white/[0.06] bg-zinc-900/60"
        data-testid="change-list"
      >
        {items.map((entry) => (
          <ChangeLine key={entry.id} entry={entry} withArtist={withArtist} />
        ))}
      </ol>
      {query.hasNextPage ? (
        <div className="flex justify-center">
          {/* aria-disabled, not disabled, while it loads: focus stays on it (docs/ACCESSIBILITY.md). */}
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={query.isFetchingNextPage || undefined}
            aria-busy={query.isFetchingNextPage || undefined}
            onClick={showMore}
          >
            {query.isFetchingNextPage ? "Loading…" : "Show more"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ChangeLine({ entry, withArtist }: { entry: ChangeEntry; withArtist: boolean }) {
  const { icon: Icon, tone } = KINDS[entry.kind] ?? KINDS.changed;
  return (
    <li
      // Focused from "Show more" only; never a Tab stop of its own.
      tabIndex={-1}
      data-change-id={entry.id}
      className="flex items-start gap-3 border-t border-white/[0.06] px-4 py-3 first:border-t-0 md:px-5"
    >
      <span className={clsx("mt-0.5 grid size-7 shrink-0 place-items-center rounded-lg", tone)}>
        <Icon aria-hidden className="size-3.5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm leading-6 break-words text-zinc-200">
          {withArtist ? (
            <>
              <Link to={`/artists/${encodeURIComponent(entry.artist.id)}`} className={clsx(linkClass, "font-semibold")}>
                {entry.artist.name}
              </Link>
              <span aria-hidden className="text-zinc-500">
                {" · "}
              </span>
              <span className="sr-only">: </span>
            </>
          ) : null}
          <Summary entry={entry} />
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-400">
          <span className="inline-flex items-center rounded-full bg-white/[0.05] px-2 py-0.5 font-medium text-zinc-300 ring-1 ring-white/10 ring-inset">
            <span className="sr-only">Source: </span>
            {CHANGE_SOURCE_LABELS[entry.source] ?? entry.source}
          </span>
          <RelativeTime iso={entry.createdAt} />
        </p>
      </div>
    </li>
  );
}

/** The summary, its song's title a link to the song (the whole line when the title has changed since). */
function Summary({ entry }: { entry: ChangeEntry }) {
  if (!entry.song) return <>{entry.summary}</>;
  const to = `/song/${encodeURIComponent(entry.song.id)}`;
  const parts = summaryParts(entry.summary, entry.song.title, entry.kind);
  if (!parts) {
    return (
      <Link to={to} className={linkClass}>
        {entry.summary}
      </Link>
    );
  }
  return (
    <>
      {parts.before}
      <Link to={to} className={clsx(linkClass, "font-medium")}>
        {parts.title}
      </Link>
      {parts.after}
    </>
  );
}

/** "Subscribe (Atom)": a changelog's feed, for feed readers. */
export function FeedLink({ href }: { href: string }) {
  return (
    <a href={href} type="application/atom+xml" className={buttonClass("secondary", "sm")}>
      <Rss aria-hidden className="size-4 text-orange-300" />
      Subscribe (Atom)
    </a>
  );
}

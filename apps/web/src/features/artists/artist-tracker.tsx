import {
  type Artist,
  type ArtistTracker,
  formatTrackLength,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  TRACKER_MAX_SONGS,
  type TrackerEra,
  type TrackerSong,
} from "@unheard/shared";
import { clsx } from "clsx";
import { Download, LayoutGrid, type LucideIcon, Pencil, RefreshCw, Rows3, Table2 } from "lucide-react";
import { type ReactNode, Suspense, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { formatDateTime, formatPartialDate, plural } from "../../lib/format";
import { RelativeTime, useNow } from "../../lib/relative-time";
import { Button, buttonClass } from "../../ui/button";
import { lazyDialog } from "../../ui/lazy-dialog";
import { LoadError } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { Spinner } from "../../ui/spinner";
import { PlayListProvider } from "../player/play-list";
import { itemFromTrackerSong } from "../player/queue-model";
import { PlayAllButton, TrackPlayButton } from "../player/track-play-button";
import { ArtistTracks } from "./artist-tracks";
import { artistTrackerCsvUrl, useArtistTracker } from "./artists";
import type { NamedEra } from "./era-edit-dialog";
import { eraSpan, sheetCountsLine, type TrackerView, usedTags, viewFromParams } from "./tracker-model";
import { AvailabilityBadge, CountsLine, QualityBadge, RemovedBadge, SongName } from "./tracker-parts";
import { TrackerTable } from "./tracker-table";

/** The era dialog (and its form library), loaded on first open. */
const EraEditDialog = lazyDialog(() => import("./era-edit-dialog").then((m) => m.EraEditDialog));

const TRACKER_FAILED = "The tracker could not be loaded.";

/** The views of the tracker, in the switch's order. */
const VIEWS: { value: TrackerView; label: string; icon: LucideIcon }[] = [
  { value: "eras", label: "Eras", icon: Rows3 },
  { value: "table", label: "Table", icon: Table2 },
  { value: "cards", label: "Cards", icon: LayoutGrid },
];

/**
 * The artist page's tracker (issue 27 part 3): what is out (counts per availability), the legend of the marks, the
 * CSV download, and the songs by era, as a sortable and filterable table, or as the cards they always had. The view
 * and the table's sort and filters are in the address, so a link reproduces them. An artist without public songs
 * has no tracker: their page shows the cards (pending songs for the artist and admins, or 'No tracks yet').
 */
export function ArtistTrackerSection({ artist }: { artist: Artist }) {
  const tracker = useArtistTracker(artist.id);
  const cards = <ArtistTracks artistId={artist.id} isSelf={artist.isSelf} />;

  if (tracker.isPending) {
    return (
      <TrackerFrame>
        <Spinner label="Loading tracker" />
      </TrackerFrame>
    );
  }
  if (tracker.isError) {
    // The cards come from another request: they may still be there.
    return (
      <TrackerFrame>
        <LoadError message={TRACKER_FAILED} onRetry={() => void tracker.refetch()} retrying={tracker.isRefetching} />
        {cards}
      </TrackerFrame>
    );
  }
  if (tracker.data.total === 0) {
    return (
      <section aria-labelledby="artist-tracks-heading" className="flex flex-col gap-4">
        <h2 id="artist-tracks-heading" className="text-xl font-semibold text-white">
          Tracks
        </h2>
        {cards}
      </section>
    );
  }
  return <Tracker artist={artist} tracker={tracker.data} cards={cards} />;
}

/** The section and its heading, around whatever state the tracker is in. */
function TrackerFrame({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <section aria-labelledby="artist-tracker-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="artist-tracker-heading" className="text-xl font-semibold text-white">
          Tracker
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function Tracker({ artist, tracker, cards }: { artist: Artist; tracker: ArtistTracker; cards: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params) ?? "eras";
  const setView = (next: TrackerView) => {
    const out = new URLSearchParams(params);
    if (next === "eras") out.delete("view");
    else out.set("view", next);
    setParams(out, { replace: true, preventScrollReset: true });
  };
  const tags = usedTags(tracker);
  const legendId = useId();

  return (
    <TrackerFrame
      aside={
        <a href={artistTrackerCsvUrl(artist.id)} download className={buttonClass("secondary", "sm")}>
          <Download aria-hidden className="size-4" />
          Download tracker (CSV)
        </a>
      }
    >
      <div className="flex flex-col gap-3 rounded-2xl border border-white/[0.06] bg-zinc-900/60 px-4 py-3.5 md:px-5">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <p className="text-sm font-semibold text-white">{plural(tracker.total, "song")}</p>
          <CountsLine counts={tracker.counts} className="text-sm text-zinc-300" />
        </div>
        {tracker.sync ? <SyncNote sync={tracker.sync} /> : null}
        {tags.length > 0 ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm">
            <span id={legendId} className="text-xs font-semibold uppercase tracking-wider text-zinc-400">
              Legend
            </span>
            <ul aria-labelledby={legendId} className="flex flex-wrap gap-1.5">
              {tags.map((tag) => (
                <li
                  key={tag}
                  className="inline-flex items-center gap-1.5 rounded-full bg-white/[0.04] px-2.5 py-0.5 text-xs text-zinc-200 ring-1 ring-white/10 ring-inset"
                >
                  <span aria-hidden>{SONG_TAG_MARKS[tag]}</span>
                  {SONG_TAG_LABELS[tag]}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>

      {tracker.truncated ? (
        <Notice tone="info">
          The tracker shows the first {TRACKER_MAX_SONGS.toLocaleString("en-US")} songs. The CSV download has all of
          them.
        </Notice>
      ) : null}

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <ViewSwitch value={view} onChange={setView} />
        {artist.canEdit && view !== "cards" ? (
          <p className="text-xs text-zinc-400">The tracker lists verified songs; pending ones are under Cards.</p>
        ) : null}
      </div>

      {view === "eras" ? <EraList artist={artist} tracker={tracker} /> : null}
      {view === "table" ? <TrackerTable artist={artist} tracker={tracker} /> : null}
      {view === "cards" ? cards : null}
    </TrackerFrame>
  );
}

/**
 * The tracker is kept in step with the community's sheet (issue 37): said under its counts, with when the sheet was
 * last checked ('5 min ago', its exact time in the title) and last changed. The times depend on the reader's clock
 * and zone: they show once the page is in the browser (relative-time.tsx), so the server's HTML hydrates as it is.
 */
function SyncNote({ sync }: { sync: NonNullable<ArtistTracker["sync"]> }) {
  const inBrowser = useNow() !== null;
  const changed =
    inBrowser && sync.lastChangedAt ? `The sheet last changed ${formatDateTime(sync.lastChangedAt)}` : undefined;
  return (
    <p className="flex items-center gap-1.5 text-xs text-zinc-400" data-testid="tracker-sync-note" title={changed}>
      <RefreshCw aria-hidden className="size-3.5 shrink-0 text-emerald-300" />
      <span>
        Kept in step with the community tracker
        {inBrowser && sync.lastCheckedAt ? (
          <>
            {" · checked "}
            <RelativeTime iso={sync.lastCheckedAt} />
          </>
        ) : null}
      </span>
    </p>
  );
}

/** A segmented control: one pressed button per view. */
function ViewSwitch({ value, onChange }: { value: TrackerView; onChange: (view: TrackerView) => void }) {
  return (
    <fieldset className="inline-flex min-w-0 rounded-full border border-white/10 bg-zinc-900/80 p-1">
      <legend className="sr-only">Tracker view</legend>
      {VIEWS.map(({ value: v, label, icon: Icon }) => {
        const on = v === value;
        return (
          <button
            key={v}
            type="button"
            aria-pressed={on}
            onClick={() => onChange(v)}
            className={clsx(
              "inline-flex h-8 items-center gap-1.5 rounded-full px-3.5 text-sm font-medium transition-colors",
              "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
              on ? "bg-violet-500 text-white shadow" : "text-zinc-300 hover:bg-white/5 hover:text-white",
            )}
          >
            <Icon aria-hidden className="size-4" />
            {label}
          </button>
        );
      })}
    </fieldset>
  );
}

/**
 * The eras, newest first: each with its span, its counts and its songs as compact rows. Who may edit the artist
 * gets 'Edit era' on each named era: one dialog, for the era last asked for.
 */
function EraList({ artist, tracker }: { artist: Artist; tracker: ArtistTracker }) {
  const [params] = useSearchParams();
  // `?era=<name>` is the era's own page (its title and structured data come from the server; decision 026).
  const wanted = params.get("era");
  const selected = wanted ? tracker.eras.find((era) => era.name !== null && sameEra(era.name, wanted)) : undefined;
  const [editing, setEditing] = useState<NamedEra | null>(null);
  const [open, setOpen] = useState(false);
  // DialogFrame gives focus back to the 'Edit era' button that opened it.
  const edit = artist.canEdit
    ? (era: NamedEra) => {
        setEditing(era);
        setOpen(true);
      }
    : undefined;

  return (
    <div className="flex flex-col gap-5" data-testid="tracker-eras">
      {selected ? (
        <Link
          to={{ search: "" }}
          className="self-start text-sm text-violet-300 underline underline-offset-2 hover:text-violet-200"
        >
          All eras of {artist.name}
        </Link>
      ) : null}
      {/* An era at a time: a server-rendered tracker hydrates in short tasks (see song-grid.tsx). */}
      {(selected ? [selected] : tracker.eras).map((era) => (
        <Suspense key={era.name ?? ""} fallback={null}>
          <EraSection era={era} artist={artist} onEdit={edit} linked={!selected} />
        </Suspense>
      ))}
      {edit && editing ? <EraEditDialog artistId={artist.id} era={editing} open={open} onOpenChange={setOpen} /> : null}
    </div>
  );
}

function EraSection({
  era,
  artist,
  onEdit,
  linked,
}: {
  era: TrackerEra;
  artist: Artist;
  /** The era's name links to its own page (`?era=`). */
  linked: boolean;
  /** Opens the era's dialog; absent for those who may not edit the artist. */
  onEdit: ((era: NamedEra) => void) | undefined;
}) {
  const headingId = useId();
  const span = eraSpan(era.from, era.to);
  const named: NamedEra | null = era.name === null ? null : { ...era, name: era.name };
  const items = () => era.songs.map((song) => itemFromTrackerSong(song, artist));
  const playable = era.songs.some((song) => song.hasAudio);
  return (
    <section
      aria-labelledby={headingId}
      className="overflow-hidden rounded-2xl border border-white/[0.06] bg-zinc-900/60 [contain-intrinsic-size:auto_30rem] [content-visibility:auto]"
    >
      <header className="flex items-start gap-3 border-b border-white/[0.06] bg-white/[0.02] px-4 py-3 md:gap-4 md:px-5">
        {era.coverUrl ? (
          // The era's own art (a link its page gives); the heading beside it names the era.
          <img
            src={era.coverUrl}
            alt=""
            loading="lazy"
            referrerPolicy="no-referrer"
            className="size-12 shrink-0 rounded-lg bg-white/5 object-cover ring-1 ring-white/10 md:size-14"
          />
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <h3
              id={headingId}
              className={clsx("text-lg font-semibold break-words", era.name ? "text-white" : "text-zinc-300")}
            >
              {era.name && linked ? (
                <Link
                  to={{ search: `?era=${encodeURIComponent(era.name)}` }}
                  className="hover:text-violet-200 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  {era.name}
                </Link>
              ) : (
                (era.name ?? "No era")
              )}
            </h3>
            {span ? <p className="text-sm text-zinc-400">{span}</p> : null}
          </div>
          <div className="flex flex-wrap items-baseline gap-x-3 text-sm text-zinc-400">
            <span>{plural(era.songs.length, "song")}</span>
            <CountsLine counts={era.counts} className="text-zinc-400" />
          </div>
          {era.sheetCounts.length > 0 ? (
            <p className="text-xs text-zinc-400" data-testid="era-sheet-counts">
              The sheet counts {sheetCountsLine(era.sheetCounts)}
            </p>
          ) : null}
          {era.description ? (
            <p className="mt-1 max-w-3xl text-sm leading-relaxed break-words whitespace-pre-line text-zinc-300">
              {era.description}
            </p>
          ) : null}
        </div>
        {playable ? <PlayAllButton label="Play era" name={era.name ?? "No era"} items={items} compactOnPhone /> : null}
        {onEdit && named ? (
          // On a phone only the pencil shows, leaving the heading its width; the name stays "Edit era <name>".
          <Button
            variant="secondary"
            size="sm"
            className="shrink-0 max-sm:w-8 max-sm:px-0"
            icon={<Pencil aria-hidden className="size-3.5" />}
            onClick={() => onEdit(named)}
          >
            <span className="max-sm:sr-only">Edit era</span>
            <span className="sr-only"> {named.name}</span>
          </Button>
        ) : null}
      </header>
      <PlayListProvider source={items}>
        <ol className="divide-y divide-white/[0.05]">
          {era.songs.map((song) => (
            <EraSongRow key={song.id} song={song} artist={artist} />
          ))}
        </ol>
      </PlayListProvider>
    </section>
  );
}

/** Whether two era names are the same era: case and accents aside. */
function sameEra(a: string, b: string): boolean {
  const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
  return fold(a) === fold(b);
}

/** One song of an era: marks, title, version, other artists; availability, quality, leak date, length. */
function EraSongRow({ song, artist }: { song: TrackerSong; artist: Artist }) {
  const leak = formatPartialDate(song.leakDate, "");
  return (
    <li className="flex flex-col gap-1.5 px-4 py-2.5 hover:bg-white/[0.02] sm:flex-row sm:items-center sm:gap-4 md:px-5">
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-0.5">
        <TrackPlayButton
          songId={song.id}
          title={song.title}
          hasAudio={song.hasAudio}
          item={() => itemFromTrackerSong(song, artist)}
        />
        <SongName song={song} className="text-[15px]" />
        {song.with.length > 0 ? (
          <span className="min-w-0 truncate text-xs text-zinc-400">with {song.with.join(", ")}</span>
        ) : null}
        {song.removedFromTracker ? <RemovedBadge /> : null}
      </div>
      {/* From sm up, fixed slots: the badges, dates and lengths of an era's rows line up as columns. */}
      <div className="flex shrink-0 flex-wrap items-center gap-1.5 text-xs text-zinc-400 sm:grid sm:grid-cols-[5.5rem_7rem_6rem_3rem] sm:gap-2">
        <span className="empty:hidden sm:empty:block">
          <AvailabilityBadge value={song.availability} />
        </span>
        <span className="empty:hidden sm:empty:block">
          <QualityBadge value={song.quality} />
        </span>
        <span className="inline-flex justify-end tabular-nums">
          {leak ? (
            <time dateTime={song.leakDate ?? undefined}>
              <span className="sr-only">Leaked </span>
              {leak}
            </time>
          ) : null}
        </span>
        <span className="inline-flex justify-end tabular-nums">
          {song.trackLength !== null ? (
            <>
              <span className="sr-only">Length </span>
              {formatTrackLength(song.trackLength)}
            </>
          ) : null}
        </span>
      </div>
    </li>
  );
}

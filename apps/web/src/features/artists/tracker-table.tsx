import {
  type ArtistTracker,
  formatTrackLength,
  QUALITIES,
  QUALITY_LABELS,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  SONG_TAGS,
  TRACKER_AVAILABILITY_ORDER,
} from "@unheard/shared";
import { clsx } from "clsx";
import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import { useSearchParams } from "react-router";
import { formatPartialDate } from "../../lib/format";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { SearchInput } from "../../ui/search-input";
import { SelectField } from "../../ui/select";
import { PlayListProvider } from "../player/play-list";
import { itemFromTrackerSong } from "../player/queue-model";
import { TrackPlayButton } from "../player/track-play-button";
import {
  filterRows,
  isFiltered,
  nextSort,
  type SortDir,
  type SortKey,
  sortRows,
  type TableState,
  TRACKER_AVAILABILITY_LABELS,
  type TrackerRow,
  tableFromParams,
  tableToParams,
  trackerRows,
} from "./tracker-model";
import { AvailabilityBadge, QualityBadge, RemovedBadge, SongName } from "./tracker-parts";

/** The names of the sortable columns, as their headers and the sort select say them. */
const SORT_LABELS: Record<SortKey, string> = {
  name: "Name",
  leak: "Leak date",
  availability: "Availability",
  quality: "Quality",
};

/** The sort select's choices (phones have no column headers to press). */
const SORT_OPTIONS: { value: string; label: string }[] = [
  { value: "", label: "Tracker order" },
  { value: "name:asc", label: "Name A–Z" },
  { value: "name:desc", label: "Name Z–A" },
  { value: "leak:asc", label: "Oldest leaks" },
  { value: "leak:desc", label: "Newest leaks" },
  { value: "availability:asc", label: "Most available" },
  { value: "availability:desc", label: "Least available" },
  { value: "quality:asc", label: "Best quality" },
  { value: "quality:desc", label: "Worst quality" },
];

/** Quality from the best copy down, as the filter offers it. */
const QUALITY_CHOICES = [...QUALITIES].reverse();

/** The stacked (narrow screen) label of a cell, shown before its value; hidden where the table has headers. */
const stackedLabel =
  "max-lg:grid max-lg:grid-cols-[6.5rem_minmax(0,1fr)] max-lg:items-baseline max-lg:gap-3 " +
  "max-lg:before:text-xs max-lg:before:text-zinc-400 max-lg:before:content-[attr(data-label)]";

/**
 * The tracker as a sheet (issue 27 part 3): Era, Name, Leak date, Available, Quality, Length, Notes. Sorted by a
 * header's button (or the sort select on narrow screens) and filtered by availability, quality, tag and text, all
 * kept in the address. Below `lg` each row is a stacked card with the column names beside the values.
 */
export function TrackerTable({ artist, tracker }: { artist: { id: string; name: string }; tracker: ArtistTracker }) {
  const artistName = artist.name;
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the params object changes identity on every render; its text does not
  const state = useMemo(() => tableFromParams(params), [key]);
  const all = useMemo(() => trackerRows(tracker), [tracker]);
  const rows = useMemo(() => sortRows(filterRows(all, state), state.sort, state.dir), [all, state]);

  const update = (patch: Partial<TableState>) =>
    setParams(tableToParams(params, { ...state, ...patch }), { replace: true, preventScrollReset: true });
  const filtered = isFiltered(state);
  const clear = () => update({ availability: "", quality: "", tag: "", q: "" });

  const order = state.sort
    ? `sorted by ${SORT_LABELS[state.sort].toLowerCase()}, ${state.dir === "asc" ? "ascending" : "descending"}`
    : "in tracker order";

  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,1.6fr)_repeat(3,minmax(0,1fr))]">
        <Field
          label="Search title or alias"
          className="col-span-2 lg:col-span-1"
          render={(control) => (
            <div className="relative">
              <SearchInput
                {...control}
                value={state.q}
                onChange={(e) => update({ q: e.target.value })}
                placeholder="Title or alias"
                autoComplete="off"
                className="h-9 rounded-lg bg-zinc-900/80 pr-3 text-sm focus-visible:ring-violet-400/70"
              />
            </div>
          )}
        />
        <SelectField
          label="Availability"
          compact
          value={state.availability}
          onChange={(e) => update({ availability: e.target.value as TableState["availability"] })}
        >
          <option value="">All availabilities</option>
          {TRACKER_AVAILABILITY_ORDER.map((a) => (
            <option key={a} value={a}>
              {TRACKER_AVAILABILITY_LABELS[a]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Quality"
          compact
          value={state.quality}
          onChange={(e) => update({ quality: e.target.value as TableState["quality"] })}
        >
          <option value="">All qualities</option>
          {QUALITY_CHOICES.map((q) => (
            <option key={q} value={q}>
              {QUALITY_LABELS[q]}
            </option>
          ))}
          <option value="unknown">Unknown</option>
        </SelectField>
        <SelectField
          label="Tag"
          compact
          value={state.tag}
          onChange={(e) => update({ tag: e.target.value as TableState["tag"] })}
        >
          <option value="">All tags</option>
          {SONG_TAGS.map((t) => (
            <option key={t} value={t}>
              {SONG_TAG_MARKS[t]} {SONG_TAG_LABELS[t]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Sort by"
          compact
          className="lg:hidden"
          value={state.sort ? `${state.sort}:${state.dir}` : ""}
          onChange={(e) => {
            const [sort = "", dir = "asc"] = e.target.value.split(":");
            update({ sort: (sort || null) as SortKey | null, dir: dir as SortDir });
          }}
        >
          {SORT_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      </div>

      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <p role="status" className="text-sm text-zinc-300" data-testid="tracker-table-count">
          {rows.length.toLocaleString("en-US")} of {all.length.toLocaleString("en-US")} songs
        </p>
        {filtered ? (
          <Button variant="ghost" size="sm" onClick={clear}>
            Clear filters
          </Button>
        ) : null}
      </div>

      <div className="lg:overflow-x-auto lg:rounded-2xl lg:border lg:border-white/[0.06] lg:bg-zinc-900/60">
        <PlayListProvider source={() => rows.map((row) => itemFromTrackerSong(row, artist))}>
          <table className="block w-full text-sm lg:table">
            <caption className="sr-only">
              {artistName} tracker, {rows.length} of {all.length} songs, {order}. The Name, Leak date, Available and
              Quality headers are buttons that sort the table.
            </caption>
            <thead className="hidden lg:table-header-group">
              <tr className="border-b border-white/[0.06] text-left text-xs font-semibold tracking-wider text-zinc-400 uppercase">
                <th scope="col" className="px-4 py-3">
                  Era
                </th>
                <SortHeader column="name" state={state} onSort={update}>
                  Name
                </SortHeader>
                <SortHeader column="leak" state={state} onSort={update}>
                  Leak date
                </SortHeader>
                <SortHeader column="availability" state={state} onSort={update}>
                  Available
                </SortHeader>
                <SortHeader column="quality" state={state} onSort={update}>
                  Quality
                </SortHeader>
                <th scope="col" className="px-4 py-3 text-right">
                  Length
                </th>
                <th scope="col" className="px-4 py-3">
                  Notes
                </th>
              </tr>
            </thead>
            <tbody className="flex flex-col gap-3 lg:table-row-group">
              {rows.map((row) => (
                <Row key={row.id} row={row} artist={artist} />
              ))}
            </tbody>
          </table>
        </PlayListProvider>
        {rows.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-white/10 px-6 py-10 text-center lg:rounded-none lg:border-0 lg:border-t lg:border-solid lg:border-white/[0.06]">
            <p className="text-sm text-zinc-300">No songs match these filters.</p>
            <Button variant="secondary" size="sm" onClick={clear}>
              Clear filters
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A sortable column's header: a button inside the <th>, which says the sort with aria-sort. */
function SortHeader({
  column,
  state,
  onSort,
  children,
}: {
  column: SortKey;
  state: TableState;
  onSort: (patch: Pick<TableState, "sort" | "dir">) => void;
  children: ReactNode;
}) {
  const active = state.sort === column;
  const Icon = active ? (state.dir === "asc" ? ArrowUp : ArrowDown) : ChevronsUpDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (state.dir === "asc" ? "ascending" : "descending") : "none"}
      className="px-2 py-1.5"
    >
      <button
        type="button"
        onClick={() => onSort(nextSort(state, column))}
        className={clsx(
          "inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-xs font-semibold tracking-wider whitespace-nowrap uppercase",
          "hover:bg-white/5 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400",
          active ? "text-violet-200" : "text-zinc-400",
        )}
      >
        {children}
        <Icon aria-hidden className={clsx("size-3.5", active ? "text-violet-300" : "text-zinc-500")} />
      </button>
    </th>
  );
}

/** One song: a table row from `lg`, a stacked card below (name first, empty cells left out). */
function Row({ row, artist }: { row: TrackerRow; artist: { id: string; name: string } }) {
  const leak = formatPartialDate(row.leakDate, "");
  const cell = (label: string, empty: boolean, className?: string) => ({
    "data-label": label,
    className: clsx(
      "lg:table-cell lg:px-4 lg:py-2.5 lg:align-top",
      // Each state sets the display below lg: the grid of label and value, or none.
      empty ? "max-lg:hidden" : stackedLabel,
      className,
    ),
  });
  const none = <span className="text-zinc-400 max-lg:hidden">—</span>;
  return (
    <tr className="flex flex-col gap-1.5 rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-4 lg:table-row lg:rounded-none lg:border-0 lg:border-t lg:bg-transparent lg:p-0 lg:first:border-t-0 lg:hover:bg-white/[0.02]">
      <td {...cell("Era", !row.era, "text-zinc-300 lg:max-w-40")}>{row.era ?? none}</td>
      <th scope="row" className="order-first pb-1 text-left font-normal lg:table-cell lg:px-4 lg:py-2.5 lg:align-top">
        <span className="flex items-start gap-2">
          <TrackPlayButton
            songId={row.id}
            title={row.title}
            hasAudio={row.hasAudio}
            item={() => itemFromTrackerSong(row, artist)}
          />
          <span className="min-w-0 pt-1">
            <SongName song={row} wrap className="text-[15px] lg:text-sm" />
            {row.with.length > 0 ? (
              <span className="block text-xs text-zinc-400">with {row.with.join(", ")}</span>
            ) : null}
            {row.aliases.length > 0 ? (
              <span className="block text-xs text-zinc-400">aka {row.aliases.join(", ")}</span>
            ) : null}
            {row.removedFromTracker ? (
              <span className="mt-1 block">
                <RemovedBadge />
              </span>
            ) : null}
          </span>
        </span>
      </th>
      <td {...cell("Leak date", !leak, "whitespace-nowrap text-zinc-300 tabular-nums")}>
        {leak ? <time dateTime={row.leakDate ?? undefined}>{leak}</time> : none}
      </td>
      <td {...cell("Available", false, "whitespace-nowrap")}>
        {row.availability ? (
          <span>
            <AvailabilityBadge value={row.availability} />
          </span>
        ) : (
          <span className="text-zinc-400">Unknown</span>
        )}
      </td>
      <td {...cell("Quality", !row.quality, "whitespace-nowrap")}>
        {row.quality ? (
          <span>
            <QualityBadge value={row.quality} />
          </span>
        ) : (
          none
        )}
      </td>
      <td {...cell("Length", row.trackLength === null, "text-zinc-300 tabular-nums lg:text-right")}>
        {row.trackLength !== null ? formatTrackLength(row.trackLength) : none}
      </td>
      <td {...cell("Notes", !row.notes, "text-zinc-400 lg:w-[28%] lg:min-w-48")}>
        {row.notes ? (
          <span title={row.notes} className="break-words whitespace-pre-line lg:line-clamp-2">
            {row.notes}
          </span>
        ) : (
          none
        )}
      </td>
    </tr>
  );
}

import { clsx } from "clsx";
import { BadgeCheck } from "lucide-react";
import type { MouseEvent } from "react";
import { Link } from "react-router";
import { plural } from "../../lib/format";
import { ArtistAvatar } from "../artists/artist-avatar";
import { highlightParts, type SuggestOption } from "./suggest-list";

/** The id of option `index` of the listbox `listId` (the input's aria-activedescendant). */
export const suggestOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

/**
 * The search box's popup under the top bar: the listbox of suggested artists and songs, or, once an answer said
 * so, that nothing matched. Focus never comes here (the input keeps it and names the active option), so a press
 * on the popup must not take it away from the input.
 */
export function SuggestPopup({
  listId,
  options,
  active,
  query,
  emptyFor,
  onChoose,
}: {
  listId: string;
  options: readonly SuggestOption[];
  active: number;
  /** What was typed, for the highlight. */
  query: string;
  /** The term an empty answer was for: the popup says it matched nothing. */
  emptyFor: string | null;
  /** A click or tap opened an option (the link navigates by itself). */
  onChoose: (option: SuggestOption) => void;
}) {
  const artists = options.flatMap((o, index) => (o.kind === "artist" ? [{ o, index }] : []));
  const songs = options.flatMap((o, index) => (o.kind === "song" ? [{ o, index }] : []));
  const row = ({ o, index }: { o: SuggestOption; index: number }) => (
    <SuggestRow
      key={o.key}
      id={suggestOptionId(listId, index)}
      option={o}
      active={index === active}
      query={query}
      onChoose={onChoose}
    />
  );
  return (
    <>
      {/* Phones: the page under the sheet dims, and a tap there only closes it (the input loses focus). */}
      <div aria-hidden className="absolute inset-x-0 top-full z-30 h-dvh bg-black/55 md:hidden" />
      {/* On phones the popup spans the screen under the top bar (the header is its positioned ancestor); from md
          up it hangs under the search box, as wide as it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only keeps the input focused; the options are links. */}
      <div
        onMouseDown={(e) => e.preventDefault()}
        className={clsx(
          "absolute inset-x-0 top-full z-40 overflow-y-auto overscroll-contain bg-zinc-900 p-1.5 shadow-2xl shadow-black/60",
          "max-h-[calc(100dvh-8.5rem)] border-y border-white/10",
          "md:mt-2 md:max-h-[min(34rem,calc(100dvh-6rem))] md:rounded-2xl md:border",
        )}
      >
        {options.length > 0 ? (
          <div role="listbox" id={listId} aria-label="Search suggestions">
            {artists.length > 0 ? (
              // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA grouped listbox marks groups so; a fieldset is for form controls
              <div role="group" aria-labelledby={`${listId}-artists`}>
                <GroupLabel id={`${listId}-artists`}>Artists</GroupLabel>
                {artists.map(row)}
              </div>
            ) : null}
            {songs.length > 0 ? (
              // biome-ignore lint/a11y/useSemanticElements: as above
              <div role="group" aria-labelledby={`${listId}-songs`} className={artists.length > 0 ? "mt-1" : undefined}>
                <GroupLabel id={`${listId}-songs`}>Songs</GroupLabel>
                {songs.map(row)}
              </div>
            ) : null}
          </div>
        ) : emptyFor !== null ? (
          <p className="px-3 py-3 text-sm text-zinc-300">No matches for “{emptyFor}”</p>
        ) : null}
      </div>
    </>
  );
}

function GroupLabel({ id, children }: { id: string; children: string }) {
  return (
    <div
      role="presentation"
      id={id}
      className="px-3 pt-2 pb-1 text-[11px] font-semibold uppercase tracking-[0.14em] text-zinc-300"
    >
      {children}
    </div>
  );
}

function SuggestRow({
  id,
  option,
  active,
  query,
  onChoose,
}: {
  id: string;
  option: SuggestOption;
  active: boolean;
  query: string;
  onChoose: (option: SuggestOption) => void;
}) {
  // A plain click opens the option here; with a modifier (new tab, new window) the browser does as usual.
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey) onChoose(option);
  };
  return (
    <Link
      to={option.href}
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      onClick={onClick}
      data-suggestion={option.kind}
      className={clsx(
        "flex min-h-12 items-center gap-3 rounded-xl px-2.5 py-1.5 outline-none",
        active ? "bg-violet-500/20 ring-1 ring-violet-400 ring-inset" : "hover:bg-white/[0.06]",
      )}
    >
      {option.kind === "artist" ? (
        <>
          <ArtistAvatar name={option.artist.name} initial={option.artist.initial} size="sm" className="size-10" />
          <span className="flex min-w-0 flex-col">
            <span className="flex min-w-0 items-center gap-1 text-sm font-medium text-zinc-100">
              <span className="truncate">
                <Highlighted text={option.artist.name} query={query} />
              </span>
              {option.artist.isVerified ? (
                <>
                  <BadgeCheck aria-hidden className="size-4 shrink-0 text-violet-300" />
                  <span className="sr-only">(verified)</span>
                </>
              ) : null}
            </span>
            <span className="truncate text-xs text-zinc-300">Artist · {plural(option.artist.trackCount, "track")}</span>
          </span>
        </>
      ) : (
        <>
          {/* Decorative: the title beside it names the option. */}
          <img
            src={option.song.coverUrl}
            alt=""
            width={40}
            height={40}
            decoding="async"
            className="size-10 shrink-0 rounded-md bg-zinc-800 object-cover"
          />
          <span className="flex min-w-0 flex-col">
            <span className="truncate text-sm font-medium text-zinc-100">
              <Highlighted text={option.song.title} query={query} />
            </span>
            <span className="truncate text-xs text-zinc-300">
              <Highlighted text={option.song.artists.map((a) => a.name).join(", ")} query={query} />
            </span>
          </span>
        </>
      )}
    </Link>
  );
}

/** `text` with the typed words' matches in bold violet (the search forgives typos, so some show none). */
function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightParts(text, query).map((part, i) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, rebuilt whole on every change.
          <mark key={i} className="bg-transparent font-semibold text-violet-200">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

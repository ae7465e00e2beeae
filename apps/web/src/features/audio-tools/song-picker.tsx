import type { Song } from "@unheard/shared";
import { clsx } from "clsx";
import { ChevronsUpDown, LoaderCircle } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { formatDuration } from "../../lib/format";
import { type ControlProps, Field } from "../../ui/field";
import { SearchInput } from "../../ui/search-input";
import { usePickableSongs, useSongSearch } from "./audio-tools";

/** Search debounce of the app (spec §9). */
const DEBOUNCE_MS = 300;
const MAX_OPTIONS = 40;

const artistsOf = (s: Song) => s.artists.map((a) => a.name).join(", ");

/** Songs whose title or artists contain every word of `q` (case-insensitive). */
export function filterSongs(songs: readonly Song[], q: string): Song[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...songs];
  return songs.filter((s) => {
    const text = `${s.title} ${artistsOf(s)}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * A searchable song select (ARIA combobox): before typing it lists the newest verified and the pending songs;
 * typing filters them and asks the server's search, debounced.
 */
export function SongPicker({
  value,
  onSelect,
  disabled,
}: {
  value: Song | null;
  onSelect: (song: Song) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(value?.title ?? "");
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setText(value?.title ?? "");
  }, [value]);

  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const pickable = usePickableSongs();
  // The box still shows the chosen title: list everything again until the user types something else.
  const searching = query.length > 0 && query !== value?.title;
  const search = useSongSearch(searching ? query : "");

  // The songs already here filter as the user types; only the server's search waits for the debounce, and its
  // results go below them, so an option does not move under the pointer when they arrive.
  const typed = text.trim();
  const filter = typed.length > 0 && typed !== value?.title ? typed : "";
  const options = useMemo(() => {
    const local = filterSongs(pickable.data ?? [], filter);
    const seen = new Set(local.map((s) => s.id));
    const remote = searching ? (search.data ?? []).filter((s) => !seen.has(s.id)) : [];
    return [...local, ...remote].slice(0, MAX_OPTIONS);
  }, [pickable.data, search.data, searching, filter]);

  useEffect(() => {
    setActive((a) => Math.min(a, Math.max(0, options.length - 1)));
  }, [options.length]);

  useEffect(() => {
    if (!open) return;
    list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, open]);

  const choose = (song: Song) => {
    setText(song.title);
    setOpen(false);
    onSelect(song);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === "Enter") {
      const song = options[active];
      if (open && song) {
        e.preventDefault();
        choose(song);
      }
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };

  const loading = pickable.isPending || (searching && search.isFetching);
  const activeId = open && options[active] ? `${id}-opt-${active}` : undefined;

  // The combobox and its list of songs, under the field's label.
  const combobox = (control: ControlProps) => (
    <>
      <div className="relative">
        <SearchInput
          ref={input}
          {...control}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          placeholder="Search songs..."
          disabled={disabled}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          className="h-11 rounded-xl bg-zinc-900/80 pr-10 text-[15px] focus-visible:ring-violet-400/70 disabled:opacity-60"
        />
        {loading ? (
          <LoaderCircle
            aria-hidden
            className="absolute top-1/2 right-3.5 size-4 -translate-y-1/2 animate-spin text-zinc-500"
          />
        ) : (
          <ChevronsUpDown
            aria-hidden
            className="pointer-events-none absolute top-1/2 right-3.5 size-4 -translate-y-1/2 text-zinc-500"
          />
        )}
      </div>
      <div
        ref={list}
        id={listId}
        role="listbox"
        aria-label="Songs"
        hidden={!open}
        className="absolute top-full right-0 left-0 z-30 mt-1 max-h-80 overflow-y-auto rounded-xl border border-white/10 bg-zinc-900 p-1 shadow-2xl shadow-black/50"
      >
        {options.length === 0 ? (
          <div className="px-3 py-2.5 text-sm text-zinc-500">{loading ? "Searching…" : "No songs found"}</div>
        ) : (
          options.map((song, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard (aria-activedescendant).
            <div
              key={song.id}
              tabIndex={-1}
              id={`${id}-opt-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(song)}
              className={clsx(
                "flex cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-2",
                i === active ? "bg-violet-500/20" : "hover:bg-white/5",
              )}
            >
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-zinc-100">{song.title}</span>
                <span className="block truncate text-xs text-zinc-400">{artistsOf(song)}</span>
              </span>
              <span className="flex shrink-0 items-center gap-2 text-xs text-zinc-500">
                {song.status === "pending" ? (
                  <span className="rounded-full bg-amber-500/15 px-2 py-0.5 text-amber-200">Pending</span>
                ) : null}
                {song.audio ? (
                  <span className="tabular-nums">{formatDuration(song.audio.durationSec)}</span>
                ) : (
                  <span>No audio</span>
                )}
              </span>
            </div>
          ))
        )}
      </div>
    </>
  );

  return <Field id={id} label="Song" className="relative" render={combobox} />;
}

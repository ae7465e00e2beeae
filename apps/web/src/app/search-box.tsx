import { SEARCH_DEBOUNCE_MS, type SuggestResult } from "@unheard/shared";
import { clsx } from "clsx";
import { X } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { useSuggestions } from "../features/search/search";
import {
  keyIntent,
  refinesSearch,
  SUGGEST_DEBOUNCE_MS,
  SUGGEST_MAX_LENGTH,
  type SuggestOption,
  suggestAnnouncement,
  suggestOptions,
} from "../features/search/suggest-list";
import { SuggestPopup, suggestOptionId } from "../features/search/suggest-popup";
import { useDebounced } from "../lib/use-debounced";
import { SearchInput } from "../ui/search-input";

// Phones keep the on-screen keyboard up while the input has focus; once a search is sent it would hide the page.
const coarsePointer = () => window.matchMedia?.("(pointer: coarse)")?.matches === true;

/**
 * The 'Search songs...' box, a WAI-ARIA combobox: suggestions (artists, songs) while typing, opened with the
 * arrows and Enter or a click; Enter without an active option, and a pause in typing, write `/?q=term`, so every
 * search is a shareable link.
 */
export function SearchBox({ className }: { className?: string }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const onHome = location.pathname === "/";
  const urlTerm = onHome ? (params.get("q") ?? "") : "";
  const href = location.pathname + location.search;
  const [value, setValue] = useState(urlTerm);
  // Whether the person wants the list; it shows once there is something to show.
  const [open, setOpen] = useState(false);
  // The active option belongs to one answer: a new answer starts with none.
  const [activeIn, setActiveIn] = useState<{ answer: SuggestResult | undefined; index: number }>({
    answer: undefined,
    index: -1,
  });
  const inputRef = useRef<HTMLInputElement>(null);
  const resultsTimer = useRef<number | undefined>(undefined);
  // The results addresses this box navigated to itself: arriving there must not reset what is being typed.
  const ownHrefs = useRef(new Set<string>());
  const here = useRef({ onHome, urlTerm, href });
  const listId = `${useId()}-suggestions`;

  const term = value.trim().slice(0, SUGGEST_MAX_LENGTH);
  const suggestTerm = useDebounced(term, SUGGEST_DEBOUNCE_MS);
  const suggestions = useSuggestions(suggestTerm, open);
  // Until the pause, the answer is for what was typed before: shown only if this is that search typed further.
  const answer = refinesSearch(suggestTerm, term) ? suggestions.data : undefined;
  const options = useMemo(() => suggestOptions(answer), [answer]);
  // "No matches" only for an answer to this term, not while the previous one stands in.
  const emptyFor = answer && !suggestions.isPlaceholderData && options.length === 0 ? suggestTerm : null;
  const showList = open && options.length > 0;
  const popupShown = showList || (open && emptyFor !== null);
  const active = showList && activeIn.answer === answer ? activeIn.index : -1;
  const announcement = showList ? suggestAnnouncement(options.length) : popupShown ? suggestAnnouncement(0) : "";

  useEffect(() => {
    here.current = { onHome, urlTerm, href };
  });

  // Another page (a link, Back, an opened suggestion): the box shows that page's term, closed, and a results
  // navigation still waiting is dropped. The box's own results navigation leaves the typing alone.
  useEffect(() => {
    if (ownHrefs.current.has(href)) {
      ownHrefs.current.clear();
      return;
    }
    ownHrefs.current.clear();
    window.clearTimeout(resultsTimer.current);
    setOpen(false);
    setValue(urlTerm);
  }, [href, urlTerm]);

  useEffect(() => () => window.clearTimeout(resultsTimer.current), []);

  // The active option stays in view as the arrows move through a list taller than the popup.
  useEffect(() => {
    if (active >= 0) document.getElementById(suggestOptionId(listId, active))?.scrollIntoView({ block: "nearest" });
  }, [active, listId]);

  /** Open the results page for `raw` now. */
  const openResults = (raw: string) => {
    window.clearTimeout(resultsTimer.current);
    const t = raw.trim();
    const to = t ? `/?q=${encodeURIComponent(t)}` : "/";
    // Already there (Enter after the pause wrote it): a navigation to the same address would change nothing.
    if (to === here.current.href) return;
    ownHrefs.current.add(to);
    // Refining a search replaces the entry; starting one from another page keeps Back working.
    void navigate(to, { replace: here.current.onHome });
  };

  /** Open the results page for `raw` once typing pauses for SEARCH_DEBOUNCE_MS (nothing when it shows it already). */
  const scheduleResults = (raw: string) => {
    window.clearTimeout(resultsTimer.current);
    if (raw.trim() === here.current.urlTerm.trim()) return;
    resultsTimer.current = window.setTimeout(() => openResults(raw), SEARCH_DEBOUNCE_MS);
  };

  const change = (next: string) => {
    setValue(next);
    setOpen(next.trim() !== "");
    // Typing leaves the options: Enter now means the full results, until an arrow picks one again.
    setActiveIn({ answer: undefined, index: -1 });
    scheduleResults(next);
  };

  const clear = () => {
    change("");
    inputRef.current?.focus();
  };

  /** An option was opened (its page is on the way): no results navigation may follow it. */
  const chosen = () => {
    window.clearTimeout(resultsTimer.current);
    setOpen(false);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Keys that compose a character (IME) are not the list's.
    if (e.nativeEvent.isComposing) return;
    const intent = keyIntent(e.key, {
      open: popupShown,
      active,
      // A closed list opens on an arrow with the answer at hand, its first (or last) option active.
      count: options.length,
      hasText: value !== "",
    });
    switch (intent.type) {
      case "move":
        e.preventDefault();
        if (!term) return;
        setOpen(true);
        setActiveIn({ answer, index: intent.active });
        return;
      case "choose": {
        e.preventDefault();
        const option = options[intent.index];
        if (!option) return;
        chosen();
        void navigate(option.href);
        return;
      }
      case "close":
        // Chromium's search input would clear itself on Escape; the first Escape only closes the list.
        e.preventDefault();
        setOpen(false);
        return;
      case "clear":
        e.preventDefault();
        clear();
        return;
      default:
        // "submit" (Enter): the form sends it; everything else is the input's own.
        return;
    }
  };

  const onChoose = (_option: SuggestOption) => {
    chosen();
    // A click or tap is done with the box: on a phone this also puts the keyboard away.
    inputRef.current?.blur();
  };

  return (
    // Positioned from md up only: on phones the popup hangs from the top bar itself and spans the screen.
    <search className={clsx("block md:relative", className)}>
      <form
        className="relative"
        onSubmit={(e) => {
          e.preventDefault();
          setOpen(false);
          openResults(value);
          if (coarsePointer()) inputRef.current?.blur();
        }}
      >
        <SearchInput
          ref={inputRef}
          value={value}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          onClick={() => setOpen(term !== "")}
          onBlur={() => setOpen(false)}
          placeholder="Search songs..."
          aria-label="Search songs"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          // Only while the list is there: an id that names nothing is an invalid reference (axe aria-valid-attr-value).
          aria-controls={showList ? listId : undefined}
          aria-activedescendant={active >= 0 ? suggestOptionId(listId, active) : undefined}
          autoComplete="off"
          enterKeyHint="search"
          className="h-10 rounded-full bg-zinc-900/80 pr-9 text-sm transition-colors focus-visible:ring-violet-400/60 [&::-webkit-search-cancel-button]:hidden"
        />
        {value ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={clear}
            className="absolute top-1/2 right-2 grid size-7 -translate-y-1/2 place-items-center rounded-full text-zinc-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            <X aria-hidden className="size-4" />
          </button>
        ) : null}
      </form>
      {popupShown ? (
        <SuggestPopup
          listId={listId}
          options={showList ? options : []}
          active={active}
          query={term}
          emptyFor={emptyFor}
          onChoose={onChoose}
        />
      ) : null}
      {/* Read out politely as answers arrive; present from the start so the first change is announced. */}
      <div role="status" className="sr-only">
        {announcement}
      </div>
    </search>
  );
}

// The search box's suggestion list as pure logic: which options it shows, what a key does to it, what is read out
// and which letters are highlighted. No React or DOM here, so the unit tests (and the e2e spec's timing) use it.
import type { SuggestResult } from "@unheard/shared";

/**
 * How long typing must pause before suggestions are asked for: short, so they keep up with typing, while the
 * results page (`/?q=`) keeps the calmer SEARCH_DEBOUNCE_MS.
 */
export const SUGGEST_DEBOUNCE_MS = 120;

/** The longest term GET /api/search/suggest takes (suggestQuerySchema); longer typing is cut, not refused. */
export const SUGGEST_MAX_LENGTH = 100;

/** An artist the search box suggests. */
export type ArtistSuggestion = SuggestResult["artists"][number];
/** A song the search box suggests. */
export type SongSuggestion = SuggestResult["songs"][number];

/** One option of the list, with the page it opens. */
export type SuggestOption =
  | { kind: "artist"; key: string; href: string; artist: ArtistSuggestion }
  | { kind: "song"; key: string; href: string; song: SongSuggestion };

/** The answer's options in list order: artists first, then songs, as the results page orders them. */
export function suggestOptions(result: SuggestResult | undefined): SuggestOption[] {
  if (!result) return [];
  return [
    ...result.artists.map(
      (artist): SuggestOption => ({
        kind: "artist",
        key: `artist:${artist.id}`,
        href: `/artists/${encodeURIComponent(artist.id)}`,
        artist,
      }),
    ),
    ...result.songs.map(
      (song): SuggestOption => ({
        kind: "song",
        key: `song:${song.id}`,
        href: `/song/${encodeURIComponent(song.id)}`,
        song,
      }),
    ),
  ];
}

/**
 * Whether an answer for `before` may stand in while `now` is being typed: one is the other typed further (or back),
 * case aside. Another search entirely shows nothing until its own answer, rather than the last one's.
 */
export function refinesSearch(before: string, now: string): boolean {
  const a = before.toLowerCase();
  const b = now.toLowerCase();
  return a !== "" && b !== "" && (a.startsWith(b) || b.startsWith(a));
}

/** The next active option after an arrow key: wraps at both ends; -1 (none) when there are no options. */
export function moveActive(active: number, count: number, by: 1 | -1): number {
  if (count <= 0) return -1;
  if (active < 0 || active >= count) return by > 0 ? 0 : count - 1;
  return (active + by + count) % count;
}

/** What the list looks like when a key is pressed in the input. */
export type ListState = {
  /** The popup is on screen (options or the empty state). */
  open: boolean;
  /** The active option, -1 for none. */
  active: number;
  /** How many options the popup shows. */
  count: number;
  /** The input holds text. */
  hasText: boolean;
};

/** What a key in the combobox input asks for. */
export type KeyIntent =
  /** Show the list with this option active (-1: none); the key's default (caret moves) is prevented. */
  | { type: "move"; active: number }
  /** Open the active option. */
  | { type: "choose"; index: number }
  /** Open the full results: the form submits as it always did. */
  | { type: "submit" }
  | { type: "close" }
  | { type: "clear" }
  /** Not the list's key: the input does what it always does (Tab leaves, Home/End move the caret...). */
  | { type: "default" };

/** The WAI-ARIA combobox keys: arrows move (and wrap), Enter opens, Escape closes and then clears. */
export function keyIntent(key: string, state: ListState): KeyIntent {
  switch (key) {
    case "ArrowDown":
    case "ArrowUp": {
      const by = key === "ArrowDown" ? 1 : -1;
      // A closed list opens with the first (or, going up, the last) option active.
      return { type: "move", active: moveActive(state.open ? state.active : -1, state.count, by) };
    }
    case "Enter":
      return state.open && state.active >= 0 && state.active < state.count
        ? { type: "choose", index: state.active }
        : { type: "submit" };
    case "Escape":
      if (state.open) return { type: "close" };
      return state.hasText ? { type: "clear" } : { type: "default" };
    default:
      return { type: "default" };
  }
}

/** What the live region reads out when an answer arrives, e.g. '6 suggestions'. */
export function suggestAnnouncement(count: number): string {
  if (count === 0) return "No suggestions";
  return count === 1 ? "1 suggestion" : `${count} suggestions`;
}

/** A run of text, highlighted or not. */
export type TextPart = { text: string; match: boolean };

// Case and accents do not matter to the search, so they do not to the highlight either.
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * How many of `word`'s characters (code points) to highlight for the typed word `query` (both folded as they are
 * compared): all that match when `query` is a prefix of the word, else the shared start from three characters on.
 */
function highlightLength(word: string[], query: string): number {
  let pos = 0;
  let matched = 0;
  for (const ch of word) {
    const f = fold(ch);
    if (pos >= query.length || f === "" || !query.startsWith(f, pos)) break;
    pos += f.length;
    matched++;
  }
  return pos >= query.length || matched >= 3 ? matched : 0;
}

/**
 * `text` cut into runs, the start of each word that begins like a typed word highlighted: the whole typed word
 * when it is a prefix ('let' in 'Letters'), or at least three letters of a misspelt one ('saltwat' of 'saltwatr').
 * The search forgives typos, so a suggestion may well have no highlight at all.
 */
export function highlightParts(text: string, query: string): TextPart[] {
  const words = fold(query).match(WORD) ?? [];
  if (words.length === 0) return text ? [{ text, match: false }] : [];
  const parts: TextPart[] = [];
  let plainFrom = 0;
  for (const m of text.matchAll(WORD)) {
    const chars = Array.from(m[0]);
    let best = 0;
    for (const w of words) best = Math.max(best, highlightLength(chars, w));
    if (best === 0) continue;
    const start = m.index;
    const end = start + chars.slice(0, best).join("").length;
    if (start > plainFrom) parts.push({ text: text.slice(plainFrom, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    plainFrom = end;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), match: false });
  return parts;
}

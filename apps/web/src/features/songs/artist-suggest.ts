// The artist fields' suggestions (issue 38: the upload form's artist fields suggested nothing, though the search
// index knows every artist) as pure logic: which artists are offered for what is typed, and what a key does.
import type { SuggestResult } from "@unheard/shared";

/** An artist offered to an artist field. */
export type ArtistOffer = SuggestResult["artists"][number];

/** Case, accents and spacing aside: "nova  REYES" and "Nova Reyes" name the same artist. */
const fold = (name: string) => name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * The artists to offer for `typed`, best first, at most `max`: none for an empty field, and none once the field
 * already holds an offered name exactly (there is nothing left to choose).
 */
export function artistOffers(result: SuggestResult | undefined, typed: string, max = 6): ArtistOffer[] {
  const term = fold(typed);
  if (!result || term === "") return [];
  if (result.artists.some((a) => fold(a.name) === term)) return [];
  return result.artists.slice(0, max);
}

/** What a key does to the offer list: move the active option (wrapping round), choose it, or close the list. */
export type OfferKey = { kind: "move"; active: number } | { kind: "choose"; index: number } | { kind: "close" };

/**
 * The effect of `key` with `count` offers shown (`open`) and option `active` active (-1: none), or undefined when
 * the key is the field's own (Enter with no active option submits the form; Escape on a closed list is the page's).
 */
export function offerKey(key: string, open: boolean, active: number, count: number): OfferKey | undefined {
  if (count === 0) return undefined;
  if (key === "ArrowDown") return { kind: "move", active: !open || active >= count - 1 ? 0 : active + 1 };
  if (key === "ArrowUp") return { kind: "move", active: !open || active <= 0 ? count - 1 : active - 1 };
  if (!open) return undefined;
  if (key === "Enter" && active >= 0) return { kind: "choose", index: active };
  if (key === "Escape") return { kind: "close" };
  return undefined;
}

import { useQuery } from "@tanstack/react-query";
import { MESSAGES, type SuggestResult } from "@unheard/shared";
import { sendRequest } from "../../lib/api/api";
import { refinesSearch } from "./suggest-list";

/** Query key of the search box's suggestions for a term. */
export const suggestKey = (term: string) => ["search-suggest", term] as const;

/** GET /api/search/suggest?q=: the songs and artists the search box offers while typing. */
export function fetchSuggestions(term: string, signal?: AbortSignal): Promise<SuggestResult> {
  return sendRequest<SuggestResult>(
    `/api/search/suggest?q=${encodeURIComponent(term)}`,
    { method: "GET", headers: { accept: "application/json" }, signal },
    MESSAGES.internal,
  );
}

/**
 * The suggestions for `term` (already debounced and trimmed) while `enabled`. The previous term's answer stays
 * on screen until the new one comes when the typing only went on (or back), so the list does not flicker; a
 * request the typing has overtaken is aborted (TanStack Query aborts the signal of a query nobody watches).
 */
export function useSuggestions(term: string, enabled: boolean) {
  return useQuery({
    queryKey: suggestKey(term),
    queryFn: ({ signal }) => fetchSuggestions(term, signal),
    enabled: enabled && term.length > 0,
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[1];
      return before !== undefined && refinesSearch(before, term) ? previous : undefined;
    },
    // The same letters suggest the same things for a while; the server caches them as well.
    staleTime: 60_000,
    // The next keystroke asks again: a retry would only answer a term the person has moved on from.
    retry: false,
  });
}

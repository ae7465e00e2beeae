import { SEARCH_DEBOUNCE_MS } from "@unheard/shared";
import { useEffect, useState } from "react";

/** `value` once it has stopped changing for `ms` (the search boxes' debounce by default). */
export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

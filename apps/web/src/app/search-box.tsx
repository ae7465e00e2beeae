import { SEARCH_DEBOUNCE_MS } from "@unheard/shared";
import { clsx } from "clsx";
import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { SearchInput } from "../ui/search-input";

/** The 'Search songs...' box: debounced, it writes `/?q=term` so every search is a shareable link. */
export function SearchBox({ className }: { className?: string }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const onHome = location.pathname === "/";
  const urlTerm = onHome ? (params.get("q") ?? "") : "";
  const [value, setValue] = useState(urlTerm);
  // The term this box last wrote, so its own URL update does not overwrite newer typing.
  const written = useRef<string | null>(null);

  useEffect(() => {
    if (written.current === urlTerm) return;
    written.current = null;
    setValue(urlTerm);
  }, [urlTerm]);

  useEffect(() => {
    const term = value.trim();
    if (term === urlTerm.trim()) return;
    const timer = window.setTimeout(() => {
      written.current = term;
      const to = term ? `/?q=${encodeURIComponent(term)}` : "/";
      // Refining a search replaces the entry; starting one from another page keeps Back working.
      void navigate(to, { replace: onHome });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value, urlTerm, onHome, navigate]);

  return (
    <search className={clsx("relative block", className)}>
      <form
        className="relative"
        onSubmit={(e) => {
          e.preventDefault();
          const term = value.trim();
          written.current = term;
          void navigate(term ? `/?q=${encodeURIComponent(term)}` : "/", { replace: onHome });
        }}
      >
        <SearchInput
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="Search songs..."
          aria-label="Search songs"
          className="h-10 rounded-full bg-zinc-900/80 pr-9 text-sm transition-colors focus-visible:ring-violet-400/60 [&::-webkit-search-cancel-button]:hidden"
        />
        {value ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => setValue("")}
            className="absolute top-1/2 right-2 grid size-7 -translate-y-1/2 place-items-center rounded-full text-zinc-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            <X aria-hidden className="size-4" />
          </button>
        ) : null}
      </form>
    </search>
  );
}

import { GENRES, RELEASE_FILTERS } from "@unheard/shared";
import { clsx } from "clsx";
import { CalendarClock } from "lucide-react";
import { type ReactNode, useId } from "react";
import { RELEASE_LABELS } from "../../lib/format";
import { LeakChoiceOptions } from "./leak-choice-options";
import type { FeedFilters, ReleaseFilter } from "./songs";

const GENRE_OPTIONS = ["All", ...GENRES] as const;
const RELEASE_OPTIONS = ["all", ...RELEASE_FILTERS] as const;
/** The leak detail filters: each one's label and the option meaning any value. */
const LEAK_FILTERS = [
  { key: "availability", label: "Availability", any: "Any availability" },
  { key: "quality", label: "Audio quality", any: "Any quality" },
] as const;

/** A compact pill-shaped select of the filter bar. */
function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="h-9 appearance-none rounded-full border border-white/10 bg-zinc-900/80 pr-9 pl-3.5 text-sm text-zinc-100 hover:border-white/20 focus:border-violet-400/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/60"
        >
          {children}
        </select>
        <svg
          aria-hidden
          viewBox="0 0 16 16"
          className="pointer-events-none absolute top-1/2 right-3 size-3.5 -translate-y-1/2 text-zinc-400"
        >
          <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </div>
    </>
  );
}

/**
 * Home filters: genre pills, release, availability and audio quality selects and the 'Releasing in Next 7 Days'
 * switch.
 */
export function FeedFilterBar({ value, onChange }: { value: FeedFilters; onChange: (next: FeedFilters) => void }) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
      <fieldset className="-mx-4 flex min-w-0 gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] md:mx-0 md:flex-wrap md:overflow-visible md:px-0 md:pb-0">
        <legend className="sr-only">Genre</legend>
        {GENRE_OPTIONS.map((g) => {
          const on = value.genre === g;
          return (
            <button
              key={g}
              type="button"
              aria-pressed={on}
              onClick={() => onChange({ ...value, genre: g })}
              className={clsx(
                "h-8 shrink-0 rounded-full border px-3.5 text-sm font-medium transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
                on
                  ? "border-violet-400/60 bg-violet-500/20 text-white"
                  : "border-white/10 bg-white/[0.03] text-zinc-400 hover:border-white/20 hover:text-zinc-100",
              )}
            >
              {g}
            </button>
          );
        })}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <FilterSelect
          label="Release"
          value={value.release}
          onChange={(v) => onChange({ ...value, release: v as ReleaseFilter })}
        >
          {RELEASE_OPTIONS.map((r) => (
            <option key={r} value={r}>
              {r === "all" ? "All releases" : RELEASE_LABELS[r]}
            </option>
          ))}
        </FilterSelect>
        {LEAK_FILTERS.map(({ key, label, any }) => (
          <FilterSelect key={key} label={label} value={value[key]} onChange={(v) => onChange({ ...value, [key]: v })}>
            <LeakChoiceOptions choice={key} none={{ value: "all", label: any }} />
          </FilterSelect>
        ))}
        <button
          type="button"
          role="switch"
          aria-checked={value.next7}
          onClick={() => onChange({ ...value, next7: !value.next7 })}
          className={clsx(
            "inline-flex h-9 items-center gap-2.5 rounded-full border pr-3 pl-2 text-sm font-medium transition-colors",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
            value.next7
              ? "border-fuchsia-400/50 bg-fuchsia-500/15 text-white"
              : "border-white/10 bg-white/[0.03] text-zinc-300 hover:border-white/20",
          )}
        >
          <span
            aria-hidden
            className={clsx(
              "relative h-5 w-9 rounded-full transition-colors",
              value.next7 ? "bg-fuchsia-500" : "bg-zinc-700",
            )}
          >
            <span
              className={clsx(
                "absolute top-0.5 left-0.5 size-4 rounded-full bg-white shadow transition-transform",
                value.next7 && "translate-x-4",
              )}
            />
          </span>
          <CalendarClock aria-hidden className="size-4 text-fuchsia-300" />
          Releasing in Next 7 Days
        </button>
      </div>
    </div>
  );
}

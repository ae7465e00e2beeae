import type { SuggestionValues } from "@unheard/shared";
import { clsx } from "clsx";
import type { ReactNode } from "react";
import {
  formatSuggestionValue,
  OPTIONAL_SUGGESTION_FIELDS,
  suggestionValue as plain,
  SUGGESTION_FIELDS,
  type SuggestionFieldKey,
} from "./format";

function display(values: SuggestionValues, key: SuggestionFieldKey): ReactNode {
  const value = formatSuggestionValue(values, key);
  if (!value) return <Empty />;
  if (key === "soundcloudUrl") {
    return (
      <a href={value} target="_blank" rel="noreferrer noopener" className="break-all text-violet-300 hover:underline">
        {value}
      </a>
    );
  }
  return <span className="break-words">{value}</span>;
}

function Empty() {
  return <span className="text-zinc-500 italic">Not set</span>;
}

/**
 * Original and suggested values side by side (plus the song's current values when it changed since),
 * with the fields the suggestion changes highlighted. On narrow screens each field stacks its columns.
 */
export function SuggestionCompare({
  original,
  suggested,
  current,
  changedFields,
}: {
  original: SuggestionValues;
  suggested: SuggestionValues;
  /** The song's values now, shown only when they differ from `original`. */
  current?: SuggestionValues | null | undefined;
  changedFields: readonly string[];
}) {
  const columns = [
    { label: "Original", values: original },
    { label: "Suggested", values: suggested },
    ...(current ? [{ label: "Current", values: current }] : []),
  ];
  return (
    <table className="w-full table-fixed border-separate border-spacing-0 text-sm">
      <thead className="hidden md:table-header-group">
        <tr>
          <th scope="col" className="w-40 pb-2 text-left text-xs font-medium text-zinc-500">
            <span className="sr-only">Field</span>
          </th>
          {columns.map((c) => (
            <th
              key={c.label}
              scope="col"
              className="pb-2 pl-3 text-left text-xs font-semibold uppercase tracking-wider text-zinc-500"
            >
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block md:table-row-group">
        {SUGGESTION_FIELDS.map(({ key, label }) => {
          const changed = changedFields.includes(key);
          const drifted = current ? plain(current, key) !== plain(original, key) : false;
          if (OPTIONAL_SUGGESTION_FIELDS.has(key) && !changed && columns.every((c) => plain(c.values, key) === null))
            return null;
          return (
            <tr
              key={key}
              data-changed={changed || undefined}
              className="block border-t border-white/[0.06] py-2.5 first:border-t-0 md:table-row md:py-0"
            >
              <th
                scope="row"
                className="block pb-1 text-left text-xs font-medium text-zinc-400 md:table-cell md:border-t md:border-white/[0.06] md:py-2.5 md:pr-3 md:align-top md:text-sm"
              >
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden
                    className={clsx("size-1.5 shrink-0 rounded-full", changed ? "bg-fuchsia-400" : "bg-zinc-700")}
                  />
                  {label}
                  {changed ? <span className="sr-only">(changed)</span> : null}
                </span>
              </th>
              {columns.map((c) => {
                const highlight = (c.label === "Suggested" && changed) || (c.label === "Current" && drifted);
                return (
                  <td
                    key={c.label}
                    className="block py-0.5 md:table-cell md:border-t md:border-white/[0.06] md:py-1.5 md:pl-3 md:align-top"
                  >
                    <div
                      // The narrow-screen column name is CSS content, so it stays out of the cell's text.
                      data-label={c.label}
                      className={clsx(
                        "flex gap-2 rounded-lg px-2 py-1 md:block",
                        "before:w-20 before:shrink-0 before:text-xs before:text-zinc-500 before:content-[attr(data-label)] md:before:hidden",
                        highlight &&
                          c.label === "Suggested" &&
                          "bg-fuchsia-500/10 text-fuchsia-100 ring-1 ring-fuchsia-400/25",
                        highlight && c.label === "Current" && "bg-amber-500/10 text-amber-100 ring-1 ring-amber-400/25",
                        !highlight && c.label === "Original" && changed && "text-zinc-400",
                        !highlight && !(c.label === "Original" && changed) && "text-zinc-200",
                      )}
                    >
                      <span
                        className={clsx(
                          "min-w-0",
                          c.label === "Original" && changed && "line-through decoration-zinc-600",
                        )}
                      >
                        {display(c.values, key)}
                      </span>
                    </div>
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

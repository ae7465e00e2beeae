import type { ImportOutcome, ImportPreview, ImportRow } from "@unheard/shared";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { type Column, DataTable } from "../../ui/data-table";
import { Pill } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { Select } from "../../ui/select";
import { OUTCOME_LABELS, OUTCOME_TONES } from "./batch-words";

/** Rows listed at most: the counts cover the whole sheet. */
const ROWS_SHOWN = 500;

type RowFilter = ImportOutcome | "all" | "warnings";
/** The filter's choices per outcome, as the rows they show. */
const FILTER_LABELS: Record<ImportOutcome, string> = {
  create: "Created",
  update: "Updated",
  skip: "Skipped",
  remove: "Removed from the tracker",
  rename: "Renamed",
};
/** The summary's figures per outcome. */
const COUNT_LABELS: Record<ImportOutcome, string> = {
  create: "Create",
  update: "Update",
  skip: "Skip",
  remove: "Remove",
  rename: "Rename",
};
/** Removals and renames happen only in syncs: their figures show when there are any. */
const ALWAYS_COUNTED: ImportOutcome[] = ["create", "update", "skip"];

/** Whether the rows come from several tabs (then each row says its tab). */
export const manyTabs = (preview: ImportPreview) => preview.sheets.filter((s) => s.included).length > 1;

/**
 * A dry run as a table (the import page's and a sync's review alike): the counts, what stops it, and per row its
 * outcome and why, filtered by outcome or warnings. `action` sits beside the filter (the import button).
 */
export function DryRunTable({ preview, action }: { preview: ImportPreview; action?: ReactNode }) {
  const [filter, setFilter] = useState<RowFilter>("all");
  const { summary } = preview;
  const outcomes = (Object.keys(COUNT_LABELS) as ImportOutcome[]).filter(
    (o) => ALWAYS_COUNTED.includes(o) || summary[o] > 0,
  );
  const rows = preview.rows.filter((r) =>
    filter === "all" ? true : filter === "warnings" ? r.warnings.length > 0 : r.outcome === filter,
  );
  const shown = rows.slice(0, ROWS_SHOWN);
  const withTab = manyTabs(preview);
  const columns: Column<ImportRow & { key: string }>[] = [
    ...(withTab
      ? [
          {
            key: "tab",
            header: "Tab",
            className: "md:w-32 text-zinc-300 break-words",
            cell: (r: ImportRow) => r.tab || <NotInSheet />,
          },
        ]
      : []),
    {
      key: "line",
      header: "Row",
      className: "md:w-16 tabular-nums text-zinc-400",
      cell: (r) => (r.line > 0 ? r.line : <NotInSheet />),
    },
    {
      key: "outcome",
      header: "Outcome",
      className: "md:w-28",
      cell: (r) => <Pill tone={OUTCOME_TONES[r.outcome]}>{OUTCOME_LABELS[r.outcome]}</Pill>,
    },
    {
      key: "song",
      header: "Song",
      rowHeader: true,
      cell: (r) => (
        <span className="break-words">
          <span className="font-medium text-white">{r.title || "(no title)"}</span>
          {r.artists.length > 0 ? <span className="text-zinc-400"> · {r.artists.join(", ")}</span> : null}
        </span>
      ),
    },
    {
      key: "why",
      header: "Why",
      cell: (r) => (
        <ul className="flex flex-col gap-0.5 text-sm">
          {r.reasons.map((reason) => (
            <li key={reason} className="text-zinc-300">
              {r.songId ? (
                <Link to={`/song/${r.songId}`} className="hover:underline">
                  {reason}
                </Link>
              ) : (
                reason
              )}
            </li>
          ))}
          {r.warnings.map((w) => (
            <li key={w} className="text-amber-300">
              {w}
            </li>
          ))}
        </ul>
      ),
    },
  ];
  const counts: [string, number][] = [
    ...outcomes.map((o): [string, number] => [COUNT_LABELS[o], summary[o]]),
    ["With warnings", summary.warnings],
  ];
  return (
    <div className="flex flex-col gap-4">
      <dl aria-label="Dry run summary" className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-6">
        {counts.map(([label, n]) => (
          <div key={label} className="rounded-xl border border-white/[0.06] bg-zinc-950/40 px-4 py-3">
            <dt className="text-xs text-zinc-500">{label}</dt>
            <dd className="text-2xl font-semibold text-white tabular-nums">{n.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
      {preview.problems.map((p) => (
        <Notice key={p} tone="error">
          {p}
        </Notice>
      ))}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2 text-sm text-zinc-300">
          <span aria-hidden>Show</span>
          <Select
            compact
            value={filter}
            onChange={(e) => setFilter(e.target.value as RowFilter)}
            aria-label="Show rows"
          >
            <option value="all">All rows</option>
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {FILTER_LABELS[o]}
              </option>
            ))}
            <option value="warnings">With warnings</option>
          </Select>
        </div>
        {action}
      </div>
      {shown.length > 0 ? (
        <DataTable
          columns={columns}
          rows={shown.map((r, i) => ({ ...r, key: `${r.tab}\u0000${r.line}\u0000${r.songId ?? ""}\u0000${i}` }))}
          rowKey={(r) => r.key}
          caption="Dry run rows"
        />
      ) : (
        <p className="text-sm text-zinc-500">No rows to show.</p>
      )}
      {rows.length > shown.length || preview.rowsTruncated ? (
        <p className="text-xs text-zinc-500">Only the first rows are listed; the counts above cover the whole sheet.</p>
      ) : null}
    </div>
  );
}

/** A song a sync marks removed has no row in the sheet any more. */
function NotInSheet() {
  return (
    <span className="relative text-zinc-500">
      <span aria-hidden>—</span>
      <span className="sr-only">Not in the sheet</span>
    </span>
  );
}

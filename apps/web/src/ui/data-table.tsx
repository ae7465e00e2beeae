import { clsx } from "clsx";
import type { ReactNode } from "react";

/** A column of a DataTable: its header, how a row renders in it, and optional cell classes. */
export type Column<T> = {
  key: string;
  header: ReactNode;
  /** The label a narrow screen shows beside the value (defaults to the header when it is text). */
  label?: string;
  cell: (row: T) => ReactNode;
  className?: string;
  /** The cell names the row (rendered as a row header). */
  rowHeader?: boolean;
};

/**
 * A table for the admin screens. From md up it is a plain table; on narrow screens every row becomes
 * a card with the column names beside the values. Explicit roles keep it a table for screen readers
 * whichever way CSS lays it out.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  caption: string;
}) {
  return (
    <div className="md:overflow-hidden md:rounded-2xl md:border md:border-white/[0.06] md:bg-zinc-900/60">
      <table className="w-full text-sm md:table block">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden md:table-header-group">
          <HeaderRow
            columns={columns}
            className="border-b border-white/[0.06]"
            cellClassName="px-4 py-3 text-left text-xs font-semibold uppercase tracking-wider whitespace-nowrap text-zinc-500"
          />
        </thead>
        <tbody className="flex flex-col gap-3 md:table-row-group">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className="flex flex-col gap-2 rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-4 md:table-row md:rounded-none md:border-0 md:border-t md:bg-transparent md:p-0 md:first:border-t-0 md:hover:bg-white/[0.02]"
            >
              {columns.map((c) => {
                const label = c.label ?? (typeof c.header === "string" ? c.header : undefined);
                // The narrow-screen column name is CSS content, so it stays out of the cell's text.
                const cls = clsx(
                  "flex items-center gap-3 md:table-cell md:px-4 md:py-3 md:align-middle",
                  label &&
                    "before:w-24 before:shrink-0 before:text-xs before:text-zinc-500 before:content-[attr(data-label)] md:before:hidden",
                  c.className,
                );
                return c.rowHeader ? (
                  <th key={c.key} scope="row" data-label={label} className={clsx(cls, "text-left font-normal")}>
                    <div className="min-w-0 flex-1 md:contents">{c.cell(row)}</div>
                  </th>
                ) : (
                  <td key={c.key} data-label={label} className={cls}>
                    <div className="min-w-0 flex-1 md:contents">{c.cell(row)}</div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A table's row of column headers; each cell gets `cellClassName` and its column's own classes. */
export function HeaderRow({
  columns,
  className,
  cellClassName,
}: {
  columns: Pick<Column<unknown>, "key" | "header" | "className">[];
  className?: string;
  cellClassName: string;
}) {
  return (
    <tr className={className}>
      {columns.map((c) => (
        <th key={c.key} scope="col" className={clsx(cellClassName, c.className)}>
          {c.header}
        </th>
      ))}
    </tr>
  );
}

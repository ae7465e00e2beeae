import type { ImportPreview, ImportSheet } from "@unheard/shared";
import { useId } from "react";
import { plural } from "../../lib/format";
import { Panel } from "../../ui/page";
import { Select } from "../../ui/select";

/** Characters of a row shown in the header row's choices. */
const ROW_CHARS = 80;

/** A row's first cells as one line: "Row 3: Era · Name · Notes · Track Length". */
function rowWords(row: ImportSheet["topRows"][number]): string {
  const words = row.cells
    .map((c) => c.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" · ");
  const cut = words.length > ROW_CHARS ? `${words.slice(0, ROW_CHARS - 1)}…` : words;
  return `Row ${row.line}: ${cut || "(empty)"}`;
}

/** A tab's state in words: "2 song rows, header on row 3 (found)", or "Left out: Not a song list". */
function tabStatus(sheet: ImportSheet): string {
  if (!sheet.included) return `Left out: ${sheet.reason ?? "Not chosen"}`;
  const header =
    sheet.headerRow === null ? "" : `, header on row ${sheet.headerRow} (${sheet.headerChosen ? "chosen" : "found"})`;
  return `${plural(sheet.rows, "song row")}${header}`;
}

/**
 * Step 2: the file's tabs, each included or left out (with why), and the header row found on each (or picked): a
 * choice among its first rows. A one-tab file (a CSV) has only its header row.
 */
export function TabsPanel({
  preview,
  onInclude,
  onHeaderRow,
  updating,
}: {
  preview: ImportPreview;
  onInclude: (tab: string, included: boolean) => void;
  onHeaderRow: (tab: string, line: number) => void;
  updating: boolean;
}) {
  const oneTab = preview.sheets.length === 1;
  const included = preview.sheets.filter((s) => s.included).length;
  return (
    <Panel className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-semibold text-white">{oneTab ? "2. Header row" : "2. Tabs and header rows"}</h2>
        <p className="mt-1 text-sm text-zinc-400">
          {oneTab
            ? "The row that names the columns. Title and announcement rows above it are left out."
            : `${plural(included, "tab")} of ${preview.sheets.length} ${included === 1 ? "lists" : "list"} songs and will be imported. Tabs such as Updates or Info are left out; tick a tab to import it anyway.`}
        </p>
      </div>
      <ul className="flex flex-col gap-3">
        {preview.sheets.map((sheet) => (
          <TabRow key={sheet.name} sheet={sheet} oneTab={oneTab} onInclude={onInclude} onHeaderRow={onHeaderRow} />
        ))}
      </ul>
      <p role="status" className="min-h-5 text-sm text-zinc-400">
        {updating ? "Updating the dry run…" : ""}
      </p>
    </Panel>
  );
}

function TabRow({
  sheet,
  oneTab,
  onInclude,
  onHeaderRow,
}: {
  sheet: ImportSheet;
  oneTab: boolean;
  onInclude: (tab: string, included: boolean) => void;
  onHeaderRow: (tab: string, line: number) => void;
}) {
  const id = useId();
  const statusId = `${id}-status`;
  // A header row further down than the rows shown is still a choice (it was found there).
  const rows =
    sheet.headerRow !== null && !sheet.topRows.some((r) => r.line === sheet.headerRow)
      ? [...sheet.topRows, { line: sheet.headerRow, cells: [] }]
      : sheet.topRows;
  const status = tabStatus(sheet);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-white/[0.06] bg-zinc-950/40 p-4 md:flex-row md:items-center md:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        {oneTab ? (
          <p className="font-medium break-words text-white">{sheet.name}</p>
        ) : (
          <label className="flex items-center gap-2.5 font-medium break-words text-white">
            <input
              type="checkbox"
              checked={sheet.included}
              onChange={(e) => onInclude(sheet.name, e.target.checked)}
              aria-describedby={statusId}
              className="size-4 shrink-0 accent-violet-500"
            />
            {sheet.name}
          </label>
        )}
        <p id={statusId} className={sheet.included ? "text-sm text-zinc-400" : "text-sm text-amber-300"}>
          {status}
        </p>
      </div>
      {sheet.included ? (
        <div className="flex min-w-0 flex-col gap-1.5 md:w-96">
          <label htmlFor={`${id}-header`} className="text-sm font-medium text-zinc-200">
            Header row
          </label>
          <Select
            id={`${id}-header`}
            compact
            aria-label={oneTab ? undefined : `Header row of ${sheet.name}`}
            value={sheet.headerRow === null ? "" : String(sheet.headerRow)}
            onChange={(e) => onHeaderRow(sheet.name, Number(e.target.value))}
            className="w-full"
          >
            {sheet.headerRow === null ? (
              <option value="" disabled>
                No header row found: choose one
              </option>
            ) : null}
            {rows.map((r) => (
              <option key={r.line} value={r.line}>
                {rowWords(r)}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
    </li>
  );
}

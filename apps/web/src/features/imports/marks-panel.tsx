import { type ImportPreview, SONG_TAG_LABELS, SONG_TAG_MARKS, SONG_TAGS } from "@unheard/shared";
import { useId } from "react";
import { type Column, DataTable } from "../../ui/data-table";
import { Panel } from "../../ui/page";
import { Select } from "../../ui/select";
import type { ImportLegend, MarkMeaning } from "./imports";

/**
 * The marks found before (or after) titles, one row each: the mark, how many rows carry it, and what it means (a
 * tag, or nothing). A mark the legend does not know has no meaning chosen and is left out until it gets one.
 */
export function MarksPanel({
  step,
  marks,
  legend,
  onChange,
  updating,
}: {
  step: number;
  marks: ImportPreview["marks"];
  legend: ImportLegend;
  onChange: (mark: string, meaning: MarkMeaning) => void;
  updating: boolean;
}) {
  const ids = useId();
  const unknown = marks.filter((m) => legend[m.mark] === undefined).length;
  const hintId = (index: number) => `${ids}-mark-${index}`;
  const columns: Column<ImportPreview["marks"][number] & { index: number }>[] = [
    {
      key: "mark",
      header: "Mark",
      className: "md:w-24",
      rowHeader: true,
      cell: (m) => <span className="text-3xl leading-none">{m.mark}</span>,
    },
    {
      key: "rows",
      header: "Rows",
      className: "md:w-28 tabular-nums text-zinc-300",
      cell: (m) => m.rows.toLocaleString("en-US"),
    },
    {
      key: "meaning",
      header: "Means",
      cell: (m) => {
        const meaning = legend[m.mark];
        return (
          <div className="flex flex-col gap-1.5 md:max-w-xs">
            <Select
              compact
              aria-label={`Meaning of ${m.mark}`}
              aria-describedby={meaning === undefined ? hintId(m.index) : undefined}
              value={meaning ?? ""}
              onChange={(e) => onChange(m.mark, e.target.value as MarkMeaning)}
              className="w-full"
            >
              {meaning === undefined ? (
                <option value="" disabled>
                  Choose a meaning
                </option>
              ) : null}
              {SONG_TAGS.map((t) => (
                <option key={t} value={t}>
                  {`${SONG_TAG_MARKS[t]} ${SONG_TAG_LABELS[t]}`}
                </option>
              ))}
              <option value="ignore">Ignore (leave out)</option>
            </Select>
            {meaning === undefined ? (
              <p id={hintId(m.index)} className="text-xs text-amber-300">
                Not in the legend: left out of {m.rows === 1 ? "its row" : "these rows"}. Choose what it means.
              </p>
            ) : null}
          </div>
        );
      },
    },
  ];
  return (
    <Panel>
      <fieldset className="min-w-0">
        <legend>
          <h2 className="text-lg font-semibold text-white">{step}. Marks</h2>
        </legend>
        <p className="mt-1 text-sm text-zinc-400">
          Marks before or after titles (⭐ Tidewater) become the songs' tags. Set what each of this sheet's marks means,
          as its legend says; the dry run and the import use the same meanings.
        </p>
        <div className="mt-4 flex flex-col gap-3">
          <DataTable
            columns={columns}
            rows={marks.map((m, index) => ({ ...m, index }))}
            rowKey={(m) => m.mark}
            caption="Marks and what they mean"
          />
          <p role="status" className="min-h-5 text-sm text-zinc-400">
            {updating
              ? "Updating the dry run…"
              : unknown > 0
                ? `${unknown} ${unknown === 1 ? "mark is" : "marks are"} not in the legend and left out.`
                : ""}
          </p>
        </div>
      </fieldset>
    </Panel>
  );
}

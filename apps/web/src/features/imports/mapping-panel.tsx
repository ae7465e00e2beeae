import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  type ImportField,
  type ImportPreview,
  type ImportSheet,
} from "@unheard/shared";
import { Button } from "../../ui/button";
import { type Column, DataTable } from "../../ui/data-table";
import { Panel } from "../../ui/page";
import { Select } from "../../ui/select";

/** The mappings of a file's tabs, by tab name. */
export type TabMappings = Record<string, ImportField[]>;

const SOURCE_WORDS: Record<ImportSheet["mappingSource"], string> = {
  given: "the mapping you chose",
  remembered: "the mapping remembered for these columns",
  guessed: "a guess from the column names",
};

const DELIMITER_WORDS = { comma: "comma", tab: "tab", semicolon: "semicolon" } as const;

/**
 * Step 3: each included tab's columns, their sample values and the field each is imported as. A change waits for
 * the Dry run button; the mapping run with is remembered for files with the same header row.
 */
export function MappingPanel({
  preview,
  mappings,
  onChange,
  onDryRun,
  busy,
  stale,
}: {
  preview: ImportPreview;
  mappings: TabMappings;
  onChange: (tab: string, mapping: ImportField[]) => void;
  onDryRun: () => void;
  busy: boolean;
  stale: boolean;
}) {
  const oneTab = preview.sheets.length === 1;
  const sheets = preview.sheets.filter((s) => s.included);
  return (
    <Panel className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-semibold text-white">3. Map the columns</h2>
        <p className="mt-1 text-sm text-zinc-400">
          {oneTab && sheets[0]
            ? `${preview.fileName}: ${sheets[0].columns.length} columns${preview.delimiter ? ` (${DELIMITER_WORDS[preview.delimiter]}-separated)` : ""}, mapped by ${SOURCE_WORDS[sheets[0].mappingSource]}.`
            : `${preview.fileName}: the columns of each tab imported.`}{" "}
          The mapping you run with is remembered for files with the same columns.
        </p>
      </div>
      {sheets.map((sheet) => (
        <TabMapping
          key={sheet.name}
          sheet={sheet}
          oneTab={oneTab}
          mapping={mappings[sheet.name] ?? sheet.columns.map((c) => c.field)}
          onChange={(mapping) => onChange(sheet.name, mapping)}
        />
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant={stale ? "primary" : "secondary"} onClick={onDryRun} loading={busy}>
          Dry run
        </Button>
        {stale ? <span className="text-sm text-amber-300">Run the dry run again to see your changes.</span> : null}
      </div>
    </Panel>
  );
}

function TabMapping({
  sheet,
  oneTab,
  mapping,
  onChange,
}: {
  sheet: ImportSheet;
  oneTab: boolean;
  mapping: ImportField[];
  onChange: (mapping: ImportField[]) => void;
}) {
  // A one-tab file's selects keep their short names ("Import column Type as"); a workbook's say the tab too.
  const where = oneTab ? "" : ` of ${sheet.name}`;
  const columns: Column<ImportSheet["columns"][number]>[] = [
    {
      key: "header",
      header: "Column",
      cell: (c) => <span className="font-medium break-words text-white">{c.header}</span>,
      rowHeader: true,
    },
    {
      key: "samples",
      header: "Sample values",
      cell: (c) => <span className="break-words text-zinc-400">{c.samples.join(" · ") || "—"}</span>,
    },
    {
      key: "field",
      header: "Import as",
      className: "md:w-56",
      cell: (c) => (
        <Select
          compact
          aria-label={`Import column ${c.header}${where} as`}
          value={mapping[c.index] ?? "ignore"}
          onChange={(e) => onChange(mapping.map((f, i) => (i === c.index ? (e.target.value as ImportField) : f)))}
          className="w-full"
        >
          {IMPORT_FIELDS.map((f) => (
            <option key={f} value={f}>
              {IMPORT_FIELD_LABELS[f]}
            </option>
          ))}
        </Select>
      ),
    },
  ];
  const table = (
    <DataTable
      columns={columns}
      rows={sheet.columns}
      rowKey={(c) => String(c.index)}
      caption={oneTab ? "Column mapping" : `Column mapping of ${sheet.name}`}
    />
  );
  if (oneTab) return table;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-semibold break-words text-white">
        {sheet.name}{" "}
        <span className="text-sm font-normal text-zinc-400">
          · header on row {sheet.headerRow ?? "?"}, mapped by {SOURCE_WORDS[sheet.mappingSource]}
        </span>
      </h3>
      {table}
    </div>
  );
}

import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  IMPORT_MESSAGES,
  type ImportBatch,
  type ImportField,
  type ImportOutcome,
  type ImportPreview,
  type ImportRow,
  MESSAGES,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  SONG_TAGS,
} from "@unheard/shared";
import { FileUp, RotateCcw } from "lucide-react";
import { type ChangeEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { AccessDenied } from "../../app/guards";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { type Column, DataTable } from "../../ui/data-table";
import { LoadError, Pill } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import { Select } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { SwitchRow } from "../../ui/switch-row";
import { TextField } from "../../ui/text-field";
import { useMe } from "../accounts/me";
import { formatDateTime } from "../moderation/format";
import {
  type ImportLegend,
  type ImportRequest,
  legendOf,
  type MarkMeaning,
  useImportBatch,
  useImportBatches,
  usePreviewImport,
  useRunImport,
  useUndoImport,
} from "./imports";

/** How long a change of a mark's meaning waits for the next one before the dry run runs again. */
const LEGEND_RERUN_MS = 300;

const OUTCOME_LABELS: Record<ImportOutcome, string> = { create: "Create", update: "Update", skip: "Skip" };
const OUTCOME_TONES = { create: "emerald", update: "violet", skip: "neutral" } as const;
type RowFilter = ImportOutcome | "all" | "warnings";

/** /admin/import (admins holding canBulkImport): bring songs in from a tracker spreadsheet (CSV or TSV). */
export function ImportPage() {
  const { me } = useMe();
  if (!me?.permissions.includes("canBulkImport")) return <AccessDenied message={IMPORT_MESSAGES.noPermission} />;
  return <Importer />;
}

function Importer() {
  const [file, setFile] = useState<File | null>(null);
  const [asVerified, setAsVerified] = useState(false);
  const [defaultArtist, setDefaultArtist] = useState("");
  const [mapping, setMapping] = useState<ImportField[] | null>(null);
  // What each mark before a title means, beside the mapping: the dry run's and the import's alike.
  const [legend, setLegend] = useState<ImportLegend | null>(null);
  // The mapping (and options) differ from those of the dry run on screen: it must run again before importing.
  const [stale, setStale] = useState(false);
  // A mark's meaning changed and the dry run is running again on its own: no import until it shows the change.
  const [legendPending, setLegendPending] = useState(false);
  // The dry run on screen, kept while the next one runs (the panels and their focused select stay put).
  const [result, setResult] = useState<ImportPreview | null>(null);
  const [batchId, setBatchId] = useState<string | undefined>();
  const preview = usePreviewImport();
  const run = useRunImport();
  // Each change or dry run takes the next number; an answer for an older one is dropped (it is out of date).
  const generation = useRef(0);
  const rerunTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(rerunTimer.current), []);

  /**
   * Answers on their way and a dry run waiting to start are for choices that just changed: drop them. (After a
   * change of the mapping or options, the Dry run button runs it again, with the legend too.)
   */
  const invalidate = () => {
    generation.current += 1;
    clearTimeout(rerunTimer.current);
  };

  const request = (f: File, withMapping: ImportField[] | null, withLegend: ImportLegend | null): ImportRequest => ({
    file: f,
    asVerified,
    defaultArtist,
    ...(withMapping ? { mapping: withMapping } : {}),
    ...(withLegend ? { legend: withLegend } : {}),
  });

  const dryRun = async (f: File, withMapping: ImportField[] | null, withLegend: ImportLegend | null) => {
    invalidate();
    const mine = generation.current;
    try {
      const p = await preview.mutateAsync(request(f, withMapping, withLegend));
      if (mine !== generation.current) return;
      setResult(p);
      setMapping(p.columns.map((c) => c.field));
      setLegend(legendOf(p));
      setStale(false);
      setLegendPending(false);
    } catch (err) {
      if (mine !== generation.current) return;
      // What is on screen is the dry run before the change: it must run again (the Dry run button).
      if (result) setStale(true);
      setLegendPending(false);
      handleError(err, "Failed to read the file");
    }
  };

  const chooseFile = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    invalidate();
    setFile(f);
    setMapping(null);
    setLegend(null);
    setResult(null);
    setStale(false);
    setLegendPending(false);
    setBatchId(undefined);
    preview.reset();
    // The first dry run uses the remembered mapping for these headers, else a guess from their names, and the
    // default legend for the marks before titles.
    if (f) void dryRun(f, null, null);
  };

  /** A mark's new meaning: the dry run runs again with it (once the admin stops changing meanings). */
  const changeMeaning = (mark: string, meaning: MarkMeaning) => {
    const next = { ...legend, [mark]: meaning };
    setLegend(next);
    setLegendPending(true);
    invalidate();
    if (!file) return;
    rerunTimer.current = setTimeout(() => void dryRun(file, mapping, next), LEGEND_RERUN_MS);
  };

  const startImport = async () => {
    if (!file || !mapping) return;
    try {
      const batch = await run.mutateAsync(request(file, mapping, legend));
      setBatchId(batch.id);
    } catch (err) {
      handleError(err, "Failed to start the import");
    }
  };

  const hasMarks = (result?.marks.length ?? 0) > 0;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageHeader
        title="Import"
        subtitle="Bring songs in from a tracker spreadsheet: export the sheet as CSV or TSV, check the dry run, import."
      />
      <Panel className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold text-white">1. Choose a file</h2>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
          Tracker file (CSV or TSV)
          <input
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
            onChange={chooseFile}
            className="text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-violet-500 file:px-4 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-(--color-violet-450)"
          />
        </label>
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label="Default artist"
            hint="For rows with no artist (a tracker kept for one artist)."
            value={defaultArtist}
            maxLength={100}
            onChange={(e) => {
              setDefaultArtist(e.target.value);
              setStale(true);
              setLegendPending(false);
              invalidate();
            }}
          />
          <SwitchRow
            label="Import as verified"
            description="Otherwise the songs start pending and the community votes on them."
            checked={asVerified}
            onCheckedChange={setAsVerified}
            className="md:pt-7"
          />
        </div>
        {preview.isPending && !result ? <Spinner /> : null}
      </Panel>

      {result && mapping ? (
        <>
          <MappingPanel
            preview={result}
            mapping={mapping}
            onChange={(next) => {
              setMapping(next);
              setStale(true);
              setLegendPending(false);
              invalidate();
            }}
            onDryRun={() => file && dryRun(file, mapping, legend)}
            busy={preview.isPending}
            stale={stale}
          />
          {hasMarks ? (
            <MarksPanel
              marks={result.marks}
              legend={legend ?? {}}
              onChange={changeMeaning}
              updating={legendPending || (preview.isPending && !stale)}
            />
          ) : null}
          <DryRunPanel
            step={hasMarks ? 4 : 3}
            preview={result}
            stale={stale || legendPending || preview.isPending}
            onImport={startImport}
            busy={run.isPending}
          />
        </>
      ) : null}

      {batchId ? <Progress id={batchId} step={hasMarks ? 5 : 4} /> : null}
      <PastImports />
    </div>
  );
}

function MappingPanel({
  preview,
  mapping,
  onChange,
  onDryRun,
  busy,
  stale,
}: {
  preview: ImportPreview;
  mapping: ImportField[];
  onChange: (mapping: ImportField[]) => void;
  onDryRun: () => void;
  busy: boolean;
  stale: boolean;
}) {
  const source = {
    given: "the mapping you chose",
    remembered: "the mapping remembered for these columns",
    guessed: "a guess from the column names",
  }[preview.mappingSource];
  const columns: Column<ImportPreview["columns"][number]>[] = [
    {
      key: "header",
      header: "Column",
      cell: (c) => <span className="font-medium text-white">{c.header}</span>,
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
          aria-label={`Import column ${c.header} as`}
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
  return (
    <Panel className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-semibold text-white">2. Map the columns</h2>
        <p className="mt-1 text-sm text-zinc-400">
          {preview.fileName}: {preview.columns.length} columns ({preview.delimiter}-separated), mapped by {source}. The
          mapping you run with is remembered for files with the same columns.
        </p>
      </div>
      <DataTable columns={columns} rows={preview.columns} rowKey={(c) => String(c.index)} caption="Column mapping" />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant={stale ? "primary" : "secondary"} onClick={onDryRun} loading={busy}>
          Dry run
        </Button>
        {stale ? <span className="text-sm text-amber-300">Run the dry run again to see your changes.</span> : null}
      </div>
    </Panel>
  );
}

/**
 * The marks found before (or after) titles, one row each: the mark, how many rows carry it, and what it means (a
 * tag, or nothing). A mark the legend does not know has no meaning chosen and is left out until it gets one.
 */
function MarksPanel({
  marks,
  legend,
  onChange,
  updating,
}: {
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
          <h2 className="text-lg font-semibold text-white">3. Marks</h2>
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

function DryRunPanel({
  step,
  preview,
  stale,
  onImport,
  busy,
}: {
  step: number;
  preview: ImportPreview;
  stale: boolean;
  onImport: () => void;
  busy: boolean;
}) {
  const [filter, setFilter] = useState<RowFilter>("all");
  const { summary } = preview;
  const rows = preview.rows.filter((r) =>
    filter === "all" ? true : filter === "warnings" ? r.warnings.length > 0 : r.outcome === filter,
  );
  const shown = rows.slice(0, 500);
  const columns: Column<ImportRow>[] = [
    { key: "line", header: "Row", className: "md:w-16 tabular-nums text-zinc-400", cell: (r) => r.line },
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
    ["Create", summary.create],
    ["Update", summary.update],
    ["Skip", summary.skip],
    ["With warnings", summary.warnings],
  ];
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">{step}. Check the dry run</h2>
      <dl aria-label="Dry run summary" className="grid grid-cols-2 gap-3 md:grid-cols-4">
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
            <option value="create">Created</option>
            <option value="update">Updated</option>
            <option value="skip">Skipped</option>
            <option value="warnings">With warnings</option>
          </Select>
        </div>
        <Button
          icon={<FileUp aria-hidden className="size-4" />}
          onClick={onImport}
          loading={busy}
          disabled={stale || preview.problems.length > 0 || summary.create + summary.update === 0}
        >
          Import {summary.create.toLocaleString("en-US")} new, {summary.update.toLocaleString("en-US")} updated
        </Button>
      </div>
      {shown.length > 0 ? (
        <DataTable columns={columns} rows={shown} rowKey={(r) => String(r.line)} caption="Dry run rows" />
      ) : (
        <p className="text-sm text-zinc-500">No rows to show.</p>
      )}
      {rows.length > shown.length || preview.rowsTruncated ? (
        <p className="text-xs text-zinc-500">Only the first rows are listed; the counts above cover the whole file.</p>
      ) : null}
    </Panel>
  );
}

function Progress({ id, step }: { id: string; step: number }) {
  const batch = useImportBatch(id);
  const b = batch.data;
  if (!b)
    return batch.isError ? (
      <LoadError message="Failed to load the import" onRetry={() => void batch.refetch()} />
    ) : (
      <Spinner />
    );
  const percent = b.totalRows > 0 ? Math.round((b.processedRows / b.totalRows) * 100) : 100;
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">{step}. Import</h2>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuenow={percent}
        className="h-3 overflow-hidden rounded-full bg-zinc-800"
      >
        <div className="h-full rounded-full bg-violet-500 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-zinc-300">
        {b.processedRows.toLocaleString("en-US")} of {b.totalRows.toLocaleString("en-US")} rows
      </p>
      {b.status === "done" ? (
        <Notice tone="success">
          Import finished: {b.createdCount} created, {b.updatedCount} updated, {b.skippedCount} skipped.
          {b.createdSongs.length > 0 ? (
            <span className="mt-2 flex flex-wrap gap-x-3 gap-y-1">
              {b.createdSongs.map((s) => (
                <Link key={s.id} to={`/song/${s.id}`} className="text-violet-200 underline-offset-4 hover:underline">
                  {s.title}
                </Link>
              ))}
            </span>
          ) : null}
        </Notice>
      ) : null}
      {b.status === "failed" ? <Notice tone="error">{b.error ?? "The import stopped with an error."}</Notice> : null}
    </Panel>
  );
}

function PastImports() {
  const batches = useImportBatches();
  const undo = useUndoImport();
  const [target, setTarget] = useState<ImportBatch | null>(null);
  const columns: Column<ImportBatch>[] = [
    {
      key: "file",
      header: "File",
      rowHeader: true,
      cell: (b) => <span className="font-medium break-all text-white">{b.fileName}</span>,
    },
    {
      key: "when",
      header: "When",
      cell: (b) => (
        <span className="text-zinc-400">
          {formatDateTime(b.createdAt)}
          {b.createdBy ? ` · ${b.createdBy.username}` : ""}
        </span>
      ),
    },
    {
      key: "result",
      header: "Result",
      cell: (b) => (
        <span className="text-zinc-300 tabular-nums">
          {b.createdCount} created · {b.updatedCount} updated · {b.skippedCount} skipped
        </span>
      ),
    },
    {
      key: "status",
      header: "Status",
      cell: (b) => (
        <Pill
          tone={
            b.status === "undone"
              ? "neutral"
              : b.status === "failed"
                ? "rose"
                : b.status === "running"
                  ? "amber"
                  : "emerald"
          }
        >
          {{ running: "Running", done: "Done", failed: "Failed", undone: "Undone" }[b.status]}
        </Pill>
      ),
    },
    {
      key: "undo",
      header: <span className="sr-only">Actions</span>,
      label: "",
      cell: (b) =>
        b.status === "done" || b.status === "failed" ? (
          <Button
            variant="ghost"
            size="sm"
            icon={<RotateCcw aria-hidden className="size-4" />}
            onClick={() => setTarget(b)}
            aria-label={`Undo import of ${b.fileName}`}
          >
            Undo
          </Button>
        ) : null,
    },
  ];
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">Past imports</h2>
      {batches.isPending ? <Spinner /> : null}
      {batches.isError ? (
        <LoadError message="Failed to load past imports" onRetry={() => void batches.refetch()} />
      ) : null}
      {batches.data?.length === 0 ? <p className="text-sm text-zinc-500">No imports yet.</p> : null}
      {batches.data && batches.data.length > 0 ? (
        <DataTable columns={columns} rows={batches.data} rowKey={(b) => b.id} caption="Past imports" />
      ) : null}
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title="Undo this import?"
        message={
          target
            ? `The ${target.createdCount} songs it created are deleted (with their votes and likes) and the ${target.updatedCount} songs it updated get their previous details back.`
            : ""
        }
        confirmLabel="Undo import"
        busy={undo.isPending}
        onConfirm={async () => {
          if (!target) return;
          try {
            await undo.mutateAsync(target.id);
            setTarget(null);
            toast.success("Import undone");
          } catch (err) {
            handleError(err, MESSAGES.internal);
          }
        }}
      />
    </Panel>
  );
}

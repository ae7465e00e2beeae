import type { ImportField, ImportPreview } from "@unheard/shared";
import { FileUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { Button } from "../../ui/button";
import { Panel } from "../../ui/page";
import { DryRunTable, manyTabs } from "./dry-run-table";
import { ErasPanel } from "./eras-panel";
import { FileStep } from "./file-step";
import { ImportProgress } from "./import-progress";
import {
  type ImportLegend,
  type ImportRequest,
  legendOf,
  type MarkMeaning,
  usePreviewImport,
  useRunImport,
} from "./imports";
import { MappingPanel, type TabMappings } from "./mapping-panel";
import { MarksPanel } from "./marks-panel";
import { PastImports } from "./past-imports";
import { TabsPanel } from "./tabs-panel";

/** How long a change of a tab or a mark's meaning waits for the next one before the dry run runs again. */
const RERUN_MS = 300;

/** How the file is read, as the admin chose it after the first dry run (which sends none of it). */
type Choices = {
  /** Each included tab's mapping as the dry run showed it (or the admin changed it), by tab name. */
  mappings: TabMappings;
  /** Header rows the admin picked, by tab name. */
  headerRows: Record<string, number>;
  /** The tabs to import; null: those the server finds list songs. */
  tabs: string[] | null;
  /** What each mark means; null: the default legend. */
  legend: ImportLegend | null;
};
const FIRST_READ: Choices = { mappings: {}, headerRows: {}, tabs: null, legend: null };

/** Which panel's change is being dry-run again (it says so in its own status line). */
type Rerun = "tabs" | "marks" | null;

/** The mapping each included tab was read with. */
function mappingsOf(preview: ImportPreview): TabMappings {
  return Object.fromEntries(
    preview.sheets.filter((s) => s.included).map((s) => [s.name, s.columns.map((c) => c.field)]),
  );
}

/** A copy of `record` without `key`. */
function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _, ...rest } = record;
  return rest;
}

/**
 * Importing a tracker file: choose it, check its tabs and header rows, map each tab's columns, give its marks a
 * meaning, check the dry run (with the eras it states), import, and see the progress; past imports below.
 */
export function FileImporter() {
  const [file, setFile] = useState<File | null>(null);
  const [asVerified, setAsVerified] = useState(false);
  const [defaultArtist, setDefaultArtist] = useState("");
  const [choices, setChoices] = useState<Choices>(FIRST_READ);
  // The mapping (or the default artist) differs from the dry run on screen: it must run again before importing.
  const [stale, setStale] = useState(false);
  // A tab, header row or mark changed and the dry run runs again on its own: no import until it shows the change.
  const [rerun, setRerun] = useState<Rerun>(null);
  // The dry run on screen, kept while the next one runs (the panels and their focused controls stay put).
  const [result, setResult] = useState<ImportPreview | null>(null);
  const [batchId, setBatchId] = useState<string | undefined>();
  const preview = usePreviewImport();
  const run = useRunImport();
  // Each change or dry run takes the next number; an answer for an older one is dropped (it is out of date).
  const generation = useRef(0);
  const rerunTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(rerunTimer.current), []);

  /** Answers on their way and a dry run waiting to start are for choices that just changed: drop them. */
  const invalidate = () => {
    generation.current += 1;
    clearTimeout(rerunTimer.current);
  };

  const request = (f: File, c: Choices): ImportRequest => {
    // A CSV (one tab) sends its mapping as `mapping`; a workbook's tabs theirs by name.
    const csvTab = result?.format === "csv" ? result.sheets[0]?.name : undefined;
    const csvMapping = csvTab === undefined ? undefined : c.mappings[csvTab];
    return {
      file: f,
      asVerified,
      defaultArtist,
      headerRows: c.headerRows,
      ...(csvTab === undefined ? { mappings: c.mappings } : csvMapping ? { mapping: csvMapping } : {}),
      ...(c.tabs ? { tabs: c.tabs } : {}),
      ...(c.legend ? { legend: c.legend } : {}),
    };
  };

  const dryRun = async (f: File, c: Choices) => {
    invalidate();
    const mine = generation.current;
    try {
      const p = await preview.mutateAsync(request(f, c));
      if (mine !== generation.current) return;
      setResult(p);
      setChoices({ ...c, mappings: mappingsOf(p), legend: legendOf(p) });
      setStale(false);
      setRerun(null);
    } catch (err) {
      if (mine !== generation.current) return;
      // What is on screen is the dry run before the change: it must run again (the Dry run button).
      if (result) setStale(true);
      setRerun(null);
      handleError(err, "Failed to read the file");
    }
  };

  /** A change that runs the dry run again by itself, after `delay` (the admin may be changing more). */
  const rerunWith = (next: Choices, from: Exclude<Rerun, null>, delay: number) => {
    setChoices(next);
    setRerun(from);
    invalidate();
    if (!file) return;
    rerunTimer.current = setTimeout(() => void dryRun(file, next), delay);
  };

  /** A change that waits for the Dry run button (a mapping, the default artist). */
  const markStale = () => {
    setStale(true);
    setRerun(null);
    invalidate();
  };

  const chooseFile = (f: File | null) => {
    invalidate();
    setFile(f);
    setChoices(FIRST_READ);
    setResult(null);
    setStale(false);
    setRerun(null);
    setBatchId(undefined);
    preview.reset();
    // The first dry run finds each tab's header row, uses the mapping remembered for those headers (else a guess
    // from their names) and the default legend for the marks before titles.
    if (f) void dryRun(f, FIRST_READ);
  };

  const includeTab = (tab: string, on: boolean) => {
    if (!result) return;
    const now = choices.tabs ?? result.sheets.filter((s) => s.included).map((s) => s.name);
    const tabs = on ? [...now.filter((t) => t !== tab), tab] : now.filter((t) => t !== tab);
    // A tab taken in is read with the mapping remembered for its header (or a guess), like on the first dry run.
    rerunWith({ ...choices, tabs, mappings: on ? without(choices.mappings, tab) : choices.mappings }, "tabs", RERUN_MS);
  };

  const pickHeaderRow = (tab: string, line: number) => {
    // Other columns under another header: its mapping is remembered for that header, or guessed afresh.
    const next = {
      ...choices,
      headerRows: { ...choices.headerRows, [tab]: line },
      mappings: without(choices.mappings, tab),
    };
    rerunWith(next, "tabs", 0);
  };

  const changeMeaning = (mark: string, meaning: MarkMeaning) =>
    rerunWith({ ...choices, legend: { ...choices.legend, [mark]: meaning } }, "marks", RERUN_MS);

  const startImport = async () => {
    if (!file) return;
    try {
      const batch = await run.mutateAsync(request(file, choices));
      setBatchId(batch.id);
    } catch (err) {
      handleError(err, "Failed to start the import");
    }
  };

  const hasMarks = (result?.marks.length ?? 0) > 0;
  const dryRunStep = hasMarks ? 5 : 4;
  const summary = result?.summary;

  return (
    <>
      <FileStep
        onFile={chooseFile}
        defaultArtist={defaultArtist}
        onDefaultArtist={(value) => {
          setDefaultArtist(value);
          markStale();
        }}
        asVerified={asVerified}
        onAsVerified={setAsVerified}
        reading={preview.isPending && !result}
      />

      {result && summary ? (
        <>
          <TabsPanel preview={result} onInclude={includeTab} onHeaderRow={pickHeaderRow} updating={rerun === "tabs"} />
          <MappingPanel
            preview={result}
            mappings={choices.mappings}
            onChange={(tab: string, mapping: ImportField[]) => {
              setChoices({ ...choices, mappings: { ...choices.mappings, [tab]: mapping } });
              markStale();
            }}
            onDryRun={() => file && dryRun(file, choices)}
            busy={preview.isPending}
            stale={stale}
          />
          {result.eras.length > 0 ? <ErasPanel eras={result.eras} manyTabs={manyTabs(result)} /> : null}
          {hasMarks ? (
            <MarksPanel
              step={4}
              marks={result.marks}
              legend={choices.legend ?? {}}
              onChange={changeMeaning}
              updating={rerun === "marks"}
            />
          ) : null}
          <Panel className="flex flex-col gap-4">
            <h2 className="text-lg font-semibold text-white">{dryRunStep}. Check the dry run</h2>
            <DryRunTable
              preview={result}
              action={
                <Button
                  icon={<FileUp aria-hidden className="size-4" />}
                  onClick={startImport}
                  loading={run.isPending}
                  disabled={
                    stale ||
                    rerun !== null ||
                    preview.isPending ||
                    result.problems.length > 0 ||
                    summary.create + summary.update === 0
                  }
                >
                  Import {summary.create.toLocaleString("en-US")} new, {summary.update.toLocaleString("en-US")} updated
                </Button>
              }
            />
          </Panel>
        </>
      ) : null}

      {batchId ? <ImportProgress id={batchId} step={dryRunStep + 1} /> : null}
      <PastImports />
    </>
  );
}

import type { ChangeEvent } from "react";
import { Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { SwitchRow } from "../../ui/switch-row";
import { TextField } from "../../ui/text-field";

/** The files the import reads: workbooks and CSV or TSV text. */
const ACCEPT = [
  ".xlsx",
  ".ods",
  ".xls",
  ".csv",
  ".tsv",
  ".txt",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.ms-excel",
  "text/csv",
  "text/tab-separated-values",
  "text/plain",
].join(",");

/** Step 1: the tracker file, and the choices that hold for all its rows (default artist, import as verified). */
export function FileStep({
  onFile,
  defaultArtist,
  onDefaultArtist,
  asVerified,
  onAsVerified,
  reading,
}: {
  onFile: (file: File | null) => void;
  defaultArtist: string;
  onDefaultArtist: (value: string) => void;
  asVerified: boolean;
  onAsVerified: (value: boolean) => void;
  /** The first dry run of the file is on its way. */
  reading: boolean;
}) {
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">1. Choose a file</h2>
      <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
        Tracker file (CSV or TSV) or workbook (.xlsx, .ods, .xls)
        <input
          type="file"
          accept={ACCEPT}
          onChange={(e: ChangeEvent<HTMLInputElement>) => onFile(e.target.files?.[0] ?? null)}
          aria-describedby="import-file-hint"
          className="max-w-full text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-violet-500 file:px-4 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-(--color-violet-450)"
        />
      </label>
      <p id="import-file-hint" className="-mt-2 text-xs text-zinc-500">
        The whole tracker as it is (File → Download → Microsoft Excel), or one tab as CSV. Title and announcement rows
        above the header are fine.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label="Default artist"
          hint="For rows with no artist (a tracker kept for one artist)."
          value={defaultArtist}
          maxLength={100}
          onChange={(e) => onDefaultArtist(e.target.value)}
        />
        <SwitchRow
          label="Import as verified"
          description="Otherwise the songs start pending and the community votes on them."
          checked={asVerified}
          onCheckedChange={onAsVerified}
          className="md:pt-7"
        />
      </div>
      {reading ? <Spinner label="Reading the file" /> : null}
    </Panel>
  );
}

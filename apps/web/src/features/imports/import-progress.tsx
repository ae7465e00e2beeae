import { Link } from "react-router";
import { LoadError } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { useImportBatch } from "./imports";

/** The last step: an import's progress (polled while it runs), then what it did with links to the songs it made. */
export function ImportProgress({ id, step }: { id: string; step: number }) {
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
                <Link
                  key={s.id}
                  to={`/song/${s.id}`}
                  className="text-violet-200 underline decoration-violet-200/40 underline-offset-4 hover:decoration-violet-200"
                >
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

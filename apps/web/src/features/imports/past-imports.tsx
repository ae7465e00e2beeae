import { type ImportBatch, MESSAGES } from "@unheard/shared";
import { RotateCcw } from "lucide-react";
import { useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { formatDateTime } from "../../lib/format";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { type Column, DataTable } from "../../ui/data-table";
import { LoadError, Pill } from "../../ui/list-states";
import { Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { batchCounts, canUndo, STATUS_LABELS, STATUS_TONES } from "./batch-words";
import { useImportBatches, useUndoImport } from "./imports";

/** What undoing a batch does, in words for its confirmation. */
function undoWords(b: ImportBatch): string {
  const base = `The ${b.createdCount} songs it created are deleted (with their votes and likes) and the ${b.updatedCount} songs it updated get their previous details back.`;
  if (b.source !== "sync") return base;
  return `${base} Songs it marked removed from the tracker are back on it, and the link is paused so the next sync does not do it again.`;
}

/** Who started a batch and who approved it: "super · approved by admin"; a sync on schedule has no starter. */
function whoWords(b: ImportBatch): string {
  const by = b.createdBy ? b.createdBy.username : b.source === "sync" ? "on schedule" : "";
  const approved = b.approvedBy ? `approved by ${b.approvedBy.username}` : "";
  return [by, approved].filter(Boolean).join(" · ");
}

/** The newest imports and syncs, each with what it did and its status; one that changed the catalogue can be undone. */
export function PastImports() {
  const batches = useImportBatches();
  const undo = useUndoImport();
  const [target, setTarget] = useState<ImportBatch | null>(null);
  const kind = (b: ImportBatch) => (b.source === "sync" ? "sync" : "import");
  const columns: Column<ImportBatch>[] = [
    {
      key: "file",
      header: "File",
      rowHeader: true,
      cell: (b) => <span className="font-medium break-all text-white">{b.fileName}</span>,
    },
    {
      key: "source",
      header: "Source",
      className: "md:w-24",
      cell: (b) => <span className="text-zinc-300">{b.source === "sync" ? "Sync" : "File"}</span>,
    },
    {
      key: "when",
      header: "When",
      cell: (b) => (
        <span className="text-zinc-400">
          {formatDateTime(b.createdAt)}
          {whoWords(b) ? ` · ${whoWords(b)}` : ""}
        </span>
      ),
    },
    {
      key: "result",
      header: "Result",
      cell: (b) =>
        b.status === "awaiting_approval" || b.status === "rejected" ? (
          <span className="text-zinc-400">{b.holdReason ?? b.error ?? "Nothing applied"}</span>
        ) : (
          <span className="text-zinc-300 tabular-nums">{batchCounts(b)}</span>
        ),
    },
    {
      key: "status",
      header: "Status",
      cell: (b) => <Pill tone={STATUS_TONES[b.status]}>{STATUS_LABELS[b.status]}</Pill>,
    },
    {
      key: "undo",
      header: <span className="sr-only">Actions</span>,
      label: "",
      cell: (b) =>
        canUndo(b) ? (
          <Button
            variant="ghost"
            size="sm"
            icon={<RotateCcw aria-hidden className="size-4" />}
            onClick={() => setTarget(b)}
            aria-label={`Undo ${kind(b)} of ${b.fileName}`}
          >
            Undo
          </Button>
        ) : null,
    },
  ];
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-white">Past imports and syncs</h2>
      {batches.isPending ? <Spinner /> : null}
      {batches.isError ? (
        <LoadError message="Failed to load past imports" onRetry={() => void batches.refetch()} />
      ) : null}
      {batches.data?.length === 0 ? <p className="text-sm text-zinc-500">No imports yet.</p> : null}
      {batches.data && batches.data.length > 0 ? (
        <DataTable columns={columns} rows={batches.data} rowKey={(b) => b.id} caption="Past imports and syncs" />
      ) : null}
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={target?.source === "sync" ? "Undo this sync?" : "Undo this import?"}
        message={target ? undoWords(target) : ""}
        confirmLabel={target?.source === "sync" ? "Undo sync" : "Undo import"}
        busy={undo.isPending}
        onConfirm={async () => {
          if (!target) return;
          try {
            await undo.mutateAsync(target.id);
            toast.success(target.source === "sync" ? "Sync undone" : "Import undone");
            setTarget(null);
          } catch (err) {
            handleError(err, MESSAGES.internal);
          }
        }}
      />
    </Panel>
  );
}

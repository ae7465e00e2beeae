import type { TrackerLink } from "@unheard/shared";
import { Check, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useRef } from "react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { DialogHeader } from "../../ui/dialog-frame";
import { LoadError } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { Spinner } from "../../ui/spinner";
import { BusyIcon } from "./busy-icon";
import { DryRunTable } from "./dry-run-table";
import { useImportBatch } from "./imports";
import { useDecideSync } from "./tracker-links";

/**
 * A sync waiting for approval: its dry run (the import page's table, from the batch's stored preview) with Approve
 * and Reject. A dialog as wide as the table needs; like DialogFrame, it gives focus back to the button that opened
 * it (Radix gives it to a Dialog.Trigger only).
 */
export function ReviewDialog({
  link,
  open,
  onOpenChange,
  onDecided,
}: {
  link: TrackerLink;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After an approval or a rejection (the Review button that opened the dialog goes with the pending sync). */
  onDecided?: () => void;
}) {
  const opener = useRef<HTMLElement | null>(null);
  const batchId = link.pendingBatch?.id;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            opener.current = null;
            if (back?.isConnected) {
              event.preventDefault();
              back.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-white/10 bg-zinc-900 p-5 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out] md:p-6"
        >
          <DialogHeader
            title={`Review the sync of ${link.artist.name}'s tracker`}
            description={link.pendingBatch?.holdReason ?? "This sync waits for your approval."}
            className="mb-4"
          />
          {batchId ? (
            <ReviewBody
              batchId={batchId}
              link={link}
              onDone={() => {
                onOpenChange(false);
                onDecided?.();
              }}
            />
          ) : (
            <p className="text-sm text-zinc-400">Nothing waits for approval any more.</p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ReviewBody({ batchId, link, onDone }: { batchId: string; link: TrackerLink; onDone: () => void }) {
  const batch = useImportBatch(batchId);
  const decide = useDecideSync();
  const deciding = decide.isPending ? decide.variables?.approve : undefined;

  const act = async (approve: boolean) => {
    try {
      const done = await decide.mutateAsync({ batchId, approve });
      toast.success(
        approve
          ? done.status === "running"
            ? "Sync approved: it is being applied"
            : `Sync approved: ${done.createdCount} created, ${done.updatedCount} updated`
          : "Sync rejected: nothing was applied",
      );
      onDone();
    } catch (err) {
      handleError(err, approve ? "Failed to approve the sync" : "Failed to reject the sync");
    }
  };

  if (batch.isPending) return <Spinner label="Loading the dry run" />;
  if (batch.isError)
    return (
      <LoadError
        message="Failed to load the dry run"
        onRetry={() => void batch.refetch()}
        retrying={batch.isRefetching}
      />
    );
  const { preview } = batch.data;
  const waiting = batch.data.status === "awaiting_approval";
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-zinc-300">
        Fetched from <span className="break-all text-zinc-100">{link.sourceUrl}</span>.{" "}
        {link.asVerified ? "New songs are imported as verified." : "New songs start pending."}
      </p>
      {!waiting ? <Notice tone="info">This sync no longer waits for approval.</Notice> : null}
      {preview ? (
        <DryRunTable preview={preview} />
      ) : (
        <p className="text-sm text-zinc-400">The dry run of this sync is not available.</p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {/* Busy buttons stay focusable (aria-disabled): focus must not fall to the page while the answer comes. */}
        <Button
          variant="secondary"
          icon={deciding === false ? <BusyIcon /> : <X aria-hidden className="size-4" />}
          onClick={() => {
            if (!decide.isPending) void act(false);
          }}
          aria-disabled={decide.isPending || undefined}
          disabled={!waiting}
        >
          Reject
        </Button>
        <Button
          icon={deciding === true ? <BusyIcon /> : <Check aria-hidden className="size-4" />}
          onClick={() => {
            if (!decide.isPending) void act(true);
          }}
          aria-disabled={decide.isPending || undefined}
          disabled={!waiting}
        >
          Approve and apply
        </Button>
      </div>
    </div>
  );
}

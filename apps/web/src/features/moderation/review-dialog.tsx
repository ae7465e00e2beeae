import { type EditSuggestion, MESSAGES } from "@unheard/shared";
import { Check, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useState } from "react";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { DialogHeader } from "../../ui/dialog-frame";
import { Notice } from "../../ui/notice";
import { TextArea } from "../../ui/text-area";
import { SUGGESTION_FIELDS, suggestionValue } from "./format";
import { useReviewSuggestion } from "./moderation";
import { SuggestionCompare } from "./suggestion-compare";

/**
 * The Review dialog of an edit suggestion: optional notes, Reject or Approve. When the song changed
 * since the suggestion (known up front, or learnt from the server's 409), approving needs a deliberate
 * 'Approve anyway' after the current values are shown, so newer edits are never overwritten silently.
 */
export function ReviewDialog({
  suggestion,
  open,
  onOpenChange,
  onStale,
}: {
  suggestion: EditSuggestion;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called when the server says the song changed meanwhile (the list should reload its current values). */
  onStale: () => void;
}) {
  const [notes, setNotes] = useState("");
  const [staleSeen, setStaleSeen] = useState(false);
  const review = useReviewSuggestion();
  const stale = suggestion.stale || staleSeen;
  // Approving writes the whole Suggested column, so a newer edit to these fields would be undone.
  const { current, original, suggested } = suggestion;
  const undone = current
    ? SUGGESTION_FIELDS.filter(
        ({ key }) =>
          suggestionValue(current, key) !== suggestionValue(original, key) &&
          suggestionValue(current, key) !== suggestionValue(suggested, key),
      ).map((f) => f.label)
    : [];

  const submit = (action: "approve" | "reject") => {
    review.mutate(
      {
        id: suggestion.id,
        songId: suggestion.songId,
        action,
        notes: notes.trim(),
        overrideNewerEdits: action === "approve" && stale,
      },
      {
        onSuccess: (res) => {
          toast.success(
            res.message ?? (action === "approve" ? MESSAGES.suggestionApproved : MESSAGES.suggestionRejected),
          );
          onOpenChange(false);
        },
        onError: (err) => {
          if (
            action === "approve" &&
            isApiError(err) &&
            err.status === 409 &&
            err.message === MESSAGES.suggestionStale
          ) {
            setStaleSeen(true);
            onStale();
            toast.warning(MESSAGES.suggestionStale);
            return;
          }
          handleError(err, action === "approve" ? MESSAGES.suggestionApproveFailed : MESSAGES.suggestionRejectFailed);
        },
      },
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !review.isPending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content className="fixed inset-x-3 top-1/2 z-50 mx-auto flex max-h-[calc(100dvh-1.5rem)] max-w-2xl -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-white/10 bg-zinc-950 shadow-2xl shadow-black/60 focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out]">
          <DialogHeader
            title="Review edit suggestion"
            description={`${suggestion.original.title} · suggested by ${suggestion.submittedBy.username}`}
            className="border-b border-white/[0.06] px-5 py-4"
          />
          <div className="flex flex-col gap-4 overflow-y-auto px-5 py-4">
            {stale ? (
              <Notice tone="error">
                {MESSAGES.suggestionStale}
                {undone.length > 0 ? (
                  <span className="mt-1 block">
                    Approving anyway sets the song to the Suggested column, which undoes the newer change to:{" "}
                    <span className="font-medium">{undone.join(", ")}</span>.
                  </span>
                ) : null}
              </Notice>
            ) : null}
            <SuggestionCompare
              original={suggestion.original}
              suggested={suggestion.suggested}
              current={stale ? suggestion.current : null}
              changedFields={suggestion.changedFields}
            />
            <div className="rounded-xl border border-white/[0.06] bg-white/[0.02] px-3.5 py-3 text-sm">
              <p className="text-xs font-medium uppercase tracking-wider text-zinc-500">Reason</p>
              <p className="mt-1 whitespace-pre-line break-words text-zinc-200">{suggestion.reason}</p>
            </div>
            <TextArea
              label="Notes (optional)"
              rows={3}
              maxLength={1000}
              placeholder="Anything the team should know about this decision"
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
            />
          </div>
          <div className="flex flex-col-reverse gap-2 border-t border-white/[0.06] px-5 py-4 sm:flex-row sm:justify-end">
            <Button
              variant="danger"
              icon={<X aria-hidden className="size-4" />}
              loading={review.isPending && review.variables?.action === "reject"}
              disabled={review.isPending}
              onClick={() => submit("reject")}
            >
              Reject
            </Button>
            <Button
              icon={<Check aria-hidden className="size-4" />}
              loading={review.isPending && review.variables?.action === "approve"}
              disabled={review.isPending}
              onClick={() => submit("approve")}
            >
              {stale ? "Approve anyway" : "Approve"}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

import { DOWNVOTE_REASONS, MESSAGES } from "@unheard/shared";
import { ReasonDialog } from "../../ui/reason-dialog";

/** Why the user downvotes (spec §5: a reason is required, details optional). */
export function DownvoteDialog({
  open,
  onOpenChange,
  songTitle,
  submitting,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  songTitle: string;
  submitting: boolean;
  onSubmit: (input: { reason: string; details: string }) => Promise<boolean>;
}) {
  return (
    <ReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Downvote song"
      description={<>What is wrong with “{songTitle}”?</>}
      reasons={DOWNVOTE_REASONS}
      reasonRequiredMessage={MESSAGES.downvoteReasonRequired}
      submitLabel="Downvote"
      submitting={submitting}
      onSubmit={onSubmit}
    />
  );
}

import { MESSAGES, REPORT_REASONS, type Song } from "@unheard/shared";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { ReasonDialog } from "../../ui/reason-dialog";
import { useLoginPrompt } from "../accounts/login-prompt";
import { useReportSong } from "./songs";

/** Report a song to the moderators: reason radios plus optional details (spec §2, §5). */
export function ReportDialog({
  song,
  open,
  onOpenChange,
}: {
  song: Song;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const report = useReportSong();
  const promptLogin = useLoginPrompt();
  return (
    <ReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Report song"
      description={<>Tell the moderators what is wrong with “{song.title}”.</>}
      reasons={REPORT_REASONS}
      reasonRequiredMessage={MESSAGES.reportReasonRequired}
      submitLabel="Submit report"
      submitting={report.isPending}
      onSubmit={async ({ reason, details }) => {
        try {
          const res = await report.mutateAsync({ id: song.id, reason, details });
          toast.success(res.message ?? MESSAGES.reportSent);
          return true;
        } catch (err) {
          if (isApiError(err) && err.status === 401) {
            promptLogin(MESSAGES.loginToReport);
            return true;
          }
          handleError(err, MESSAGES.reportFailed);
          // Already reported or not allowed: nothing to retry in the dialog.
          return isApiError(err) && (err.status === 403 || err.status === 409 || err.status === 404);
        }
      }}
    />
  );
}

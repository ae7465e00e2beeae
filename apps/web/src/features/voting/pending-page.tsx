import { MESSAGES, VERIFICATION_THRESHOLD } from "@unheard/shared";
import { CheckCheck, Inbox } from "lucide-react";
import { useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { PageHeader } from "../../ui/page";
import { useMe } from "../accounts/me";
import { DeleteSongButton, VerifyButton } from "../songs/song-admin-actions";
import { EmptyState, SongGrid, songsOf } from "../songs/song-grid";
import { usePendingSongs } from "../songs/songs";
import { useVerifyAll } from "./votes";

// The spec has no wording for a failed load of this list.
const PENDING_FAILED = "Could not load pending songs";

/** /pending: songs waiting for votes, in verification mode; admins verify, super admins verify all and delete. */
export function PendingPage() {
  const { me } = useMe();
  const pending = usePendingSongs();
  const verifyAll = useVerifyAll();
  const [confirmAll, setConfirmAll] = useState(false);
  const hasSongs = songsOf(pending).length > 0;

  const onVerifyAll = async () => {
    try {
      const res = await verifyAll.mutateAsync();
      setConfirmAll(false);
      toast.success(res.message ?? MESSAGES.allVerified);
    } catch (err) {
      handleError(err, MESSAGES.verifyAllFailed);
    }
  };

  return (
    <>
      <PageHeader
        title="Pending Songs"
        subtitle={`Vote on songs waiting for verification. A song is verified at a net of ${VERIFICATION_THRESHOLD} votes.`}
        actions={
          me?.isSuperAdmin ? (
            <Button
              icon={<CheckCheck aria-hidden className="size-4" />}
              onClick={() => setConfirmAll(true)}
              disabled={!hasSongs}
            >
              Verify All Songs
            </Button>
          ) : null
        }
      />
      <SongGrid
        headingLevel={2}
        query={pending}
        mode="verify"
        errorMessage={PENDING_FAILED}
        skeletonCount={8}
        actions={(song) =>
          me?.isAdmin ? (
            <>
              <VerifyButton song={song} />
              {me.isSuperAdmin ? <DeleteSongButton song={song} /> : null}
            </>
          ) : null
        }
        empty={
          <EmptyState icon={<Inbox aria-hidden className="size-5" />} title={MESSAGES.noPendingSongs}>
            New uploads wait here until the community has checked them.
          </EmptyState>
        }
      />
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Verify all songs?"
        message="Every pending song becomes verified at once and appears on the home feeds."
        confirmLabel="Verify All"
        tone="primary"
        busy={verifyAll.isPending}
        onConfirm={onVerifyAll}
      />
    </>
  );
}

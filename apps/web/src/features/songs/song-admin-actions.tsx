import { MESSAGES, type Song } from "@unheard/shared";
import { ShieldCheck, Trash2 } from "lucide-react";
import { useState } from "react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { useVerifySong } from "../voting/votes";
import { useDeleteSong } from "./songs";

/** Admin: verify a pending song directly ('Song verified successfully'). */
export function VerifyButton({ song, size = "sm" }: { song: Song; size?: "sm" | "md" }) {
  const verify = useVerifySong();
  return (
    <Button
      variant="secondary"
      size={size}
      loading={verify.isPending}
      icon={<ShieldCheck aria-hidden className="size-4 text-emerald-300" />}
      onClick={async () => {
        // Awaited: the pending card leaves the grid once the song is verified.
        try {
          await verify.mutateAsync(song);
          toast.success(MESSAGES.songVerified);
        } catch (err) {
          handleError(err, MESSAGES.verifyFailed);
        }
      }}
    >
      Verify
    </Button>
  );
}

/** Super admin: delete a song after the spec's confirmation; `onDeleted` runs after the toast. */
export function DeleteSongButton({
  song,
  size = "sm",
  onDeleted,
}: {
  song: Song;
  size?: "sm" | "md";
  onDeleted?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteSong();
  return (
    <>
      <Button
        variant="ghost"
        size={size}
        className="text-rose-300 hover:bg-rose-500/10 hover:text-rose-200"
        icon={<Trash2 aria-hidden className="size-4" />}
        onClick={() => setOpen(true)}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete “${song.title}”?`}
        message={MESSAGES.deleteConfirm}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={async () => {
          // The awaited form: the card may unmount as soon as the lists drop the song.
          try {
            const res = await remove.mutateAsync(song.id);
            setOpen(false);
            toast.success(res.message ?? MESSAGES.songDeleted);
            onDeleted?.();
          } catch (err) {
            handleError(err, MESSAGES.songDeleteFailed);
          }
        }}
      />
    </>
  );
}

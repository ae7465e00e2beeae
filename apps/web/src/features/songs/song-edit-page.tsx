import { MESSAGES, type Song } from "@unheard/shared";
import { Save } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { useNavigate, useParams } from "react-router";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { FormActions, SubmitButton } from "../../ui/form-actions";
import { BackNotice, Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { FormTextArea } from "../../ui/text-area";
import { useMe } from "../accounts/me";
import {
  editFormFromSong,
  editFormResolver,
  formPath,
  SONG_FORM_FIELDS,
  type SongFormValues,
  toEditInput,
} from "./song-form";
import { SongFields } from "./song-form-fields";
import { useEditSong, useSong } from "./songs";

/** /songs/:id/edit: owners and admins change a song directly; verified contributors' edits go to review. */
export function SongEditPage() {
  const { id = "" } = useParams();
  const song = useSong(id);
  const notFound = isApiError(song.error) && song.error.status === 404;
  // The form starts from the song as the server has it now, not from a list's older copy.
  const fresh = song.data && !song.isPlaceholderData ? song.data : undefined;

  let body: ReactNode;
  if (notFound) body = <SongBackNotice id={null} message={MESSAGES.songNotFound} />;
  else if (song.isError && !fresh) body = <SongBackNotice id={id} message={MESSAGES.songLoadFailed} />;
  else if (!fresh) body = <Spinner label="Loading song" />;
  else if (!fresh.canEdit) body = <SongBackNotice id={id} message={MESSAGES.editNoPermission} />;
  else body = <EditForm song={fresh} />;

  return (
    <>
      <PageHeader
        title="Edit Song"
        subtitle={fresh ? <>Correct the details of “{fresh.title}”.</> : "Correct this song's details."}
      />
      {body}
    </>
  );
}

/** Why the form is not shown, with the way back to the song (or home, when there is no song). */
function SongBackNotice({ id, message }: { id: string | null; message: string }) {
  return (
    <BackNotice to={id ? `/song/${encodeURIComponent(id)}` : "/"} label={id ? "Back to song" : "Go Home"}>
      {message}
    </BackNotice>
  );
}

function EditForm({ song }: { song: Song }) {
  const { me } = useMe();
  const navigate = useNavigate();
  const edit = useEditSong(song.id);
  const form = useForm<SongFormValues>({ resolver: editFormResolver, defaultValues: editFormFromSong(song) });
  const [forbidden, setForbidden] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const { isSubmitting } = form.formState;
  // Verified contributors may edit others' songs only through review (the owner's own edits apply).
  const reviewed = me?.role === "verified_contributor" && !song.isOwner;
  const songPath = `/song/${encodeURIComponent(song.id)}`;

  const onSubmit = form.handleSubmit(async (values) => {
    setConflict(null);
    try {
      const result = await edit.mutateAsync(toEditInput(values));
      toast.success(result.message);
      await navigate(songPath);
    } catch (err) {
      if (isApiError(err) && err.status === 403) {
        setForbidden(true);
        toast.error(err.message || MESSAGES.editNoPermission);
        return;
      }
      if (isApiError(err) && err.status === 409) {
        setConflict(err.message);
        toast.error(err.message);
        return;
      }
      let placed = false;
      if (isApiError(err)) {
        for (const [name, message] of Object.entries(err.fields ?? {})) {
          if (!(SONG_FORM_FIELDS as readonly string[]).includes(name)) continue;
          form.setError(
            formPath([name]) as Path<SongFormValues>,
            { type: "server", message },
            { shouldFocus: !placed },
          );
          placed = true;
        }
      }
      handleError(placed ? undefined : err, MESSAGES.editFailed);
    }
  });

  if (forbidden) return <SongBackNotice id={song.id} message={MESSAGES.editNoPermission} />;

  return (
    <Panel className="max-w-3xl">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
        {reviewed ? <Notice tone="info">{MESSAGES.editReviewLabel}</Notice> : null}
        {conflict ? <Notice tone="error">{conflict}</Notice> : null}
        <SongFields form={form} disabled={isSubmitting} />
        <FormTextArea
          form={form}
          name="comment"
          label="Comment"
          rows={3}
          placeholder="What did you change, and why?"
          hint="Required. Shown in the song's history."
          maxLength={1000}
          disabled={isSubmitting}
        />
        <FormActions cancel={songPath} className="border-t border-white/[0.06] pt-5">
          <SubmitButton pending={isSubmitting} icon={<Save aria-hidden className="size-4" />}>
            {reviewed ? "Submit for review" : "Save changes"}
          </SubmitButton>
        </FormActions>
      </form>
    </Panel>
  );
}

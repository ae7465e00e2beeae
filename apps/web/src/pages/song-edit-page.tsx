import { MESSAGES, type Song } from "@unheard/shared";
import { Save } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { useNavigate, useParams } from "react-router";
import { isApiError } from "../api/api";
import { handleError } from "../api/handle-error";
import { useMe } from "../api/me";
import { useEditSong, useSong } from "../api/songs";
import { Button, LinkButton } from "../components/button";
import { Notice } from "../components/notice";
import { PageHeader, Panel } from "../components/page";
import { SongFields, TextAreaField } from "../components/song-form-fields";
import { Spinner } from "../components/spinner";
import {
  editFormFromSong,
  editFormResolver,
  formPath,
  SONG_FORM_FIELDS,
  type SongFormValues,
  toEditInput,
} from "../lib/song-form";
import { toast } from "../lib/toast";

/** /songs/:id/edit: owners and admins change a song directly; verified contributors' edits go to review. */
export function SongEditPage() {
  const { id = "" } = useParams();
  const song = useSong(id);
  const notFound = isApiError(song.error) && song.error.status === 404;
  // The form starts from the song as the server has it now, not from a list's older copy.
  const fresh = song.data && !song.isPlaceholderData ? song.data : undefined;

  let body: ReactNode;
  if (notFound) body = <BackNotice id={null} message={MESSAGES.songNotFound} />;
  else if (song.isError && !fresh) body = <BackNotice id={id} message={MESSAGES.songLoadFailed} />;
  else if (!fresh) body = <Spinner label="Loading song" />;
  else if (!fresh.canEdit) body = <BackNotice id={id} message={MESSAGES.editNoPermission} />;
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

function BackNotice({ id, message }: { id: string | null; message: string }) {
  return (
    <Notice
      tone="error"
      action={
        <LinkButton to={id ? `/song/${encodeURIComponent(id)}` : "/"} variant="secondary" size="sm">
          {id ? "Back to song" : "Go Home"}
        </LinkButton>
      }
    >
      {message}
    </Notice>
  );
}

function EditForm({ song }: { song: Song }) {
  const { me } = useMe();
  const navigate = useNavigate();
  const edit = useEditSong(song.id);
  const form = useForm<SongFormValues>({ resolver: editFormResolver, defaultValues: editFormFromSong(song) });
  const [forbidden, setForbidden] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
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

  if (forbidden) return <BackNotice id={song.id} message={MESSAGES.editNoPermission} />;

  return (
    <Panel className="max-w-3xl">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
        {reviewed ? <Notice tone="info">{MESSAGES.editReviewLabel}</Notice> : null}
        {conflict ? <Notice tone="error">{conflict}</Notice> : null}
        <SongFields form={form} disabled={isSubmitting} />
        <TextAreaField
          label="Comment"
          placeholder="What did you change, and why?"
          hint="Required. Shown in the song's history."
          maxLength={1000}
          disabled={isSubmitting}
          error={errors.comment?.message}
          {...form.register("comment")}
        />
        <div className="flex flex-col-reverse gap-2 border-t border-white/[0.06] pt-5 sm:flex-row sm:justify-end">
          <LinkButton to={songPath} variant="ghost">
            Cancel
          </LinkButton>
          <Button type="submit" loading={isSubmitting} icon={<Save aria-hidden className="size-4" />}>
            {reviewed ? "Submit for review" : "Save changes"}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

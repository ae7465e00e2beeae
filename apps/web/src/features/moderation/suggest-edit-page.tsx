import { useQuery } from "@tanstack/react-query";
import {
  LEAK_FIELDS,
  type LeakField,
  leakDetailsSchema,
  MESSAGES,
  type Song,
  type SuggestEditInput,
  suggestEditSchema,
  TOAST_REDIRECT_DELAY_MS,
} from "@unheard/shared";
import { ArrowLeft, Trash2 } from "lucide-react";
import { type FieldErrors, type Resolver, useFieldArray, useForm } from "react-hook-form";
import { Link, useNavigate, useParams } from "react-router";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { sleep } from "../../lib/sleep";
import { toast } from "../../lib/toast";
import { LinkButton } from "../../ui/button";
import { FormActions, SubmitButton } from "../../ui/form-actions";
import { FormTextField } from "../../ui/form-fields";
import { LoadError, Pill } from "../../ui/list-states";
import { BackNotice, Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import { FormSelectField } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { FormTextArea } from "../../ui/text-area";
import { LeakFields } from "../songs/leak-fields";
import { AddArtistButton, GenreOptions } from "../songs/song-field-parts";
import { leakFormFromSong, leakInput, MAX_ARTISTS } from "../songs/song-form";
import { suggestEditSongQuery, useSuggestEdit } from "./moderation";

const NOTHING_CHANGED = "Change at least one field to suggest an edit.";

/** The form's own shape: the primary artist apart, additional artists as rows that can be removed. */
type SuggestForm = {
  title: string;
  primaryArtist: string;
  additionalArtists: { name: string }[];
  genre: string;
  releaseDate: string;
  soundcloudUrl: string;
  reason: string;
} & ReturnType<typeof leakFormFromSong>;

type FieldName = "title" | "primaryArtist" | "genre" | "releaseDate" | "soundcloudUrl" | "reason" | LeakField;

function toInput(v: SuggestForm): SuggestEditInput {
  return {
    title: v.title,
    artists: [v.primaryArtist, ...v.additionalArtists.map((a) => a.name)],
    genre: v.genre as SuggestEditInput["genre"],
    releaseDate: v.releaseDate,
    soundcloudUrl: v.soundcloudUrl,
    ...leakInput(v),
    reason: v.reason,
  };
}

/** The form field an API or schema error on `path` belongs to. */
function fieldFor(path: readonly PropertyKey[]): FieldName | `additionalArtists.${number}.name` | undefined {
  const [head, index] = path;
  if (head === "artists") {
    return typeof index === "number" && index > 0 ? `additionalArtists.${index - 1}.name` : "primaryArtist";
  }
  const names: FieldName[] = ["title", "genre", "releaseDate", "soundcloudUrl", "reason", ...LEAK_FIELDS];
  return names.find((n) => n === head);
}

function formFor(song: Song): SuggestForm {
  return {
    title: song.title,
    primaryArtist: song.artists[0]?.name ?? "",
    additionalArtists: song.artists.slice(1).map((a) => ({ name: a.name })),
    genre: song.genre,
    releaseDate: song.releaseDate ?? "",
    soundcloudUrl: song.soundcloudUrl ?? "",
    ...leakFormFromSong(song),
    reason: "",
  };
}

/** True when the checked suggestion would leave the song exactly as it is. */
function changesNothing(song: Song, s: ReturnType<typeof suggestEditSchema.parse>): boolean {
  const artists = song.artists.map((a) => a.name);
  const leak = leakDetailsSchema.parse(leakInput(leakFormFromSong(song)));
  return (
    LEAK_FIELDS.every((f) => JSON.stringify(s[f]) === JSON.stringify(leak[f])) &&
    s.title === song.title &&
    s.genre === song.genre &&
    (s.releaseDate ?? null) === (song.releaseDate ?? null) &&
    (s.soundcloudUrl ?? null) === (song.soundcloudUrl ?? null) &&
    s.artists.length === artists.length &&
    s.artists.every((name, i) => name === artists[i])
  );
}

/** Checks the form with the shared schema; the primary artist must be filled in itself. */
function resolverFor(song: Song): Resolver<SuggestForm, unknown, SuggestEditInput> {
  return async (values) => {
    const errors: FieldErrors<SuggestForm> = {};
    const parsed = suggestEditSchema.safeParse(toInput(values));
    if (!values.primaryArtist.trim()) {
      errors.primaryArtist = { type: "validate", message: MESSAGES.uploadRequiredFields };
    }
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldFor(issue.path);
        if (!field) continue;
        if (field.startsWith("additionalArtists.")) {
          const i = Number(field.split(".")[1]);
          const list = (errors.additionalArtists ?? []) as { name?: { type: string; message: string } }[];
          list[i] ??= { name: { type: "validate", message: issue.message } };
          errors.additionalArtists = list as FieldErrors<SuggestForm>["additionalArtists"];
        } else if (!errors[field as FieldName]) {
          errors[field as FieldName] = { type: "validate", message: issue.message };
        }
      }
    } else if (changesNothing(song, parsed.data)) {
      // A form-wide message: no single field is wrong.
      errors.root = { type: "validate", message: NOTHING_CHANGED } as FieldErrors<SuggestForm>["root"];
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors };
    return { values: toInput(values), errors: {} };
  };
}

/** /songs/:id/suggest-edit (signed in): propose corrections to a song for an admin to review. */
export function SuggestEditPage() {
  const { id } = useParams();
  if (!id) {
    return (
      <>
        <PageHeader title="Suggest an Edit" />
        <Notice tone="error">{MESSAGES.suggestionSongMissing}</Notice>
      </>
    );
  }
  return <SuggestEditLoader id={id} />;
}

function SuggestEditLoader({ id }: { id: string }) {
  const song = useQuery(suggestEditSongQuery(id));
  if (song.isPending) {
    return (
      <>
        <PageHeader title="Suggest an Edit" />
        <Spinner label="Loading song" />
      </>
    );
  }
  if (song.isError) {
    const notFound = isApiError(song.error) && song.error.status === 404;
    return (
      <>
        <PageHeader title="Suggest an Edit" />
        {notFound ? (
          <BackNotice to="/" label="Back to Home">
            {MESSAGES.songNotFound}
          </BackNotice>
        ) : (
          <LoadError message={MESSAGES.songLoadFailed} onRetry={() => void song.refetch()} retrying={song.isFetching} />
        )}
      </>
    );
  }
  // Keyed by version, so a form opened on an older version starts again from the current values.
  return <SuggestEditForm key={`${song.data.id}:${song.data.version}`} song={song.data} />;
}

function SuggestEditForm({ song }: { song: Song }) {
  const navigate = useNavigate();
  const suggest = useSuggestEdit(song.id);
  const form = useForm<SuggestForm, unknown, SuggestEditInput>({
    resolver: resolverFor(song),
    defaultValues: formFor(song),
  });
  const artists = useFieldArray({ control: form.control, name: "additionalArtists" });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  const songPath = `/song/${song.id}`;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const res = await suggest.mutateAsync(input);
      toast.success(res.message ?? MESSAGES.suggestionSent);
    } catch (err) {
      let focused = false;
      if (isApiError(err) && err.fields) {
        for (const [name, message] of Object.entries(err.fields)) {
          const field = fieldFor([name]);
          if (!field) continue;
          form.setError(field, { type: "server", message }, { shouldFocus: !focused });
          focused = true;
        }
      }
      handleError(focused ? undefined : err, MESSAGES.suggestionFailed);
      return;
    }
    await sleep(TOAST_REDIRECT_DELAY_MS);
    await navigate(songPath);
  });

  const changed = (name: Exclude<FieldName, "reason">) =>
    dirtyFields[name] ? <Pill tone="violet">Changed</Pill> : null;

  return (
    <>
      <PageHeader
        title="Suggest an Edit"
        subtitle={
          <>
            Propose corrections to <span className="font-medium text-zinc-200">{song.title}</span>. An admin reviews
            every suggestion before it changes the song.
          </>
        }
        actions={
          <LinkButton to={songPath} variant="ghost" size="sm">
            <ArrowLeft aria-hidden className="size-4" /> Back to song
          </LinkButton>
        }
      />
      {song.canEdit ? (
        <Notice tone="info" className="mb-5">
          You can change this song directly.{" "}
          <Link to={`/songs/${song.id}/edit`} className="font-medium underline underline-offset-4">
            Edit it instead
          </Link>
        </Notice>
      ) : null}
      <Panel className="max-w-3xl">
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <FormTextField form={form} name="title" label="Title" autoComplete="off" labelAside={changed("title")} />

          <fieldset className="flex flex-col gap-3">
            <legend className="sr-only">Artists</legend>
            <FormTextField
              form={form}
              name="primaryArtist"
              label="Primary Artist"
              autoComplete="off"
              labelAside={changed("primaryArtist")}
            />
            {artists.fields.map((row, i) => (
              <div key={row.id} className="flex items-end gap-2">
                <FormTextField
                  className="flex-1"
                  form={form}
                  name={`additionalArtists.${i}.name`}
                  label={`Additional Artist ${i + 1}`}
                  autoComplete="off"
                />
                <button
                  type="button"
                  aria-label={`Remove additional artist ${i + 1}`}
                  onClick={() => artists.remove(i)}
                  className="mb-0.5 grid size-10 shrink-0 place-items-center rounded-full text-zinc-400 transition-colors hover:bg-rose-500/10 hover:text-rose-300 focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  <Trash2 aria-hidden className="size-4" />
                </button>
              </div>
            ))}
            {artists.fields.length + 1 < MAX_ARTISTS ? (
              <AddArtistButton variant="secondary" onAdd={() => artists.append({ name: "" }, { shouldFocus: true })} />
            ) : null}
          </fieldset>

          <div className="grid gap-5 md:grid-cols-2">
            <FormSelectField form={form} name="genre" label="Genre">
              <GenreOptions />
            </FormSelectField>
            <FormTextField
              form={form}
              name="releaseDate"
              label="Release Date"
              type="date"
              hint="Optional. Leave empty when unknown."
              labelAside={changed("releaseDate")}
            />
          </div>
          <FormTextField
            form={form}
            name="soundcloudUrl"
            label="SoundCloud URL"
            type="url"
            inputMode="url"
            placeholder="https://soundcloud.com/artist/track"
            hint="Optional."
            labelAside={changed("soundcloudUrl")}
          />
          <LeakFields form={form} aside={changed} />
          <FormTextArea
            form={form}
            name="reason"
            label="Reason"
            placeholder="What is wrong with the current details, and how do you know?"
            hint="Required. Admins see this when they review your suggestion."
          />
          {errors.root?.message ? <Notice tone="error">{errors.root.message}</Notice> : null}
          <FormActions cancel={songPath}>
            <SubmitButton pending={isSubmitting} pendingLabel="Submitting…">
              Submit Suggestion
            </SubmitButton>
          </FormActions>
        </form>
      </Panel>
    </>
  );
}

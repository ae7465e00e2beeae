import { MESSAGES, type SoundcloudTrack } from "@unheard/shared";
import { Check, Music2, Search, X } from "lucide-react";
import { useId, useState } from "react";
import { type UseFormReturn, useFieldArray } from "react-hook-form";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { formatDuration } from "../../lib/format";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { fieldError } from "../../ui/form-binding";
import { FormTextField } from "../../ui/form-fields";
import { FormSelectField } from "../../ui/select";
import { ArtistNameField } from "./artist-name-field";
import { LeakFields } from "./leak-fields";
import { AddArtistButton, GenreOptions } from "./song-field-parts";
import { MAX_ARTISTS, type SongFormValues } from "./song-form";
import { useSoundcloudMatches } from "./songs";

/**
 * Title, primary and additional artists, genre, optional release date and SoundCloud link (with the
 * 'Find match' helper) and the collapsible leak details: the fields the upload and edit forms share.
 */
export function SongFields({ form, disabled }: { form: UseFormReturn<SongFormValues>; disabled?: boolean }) {
  const artists = useFieldArray({ control: form.control, name: "artists" });

  return (
    <div className="flex flex-col gap-5">
      <FormTextField
        form={form}
        name="title"
        label="Title"
        autoComplete="off"
        placeholder="Song title"
        disabled={disabled}
      />

      <fieldset className="flex flex-col gap-3" disabled={disabled}>
        <legend className="sr-only">Artists</legend>
        {artists.fields.map((field, index) =>
          // Each artist field suggests the artists already on Unheard (issue 38).
          index === 0 ? (
            <ArtistNameField
              key={field.id}
              form={form}
              name="artists.0.name"
              label="Primary artist"
              placeholder="Artist name"
            />
          ) : (
            // The remove button lines up with the field whatever shows under it (its error, its suggestions).
            <div key={field.id} className="flex items-start gap-2">
              <ArtistNameField
                className="min-w-0 flex-1"
                form={form}
                name={`artists.${index}.name`}
                label={`Artist ${index + 1}`}
                placeholder="Featured artist"
              />
              <button
                type="button"
                aria-label={`Remove artist ${index + 1}`}
                onClick={() => artists.remove(index)}
                className="mt-[1.625rem] grid size-11 shrink-0 place-items-center rounded-xl border border-white/10 text-zinc-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
              >
                <X aria-hidden className="size-4" />
              </button>
            </div>
          ),
        )}
        {artists.fields.length < MAX_ARTISTS ? (
          <AddArtistButton onAdd={() => artists.append({ name: "" }, { shouldFocus: true })} />
        ) : null}
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormSelectField form={form} name="genre" label="Genre" disabled={disabled}>
          <option value="" disabled>
            Choose a genre
          </option>
          <GenreOptions />
        </FormSelectField>
        <FormTextField
          form={form}
          name="releaseDate"
          label="Release date"
          type="date"
          disabled={disabled}
          hint="Optional. Leave empty when unknown."
        />
      </div>

      <SoundcloudField form={form} disabled={disabled} />
      <LeakFields form={form} disabled={disabled} />
    </div>
  );
}

function SoundcloudField({ form, disabled }: { form: UseFormReturn<SongFormValues>; disabled?: boolean | undefined }) {
  const matches = useSoundcloudMatches();
  const [tracks, setTracks] = useState<SoundcloudTrack[] | null>(null);
  const error = fieldError(form, "soundcloudUrl");
  const hintId = useId();

  const findMatch = async () => {
    const title = form.getValues("title").trim();
    const artist = form.getValues("artists.0.name")?.trim() ?? "";
    if (!title || !artist) {
      toast.error(MESSAGES.soundcloudNeedsTitleArtist);
      return;
    }
    try {
      const res = await matches.mutateAsync({ title, artist });
      setTracks(res.tracks);
      if (res.tracks.length === 0) toast(res.message ?? MESSAGES.soundcloudNoMatches);
    } catch (err) {
      setTracks(null);
      // 'Not configured' (503) says what to do; other server failures get the spec's wording.
      if (isApiError(err) && err.status === 503) toast.error(err.message);
      else handleError(err, MESSAGES.soundcloudFailed);
    }
  };

  const pick = (track: SoundcloudTrack) => {
    form.setValue("soundcloudUrl", track.permalink_url, { shouldDirty: true, shouldValidate: true });
    setTracks(null);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <div className="flex items-start gap-2">
          <FormTextField
            className="min-w-0 flex-1"
            form={form}
            name="soundcloudUrl"
            label="SoundCloud URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://soundcloud.com/artist/track"
            disabled={disabled}
            // The hint sits outside the field (beside the button); an error names its own message.
            {...(error ? {} : { "aria-describedby": hintId })}
          />
          <Button
            variant="secondary"
            className="mt-[1.625rem] h-11 shrink-0 px-3.5 sm:px-4"
            loading={matches.isPending}
            disabled={disabled}
            aria-label="Find match"
            title="Find a matching track on SoundCloud"
            icon={<Search aria-hidden className="size-4" />}
            onClick={() => void findMatch()}
          >
            {/* Phones keep the field wide: the button shows its icon only. */}
            <span className="hidden sm:inline">Find match</span>
          </Button>
        </div>
        {error ? null : (
          <p id={hintId} className="text-xs text-zinc-500">
            Optional. soundcloud.com and on.soundcloud.com links are embedded on the song page.
          </p>
        )}
      </div>
      {tracks && tracks.length > 0 ? (
        <div className="rounded-xl border border-white/10 bg-zinc-950/60 p-2">
          <p className="px-2 pt-1 pb-2 text-xs font-medium text-zinc-400">Pick the matching track</p>
          <ul className="flex flex-col gap-1">
            {tracks.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  onClick={() => pick(t)}
                  className="flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left hover:bg-white/5 focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  {t.artwork_url ? (
                    <img src={t.artwork_url} alt="" className="size-10 shrink-0 rounded-md object-cover" />
                  ) : (
                    <span className="grid size-10 shrink-0 place-items-center rounded-md bg-white/5 text-zinc-500">
                      <Music2 aria-hidden className="size-4" />
                    </span>
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-zinc-100">{t.title}</span>
                    <span className="block truncate text-xs text-zinc-500">
                      {t.user.username} · {formatDuration(t.duration / 1000)}
                    </span>
                  </span>
                  {form.getValues("soundcloudUrl") === t.permalink_url ? (
                    <Check aria-hidden className="size-4 text-emerald-300" />
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

import { type Artist, MESSAGES, updateArtistSchema } from "@unheard/shared";
import { useEffect } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { useUpdateArtist } from "../api/artists";
import { handleFormError } from "../api/form-errors";
import { toast } from "../lib/toast";
import { Button } from "./button";
import { TextArea } from "./moderation-text-area";
import { DialogFrame } from "./reason-dialog";
import { TextField } from "./text-field";

/** The artist edit form: bio and the three social links (empty means none). */
type ArtistForm = { bio: string; instagram: string; twitter: string; website: string };

const FIELDS = ["bio", "instagram", "twitter", "website"] as const;

function formOf(artist: Artist): ArtistForm {
  return {
    bio: artist.bio,
    instagram: artist.socialLinks.instagram ?? "",
    twitter: artist.socialLinks.twitter ?? "",
    website: artist.socialLinks.website ?? "",
  };
}

// The shared schema the API applies, so a javascript: link is refused before anything is sent.
const resolver: Resolver<ArtistForm> = async (values) => {
  const parsed = updateArtistSchema.safeParse(values);
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<ArtistForm> = {};
  for (const issue of parsed.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = { type: "validate", message: issue.message };
  }
  return { values: {}, errors };
};

const FAILED = "Failed to update artist profile";

/** 'Edit profile' on an artist page (the artist themself or an admin): bio and http(s) social links. */
export function ArtistEditDialog({
  artist,
  open,
  onOpenChange,
}: {
  artist: Artist;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const update = useUpdateArtist(artist.id);
  const form = useForm<ArtistForm>({ resolver, defaultValues: formOf(artist) });
  const { errors, isSubmitting } = form.formState;

  // Every opening starts from what the page shows now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening resets the form, not a refetch while typing.
  useEffect(() => {
    if (open) form.reset(formOf(artist));
  }, [open]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        bio: values.bio,
        instagram: values.instagram.trim() || null,
        twitter: values.twitter.trim() || null,
        website: values.website.trim() || null,
      });
      toast.success(MESSAGES.artistUpdated);
      onOpenChange(false);
    } catch (err) {
      handleFormError(err, FAILED, form.setError, FIELDS);
    }
  });

  const linkHint = "Optional. Must start with http:// or https://";
  return (
    <DialogFrame
      open={open}
      onOpenChange={(next) => {
        if (!isSubmitting) onOpenChange(next);
      }}
      title="Edit artist profile"
      description={`Bio and links shown on ${artist.name}'s page.`}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextArea label="Bio" rows={4} maxLength={1000} error={errors.bio?.message} {...form.register("bio")} />
        <TextField
          label="Instagram"
          type="url"
          inputMode="url"
          placeholder="https://instagram.com/…"
          hint={linkHint}
          error={errors.instagram?.message}
          {...form.register("instagram")}
        />
        <TextField
          label="Twitter"
          type="url"
          inputMode="url"
          placeholder="https://x.com/…"
          hint={linkHint}
          error={errors.twitter?.message}
          {...form.register("twitter")}
        />
        <TextField
          label="Website"
          type="url"
          inputMode="url"
          placeholder="https://…"
          hint={linkHint}
          error={errors.website?.message}
          {...form.register("website")}
        />
        <div className="mt-1 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save changes"}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}

import { type Artist, MESSAGES, updateArtistSchema } from "@unheard/shared";
import { useEffect } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { handleFormError } from "../../lib/api/form-errors";
import { toast } from "../../lib/toast";
import { DialogFrame } from "../../ui/dialog-frame";
import { FormActions, SubmitButton } from "../../ui/form-actions";
import { FormTextField } from "../../ui/form-fields";
import { FormTextArea } from "../../ui/text-area";
import { useUpdateArtist } from "./artists";

/** The artist edit form: bio and the three social links (empty means none). */
type ArtistForm = { bio: string; instagram: string; twitter: string; website: string };

const FIELDS = ["bio", "instagram", "twitter", "website"] as const;

/** The social link fields, in the order the page lists the links. */
const LINK_FIELDS = [
  { name: "instagram", label: "Instagram", placeholder: "https://instagram.com/…" },
  { name: "twitter", label: "Twitter", placeholder: "https://x.com/…" },
  { name: "website", label: "Website", placeholder: "https://…" },
] as const;

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
  const { isSubmitting } = form.formState;

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
        <FormTextArea form={form} name="bio" label="Bio" rows={4} maxLength={1000} />
        {LINK_FIELDS.map((f) => (
          <FormTextField
            key={f.name}
            form={form}
            name={f.name}
            label={f.label}
            type="url"
            inputMode="url"
            placeholder={f.placeholder}
            hint="Optional. Must start with http:// or https://"
          />
        ))}
        <FormActions cancel={() => onOpenChange(false)} busy={isSubmitting} className="mt-1">
          <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
            Save changes
          </SubmitButton>
        </FormActions>
      </form>
    </DialogFrame>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import { SYNC_LIMITS, type TrackerLink, trackerLinkInputSchema } from "@unheard/shared";
import { Link2 } from "lucide-react";
import { Controller, useForm } from "react-hook-form";
import { handleFormError } from "../../lib/api/form-errors";
import { toast } from "../../lib/toast";
import { FormActions, SubmitButton } from "../../ui/form-actions";
import { fieldError } from "../../ui/form-binding";
import { FormTextField } from "../../ui/form-fields";
import { SwitchRow } from "../../ui/switch-row";
import { TextField } from "../../ui/text-field";
import { type LinkFields, useChangeLink, useCreateLink } from "./tracker-links";

/** The form's part of a link's input: the shared schema's own messages. */
const linkFormSchema = trackerLinkInputSchema.pick({
  artist: true,
  url: true,
  intervalMinutes: true,
  asVerified: true,
});
const FIELDS = ["artist", "url", "intervalMinutes"] as const;

/**
 * Link an artist's tracker to a published sheet (artist, link, every N minutes, import as verified), or change a
 * link (`link`): its artist stays, the rest may change. `onDone` runs after it is saved; `onCancel` shows Cancel.
 */
export function TrackerLinkForm({
  link,
  onDone,
  onCancel,
}: {
  link?: TrackerLink;
  onDone?: (link: TrackerLink) => void;
  onCancel?: () => void;
}) {
  const create = useCreateLink();
  const change = useChangeLink();
  const form = useForm<LinkFields>({
    resolver: zodResolver(linkFormSchema),
    defaultValues: {
      artist: link?.artist.name ?? "",
      url: link?.sourceUrl ?? "",
      intervalMinutes: link?.intervalMinutes ?? SYNC_LIMITS.defaultIntervalMinutes,
      asVerified: link?.asVerified ?? false,
    },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (link) {
        const saved = await change.mutateAsync({ link, input: values });
        toast.success("Link saved");
        onDone?.(saved);
      } else {
        const saved = await create.mutateAsync(values);
        toast.success("Tracker linked. Its first sync waits for your approval.");
        form.reset();
        onDone?.(saved);
      }
    } catch (err) {
      handleFormError(err, link ? "Failed to save the link" : "Failed to link the tracker", form.setError, FIELDS);
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={link ? `Change the link of ${link.artist.name}'s tracker` : "Link a tracker"}
      className="flex flex-col gap-4"
    >
      <FormTextField
        form={form}
        name="artist"
        label="Artist"
        autoComplete="off"
        maxLength={100}
        readOnly={Boolean(link)}
        hint={
          link
            ? "A link stays with its artist: unlink it to link another artist's tracker."
            : "Whose tracker the sheet is; their profile is made if there is none."
        }
      />
      <FormTextField
        form={form}
        name="url"
        label="Sheet link"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://docs.google.com/spreadsheets/d/e/…/pub?output=xlsx"
        maxLength={2000}
        hint="The published CSV or XLSX link, or any https address serving CSV or XLSX."
      />
      <TextField
        label="Sync every (minutes)"
        type="number"
        inputMode="numeric"
        min={SYNC_LIMITS.minIntervalMinutes}
        max={SYNC_LIMITS.maxIntervalMinutes}
        step={1}
        hint={`From ${SYNC_LIMITS.minIntervalMinutes} minutes to a week (${SYNC_LIMITS.maxIntervalMinutes.toLocaleString("en-US")}).`}
        error={fieldError(form, "intervalMinutes")}
        {...form.register("intervalMinutes", { valueAsNumber: true })}
      />
      <Controller
        control={form.control}
        name="asVerified"
        render={({ field }) => (
          <SwitchRow
            label="Import as verified"
            description="New songs skip the community vote; otherwise they start pending."
            checked={Boolean(field.value)}
            onCheckedChange={field.onChange}
          />
        )}
      />
      {onCancel ? (
        <FormActions cancel={onCancel} busy={isSubmitting}>
          <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
            Save changes
          </SubmitButton>
        </FormActions>
      ) : (
        <div className="flex justify-end">
          <SubmitButton pending={isSubmitting} pendingLabel="Linking…" icon={<Link2 aria-hidden className="size-4" />}>
            Link tracker
          </SubmitButton>
        </div>
      )}
    </form>
  );
}

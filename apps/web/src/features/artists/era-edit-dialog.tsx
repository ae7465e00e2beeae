import { eraInputSchema, MESSAGES, type TrackerEra } from "@unheard/shared";
import { useEffect } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { handleFormError } from "../../lib/api/form-errors";
import { toast } from "../../lib/toast";
import { DialogFrame } from "../../ui/dialog-frame";
import { FormActions, SubmitButton } from "../../ui/form-actions";
import { FormTextField } from "../../ui/form-fields";
import { FormTextArea } from "../../ui/text-area";
import { useSaveEra } from "./artists";

/** An era with a name: the only kind that can be described ("No era" is the songs without one). */
export type NamedEra = TrackerEra & { name: string };

/** The era form: its name (not a field: eras are saved by name) and the fields, each a string, empty meaning none. */
type EraForm = { name: string; description: string; coverUrl: string; startsOn: string; endsOn: string };

const FIELDS = ["description", "coverUrl", "startsOn", "endsOn"] as const;

/**
 * A field's hint, a step lighter than the fields' default grey (zinc-500 on the dialog's zinc-900 is about 3.7:1,
 * under the 4.5:1 small text needs): the date format is needed to fill the field in.
 */
function Hint({ children }: { children: string }) {
  return <span className="text-zinc-400">{children}</span>;
}

const DATE_HINT = <Hint>YYYY-MM or YYYY-MM-DD</Hint>;

/**
 * The form as the era shows now. The tracker does not say whether its span came from the era's page or from its
 * songs' leak dates: either way it is what the heading shows, so it is where the editing starts.
 */
function formOf(era: NamedEra): EraForm {
  return {
    name: era.name,
    description: era.description ?? "",
    coverUrl: era.coverUrl ?? "",
    // The era page's own dates, not the span of its songs' leaks: saving a description must not freeze that span.
    startsOn: era.startsOn ?? "",
    endsOn: era.endsOn ?? "",
  };
}

/** What PUT /api/artists/:id/eras is sent: the form, an empty field as none. */
function inputOf(values: EraForm) {
  return {
    name: values.name,
    description: values.description.trim() || null,
    coverUrl: values.coverUrl.trim() || null,
    startsOn: values.startsOn.trim() || null,
    endsOn: values.endsOn.trim() || null,
  };
}

// The shared schema the API applies: a bad date or a javascript: link is refused before anything is sent.
const resolver: Resolver<EraForm> = async (values) => {
  const parsed = eraInputSchema.safeParse(inputOf(values));
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<EraForm> = {};
  for (const issue of parsed.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    // The schema compares the dates even when one is not a date ('March 2019' sorts after '2020-01'): only the
    // date's own message is shown then.
    const misleading = issue.message === MESSAGES.eraDatesOrder && (errors.startsOn || errors.endsOn);
    if (field && !errors[field] && !misleading) errors[field] = { type: "validate", message: issue.message };
  }
  // A refusal of none of the fields (the era's name) is left to the API: handleError toasts its message.
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors };
};

const FAILED = "Failed to save the era";

/**
 * 'Edit era' on the artist page's tracker (the artist themself or an admin who may edit artists): the era's
 * description, cover image link and dates, saved by its name.
 */
export function EraEditDialog({
  artistId,
  era,
  open,
  onOpenChange,
}: {
  artistId: string;
  era: NamedEra;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveEra(artistId);
  const form = useForm<EraForm>({ resolver, defaultValues: formOf(era) });
  const { isSubmitting } = form.formState;

  // Every opening starts from what the era shows now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening (or another era) resets the form, not a refetch while typing.
  useEffect(() => {
    if (open) form.reset(formOf(era));
  }, [open, era.name]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(inputOf(values));
      toast.success(MESSAGES.eraSaved);
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
      title={`Edit era “${era.name}”`}
      description="The description, cover and dates shown in this era's heading on the tracker."
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormTextArea form={form} name="description" label="Description" rows={4} maxLength={2000} />
        <FormTextField
          form={form}
          name="coverUrl"
          label="Cover image link"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://…"
          hint={<Hint>Optional. Must start with http:// or https://</Hint>}
        />
        {/* One under the other: side by side, the date message would break inside 'YYYY-MM-DD'. */}
        <FormTextField
          form={form}
          name="startsOn"
          label="Starts"
          autoComplete="off"
          spellCheck={false}
          placeholder="2019-03"
          hint={DATE_HINT}
        />
        <FormTextField
          form={form}
          name="endsOn"
          label="Ends"
          autoComplete="off"
          spellCheck={false}
          placeholder="2020-11"
          hint={DATE_HINT}
        />
        <FormActions cancel={() => onOpenChange(false)} busy={isSubmitting} className="mt-1">
          <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
            Save era
          </SubmitButton>
        </FormActions>
      </form>
    </DialogFrame>
  );
}

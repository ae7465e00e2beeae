import { AVAILABILITY_LABELS, LEAK_FIELDS, LEAK_LIMITS, type LeakField, QUALITY_LABELS } from "@unheard/shared";
import { ChevronDown } from "lucide-react";
import { type ComponentProps, type ReactNode, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { FormTextField } from "../../ui/form-fields";
import { FormSelectField } from "../../ui/select";
import { FormTextArea } from "../../ui/text-area";

/** The leak detail fields of a form, as text (names comma-separated; blank means none). */
export type LeakFormValues = Record<LeakField, string>;

type TextFieldName = "era" | "leakDate" | "producers" | "features";

const NAMES_HINT = `Comma-separated, up to ${LEAK_LIMITS.names}.`;

/** The one-line text fields of the section: each one's label and input settings. */
const TEXT_FIELDS: Record<
  TextFieldName,
  Omit<ComponentProps<typeof FormTextField<LeakFormValues>>, "form" | "name">
> = {
  era: { label: "Era", autoComplete: "off", placeholder: "Era or project name", maxLength: LEAK_LIMITS.era },
  leakDate: { label: "Leak date", type: "date", hint: "When it surfaced." },
  producers: { label: "Producers", autoComplete: "off", placeholder: "Producer, another producer", hint: NAMES_HINT },
  features: {
    label: "Featured artists",
    autoComplete: "off",
    placeholder: "Featured artist, another",
    hint: NAMES_HINT,
  },
};

/** The leak details chosen from a closed list, with the labels of their values (in order). */
const CHOICE_LABELS = { availability: AVAILABILITY_LABELS, quality: QUALITY_LABELS } as const;
const CHOICE_FIELDS = [
  { name: "availability", label: "Availability" },
  { name: "quality", label: "Audio quality" },
] as const;

/** The options of a leak detail choice (availability or quality), after a first one meaning none (or any). */
export function LeakChoiceOptions({
  choice,
  none,
}: {
  choice: keyof typeof CHOICE_LABELS;
  none: { value: string; label: string };
}) {
  return (
    <>
      <option value={none.value}>{none.label}</option>
      {Object.entries(CHOICE_LABELS[choice]).map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </>
  );
}

/**
 * The collapsible 'Leak details' section of the upload, edit and suggest-edit forms (issue 16). Opens by itself
 * when a value is set or one of its fields has an error, so an error is never hidden in a closed section.
 */
export function LeakFields<T extends FieldValues & LeakFormValues, C = unknown, O = T>({
  form: typed,
  disabled,
  aside,
}: {
  form: UseFormReturn<T, C, O>;
  disabled?: boolean;
  /** What to show beside a field's label (the suggest-edit form marks changed fields). */
  aside?: (name: LeakField) => ReactNode;
}) {
  // One concrete shape inside: the fields are the same whatever else the form holds.
  const form = typed as unknown as UseFormReturn<LeakFormValues>;
  const [open, setOpen] = useState(() => LEAK_FIELDS.some((f) => Boolean(form.getValues(f))));
  const hasError = LEAK_FIELDS.some((f) => form.formState.errors[f]);
  const label = (name: LeakField) => (aside ? { labelAside: aside(name) } : {});
  const textField = (name: TextFieldName) => (
    <FormTextField form={form} name={name} {...TEXT_FIELDS[name]} {...label(name)} />
  );

  return (
    <details
      open={open || hasError}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="group rounded-xl border border-white/10 bg-white/[0.02]"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3 text-sm font-semibold text-zinc-100 hover:bg-white/[0.03] focus-visible:outline-2 focus-visible:outline-violet-400 [&::-webkit-details-marker]:hidden">
        <span>
          Leak details <span className="font-normal text-zinc-500">· optional</span>
        </span>
        <ChevronDown aria-hidden className="size-4 text-zinc-400 transition-transform group-open:rotate-180" />
      </summary>
      <fieldset className="flex flex-col gap-5 border-t border-white/10 px-4 pt-4 pb-5" disabled={disabled}>
        <legend className="sr-only">Leak details</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          {textField("era")}
          {textField("leakDate")}
          {CHOICE_FIELDS.map(({ name, label: text }) => (
            <FormSelectField key={name} form={form} name={name} label={text} {...label(name)}>
              <LeakChoiceOptions choice={name} none={{ value: "", label: "Unknown" }} />
            </FormSelectField>
          ))}
          {textField("producers")}
          {textField("features")}
        </div>
        <FormTextArea
          form={form}
          name="notes"
          label="Notes"
          rows={3}
          placeholder="Where it surfaced, what is known about it"
          {...label("notes")}
        />
      </fieldset>
    </details>
  );
}

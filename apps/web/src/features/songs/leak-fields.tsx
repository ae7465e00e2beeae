import {
  LEAK_FIELDS,
  LEAK_LIMITS,
  type LeakField,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  SONG_TAGS,
  type SongTag,
} from "@unheard/shared";
import { clsx } from "clsx";
import { ChevronDown } from "lucide-react";
import { type ComponentProps, type ReactNode, useId, useState } from "react";
import { type FieldValues, type UseFormReturn, useController } from "react-hook-form";
import { FormTextField } from "../../ui/form-fields";
import { FormSelectField } from "../../ui/select";
import { FormTextArea } from "../../ui/text-area";
import { LeakChoiceOptions } from "./leak-choice-options";

/**
 * The leak detail fields of a form, as text (names comma-separated, tags as the checked tags' values
 * comma-separated, the track length and dates as typed, links one a line; blank means none).
 */
export type LeakFormValues = Record<LeakField, string>;

type TextFieldName = Exclude<LeakField, "tags" | "availability" | "quality" | "notes" | "links">;

const NAMES_HINT = `Comma-separated, up to ${LEAK_LIMITS.names}.`;
/** Dates as precise as they are known (issue 37): trackers often know the year, or the month, and no more. */
const DATE_HINT = "YYYY, YYYY-MM or YYYY-MM-DD: as much as is known.";

/** The one-line text fields of the section: each one's label and input settings. */
const TEXT_FIELDS: Record<
  TextFieldName,
  Omit<ComponentProps<typeof FormTextField<LeakFormValues>>, "form" | "name">
> = {
  era: { label: "Era", autoComplete: "off", placeholder: "Era or project name", maxLength: LEAK_LIMITS.era },
  versionLabel: {
    label: "Version label",
    autoComplete: "off",
    placeholder: "V2",
    maxLength: LEAK_LIMITS.versionLabel,
    hint: "The tracker's version marker, if any.",
  },
  trackLength: {
    label: "Track length",
    autoComplete: "off",
    placeholder: "3:45",
    hint: "Minutes and seconds, e.g. 3:45.",
  },
  leakDate: {
    label: "Leak date",
    autoComplete: "off",
    placeholder: "2019-06-21",
    maxLength: 10,
    hint: `When it surfaced. ${DATE_HINT}`,
  },
  fileDate: {
    label: "File date",
    autoComplete: "off",
    placeholder: "2019-06",
    maxLength: 10,
    hint: `When the file was made. ${DATE_HINT}`,
  },
  producers: { label: "Producers", autoComplete: "off", placeholder: "Producer, another producer", hint: NAMES_HINT },
  features: {
    label: "Featured artists",
    autoComplete: "off",
    placeholder: "Featured artist, another",
    hint: NAMES_HINT,
  },
  references: {
    label: "Reference by",
    autoComplete: "off",
    placeholder: "Artist who recorded the reference",
    hint: `Artists whose reference track it is. ${NAMES_HINT}`,
  },
  aliases: { label: "Also known as", autoComplete: "off", placeholder: "Other title, another", hint: NAMES_HINT },
};

const CHOICE_FIELDS = [
  { name: "availability", label: "Availability" },
  { name: "quality", label: "Audio quality" },
] as const;

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
          {textField("versionLabel")}
          {textField("leakDate")}
          {textField("fileDate")}
          {CHOICE_FIELDS.map(({ name, label: text }) => (
            <FormSelectField key={name} form={form} name={name} label={text} {...label(name)}>
              <LeakChoiceOptions choice={name} none={{ value: "", label: "Unknown" }} />
            </FormSelectField>
          ))}
          {textField("producers")}
          {textField("features")}
          {textField("references")}
          {textField("aliases")}
          {textField("trackLength")}
        </div>
        <TagsField form={form} aside={aside?.("tags")} />
        <FormTextArea
          form={form}
          name="notes"
          label="Notes"
          rows={3}
          placeholder="Where it surfaced, what is known about it"
          {...label("notes")}
        />
        <FormTextArea
          form={form}
          name="links"
          label="Links"
          rows={3}
          spellCheck={false}
          autoComplete="off"
          placeholder="https://"
          hint={`Where it can be heard or downloaded: one web address a line, up to ${LEAK_LIMITS.links}.`}
          {...label("links")}
        />
      </fieldset>
    </details>
  );
}

/** The tags as the form holds them: the checked ones' values, comma-separated in SONG_TAGS order. */
function tagList(value: string): SongTag[] {
  const list = value.split(",").map((t) => t.trim());
  return SONG_TAGS.filter((t) => list.includes(t));
}

/**
 * The tags as a group of checkboxes, each with its mark and label (issue 27). The form holds them as one text
 * value, so the section's fields stay text and a tag checked and unchecked again leaves the form unchanged.
 */
function TagsField({ form, aside }: { form: UseFormReturn<LeakFormValues>; aside?: ReactNode }) {
  const { field, fieldState } = useController({ control: form.control, name: "tags" });
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = fieldState.error?.message;
  const checked = tagList(field.value);
  const toggle = (tag: SongTag, on: boolean) => {
    const next = on ? [...checked, tag] : checked.filter((t) => t !== tag);
    field.onChange(SONG_TAGS.filter((t) => next.includes(t)).join(","));
  };

  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? errorId : hintId}>
      <legend className="mb-1.5 flex w-full items-center justify-between gap-2 text-sm font-medium text-zinc-200">
        Tags
        {aside}
      </legend>
      <div className="flex flex-wrap gap-2">
        {SONG_TAGS.map((tag, i) => (
          <label
            key={tag}
            className={clsx(
              "inline-flex cursor-pointer items-center gap-2 rounded-xl border bg-zinc-900/80 px-3 py-2 text-sm text-zinc-200 transition-colors",
              "has-[:checked]:border-violet-400/60 has-[:checked]:bg-violet-500/15 has-[:checked]:text-white",
              "has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60",
              error ? "border-rose-400/70" : "border-white/10 hover:border-white/20",
            )}
          >
            <input
              // The first box takes the form's focus when the field has an error.
              ref={i === 0 ? field.ref : undefined}
              type="checkbox"
              name={field.name}
              value={tag}
              checked={checked.includes(tag)}
              onChange={(e) => toggle(tag, e.target.checked)}
              onBlur={field.onBlur}
              aria-invalid={error ? true : undefined}
              className="size-4 shrink-0 accent-violet-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
            />
            <span aria-hidden>{SONG_TAG_MARKS[tag]}</span>
            {SONG_TAG_LABELS[tag]}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-rose-300">
          {error}
        </p>
      ) : (
        <p id={hintId} className="text-xs text-zinc-500">
          The marks trackers put before its title.
        </p>
      )}
    </fieldset>
  );
}

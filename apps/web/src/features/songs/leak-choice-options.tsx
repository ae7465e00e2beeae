import { AVAILABILITY_LABELS, QUALITY_LABELS } from "@unheard/shared";

// Its own file: the home page's filters use it, and the form fields beside it (leak-fields.tsx) bring the form
// library and the schemas.

/** The leak details chosen from a closed list, with the labels of their values (in order). */
const CHOICE_LABELS = { availability: AVAILABILITY_LABELS, quality: QUALITY_LABELS } as const;

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

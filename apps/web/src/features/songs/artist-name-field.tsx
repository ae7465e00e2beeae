import { clsx } from "clsx";
import { BadgeCheck } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { type Path, type UseFormReturn, useWatch } from "react-hook-form";
import { plural } from "../../lib/format";
import { useDebounced } from "../../lib/use-debounced";
import { fieldError } from "../../ui/form-binding";
import { TextField } from "../../ui/text-field";
import { useSuggestions } from "../search/search";
import { SUGGEST_DEBOUNCE_MS, SUGGEST_MAX_LENGTH } from "../search/suggest-list";
import { type ArtistOffer, artistOffers, offerKey } from "./artist-suggest";
import type { SongFormValues } from "./song-form";

/**
 * An artist field that suggests the artists already on Unheard while typing (issue 38), from the search index's
 * suggestions: a WAI-ARIA combobox. The arrows move through the list, Enter or a click puts the name in the field,
 * Escape closes it; Enter with no option active submits the form as before. A name nobody has yet is typed as
 * ever: the list only offers.
 */
export function ArtistNameField({
  form,
  name,
  label,
  placeholder,
  className,
}: {
  form: UseFormReturn<SongFormValues>;
  name: Path<SongFormValues> & `artists.${number}.name`;
  label: string;
  placeholder: string;
  className?: string;
}) {
  const listId = `${useId()}-artists`;
  const [open, setOpen] = useState(false);
  // Just closed by the field losing focus: the list keeps its room, unseen, until the press that took the focus has
  // ended. Collapsing at once moved what was under the pointer between press and release, and the click missed.
  const [closing, setClosing] = useState(false);
  const [active, setActive] = useState(-1);
  const value = useWatch({ control: form.control, name }) ?? "";
  const typed = value.trim().slice(0, SUGGEST_MAX_LENGTH);
  const term = useDebounced(typed, SUGGEST_DEBOUNCE_MS);
  const suggestions = useSuggestions(term, open);
  // The answer is for what was typed before the pause: offered only while the field still says that.
  const offers = term === typed ? artistOffers(suggestions.data, typed) : [];
  const shown = open && offers.length > 0;
  const current = shown && active < offers.length ? active : -1;
  const { onChange, onBlur, ref, ...registered } = form.register(name);

  useEffect(() => {
    if (!closing) return;
    const done = () => setClosing(false);
    // After the click's own handlers, so its target is where it was pressed; a Tab has no click: a short while.
    const onClick = () => window.setTimeout(done, 0);
    document.addEventListener("click", onClick, { capture: true, once: true });
    const timer = window.setTimeout(done, 600);
    return () => {
      document.removeEventListener("click", onClick, { capture: true });
      window.clearTimeout(timer);
    };
  }, [closing]);

  const choose = (offer: ArtistOffer) => {
    form.setValue(name, offer.name, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const effect = offerKey(e.key, shown, current, offers.length);
    if (!effect) return;
    e.preventDefault();
    // Escape closes the list only, not a dialog the form may sit in.
    e.stopPropagation();
    if (effect.kind === "move") {
      setOpen(true);
      setActive(effect.active);
    } else if (effect.kind === "choose") {
      const offer = offers[effect.index];
      if (offer) choose(offer);
    } else {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className={clsx("relative", className)}>
      <TextField
        {...registered}
        ref={ref}
        label={label}
        placeholder={placeholder}
        autoComplete="off"
        error={fieldError(form, name)}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={current >= 0 ? `${listId}-${current}` : undefined}
        onChange={(e) => {
          setOpen(true);
          setClosing(false);
          setActive(-1);
          void onChange(e);
        }}
        onBlur={(e) => {
          if (shown) setClosing(true);
          setOpen(false);
          setActive(-1);
          void onBlur(e);
        }}
        onKeyDown={onKeyDown}
      />
      {/* The count is read out as the list changes; the list itself is not a live region. */}
      <span className="sr-only" aria-live="polite">
        {shown ? `${plural(offers.length, "artist")} on Unheard match` : ""}
      </span>
      {/* Always in the page (aria-controls names it), hidden while empty. In the flow of the form, under the field,
          not over it: nothing below is covered while it is open. */}
      <div
        id={listId}
        role="listbox"
        aria-label="Artist suggestions"
        hidden={!shown && !closing}
        // Pressing an option must not take focus from the field first (its blur would close the list).
        onMouseDown={(e) => e.preventDefault()}
        className={clsx(
          "mt-1.5 max-h-72 overflow-y-auto rounded-xl border border-white/15 bg-zinc-900 p-1 shadow-lg shadow-black/40",
          !shown && "invisible",
        )}
      >
        {shown || closing
          ? offers.map((offer, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys reach the options through the field (the combobox), which keeps focus.
              <div
                key={offer.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === current}
                tabIndex={-1}
                onClick={() => choose(offer)}
                className={clsx(
                  "flex min-h-11 cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-1.5",
                  i === current ? "bg-violet-500/20 ring-1 ring-violet-400 ring-inset" : "hover:bg-white/[0.06]",
                )}
              >
                <span className="flex min-w-0 items-center gap-1 text-sm font-medium text-zinc-100">
                  <span className="truncate">{offer.name}</span>
                  {offer.isVerified ? (
                    <>
                      <BadgeCheck aria-hidden className="size-4 shrink-0 text-violet-300" />
                      <span className="sr-only">(verified)</span>
                    </>
                  ) : null}
                </span>
                <span className="shrink-0 text-xs text-zinc-300">{plural(offer.trackCount, "track")}</span>
              </div>
            ))
          : null}
      </div>
    </div>
  );
}

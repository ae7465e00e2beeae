import { GENRES } from "@unheard/shared";
import { Plus } from "lucide-react";
import { Button } from "../../ui/button";

/** 'Add artist': appends an empty artist row to a form and puts the cursor in it. */
export function AddArtistButton({ onAdd, variant = "ghost" }: { onAdd: () => void; variant?: "ghost" | "secondary" }) {
  return (
    <div>
      <Button variant={variant} size="sm" icon={<Plus aria-hidden className="size-4" />} onClick={onAdd}>
        Add artist
      </Button>
    </div>
  );
}

/** The genres as the options of a select. */
export function GenreOptions() {
  return GENRES.map((g) => (
    <option key={g} value={g}>
      {g}
    </option>
  ));
}

import type { SuggestResult } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { artistOffers, offerKey } from "./artist-suggest";

const artist = (name: string, trackCount = 3) => ({
  id: name.toLowerCase().replace(/\s+/g, "-"),
  name,
  initial: name.slice(0, 1),
  trackCount,
  isVerified: false,
});
const answer = (...names: string[]): SuggestResult => ({ songs: [], artists: names.map((n) => artist(n)) });

describe("artist field suggestions", () => {
  it("offers the index's artists for what is typed, best first", () => {
    expect(artistOffers(answer("Nova Reyes", "Nova Tide"), "nov").map((a) => a.name)).toEqual([
      "Nova Reyes",
      "Nova Tide",
    ]);
    expect(artistOffers(answer("A", "B", "C", "D"), "x", 2).map((a) => a.name)).toEqual(["A", "B"]);
  });

  it("offers nothing for an empty field, before an answer, or once the field holds an offered name", () => {
    expect(artistOffers(answer("Nova Reyes"), "  ")).toEqual([]);
    expect(artistOffers(undefined, "nova")).toEqual([]);
    expect(artistOffers(answer("Nova Reyes", "Nova Tide"), "  nova   REYES ")).toEqual([]);
    expect(artistOffers(answer("Beyoncé"), "beyonce")).toEqual([]);
  });

  it("moves with the arrows (wrapping), chooses with Enter, closes with Escape; other keys are the field's", () => {
    expect(offerKey("ArrowDown", false, -1, 3)).toEqual({ kind: "move", active: 0 });
    expect(offerKey("ArrowDown", true, 0, 3)).toEqual({ kind: "move", active: 1 });
    expect(offerKey("ArrowDown", true, 2, 3)).toEqual({ kind: "move", active: 0 });
    expect(offerKey("ArrowUp", true, 0, 3)).toEqual({ kind: "move", active: 2 });
    expect(offerKey("ArrowUp", false, -1, 3)).toEqual({ kind: "move", active: 2 });
    expect(offerKey("Enter", true, 1, 3)).toEqual({ kind: "choose", index: 1 });
    // Enter with no active option submits the form; a closed list leaves Enter and Escape alone.
    expect(offerKey("Enter", true, -1, 3)).toBeUndefined();
    expect(offerKey("Enter", false, 1, 3)).toBeUndefined();
    expect(offerKey("Escape", true, -1, 3)).toEqual({ kind: "close" });
    expect(offerKey("Escape", false, -1, 3)).toBeUndefined();
    expect(offerKey("ArrowDown", true, -1, 0)).toBeUndefined();
    expect(offerKey("a", true, 0, 3)).toBeUndefined();
  });
});

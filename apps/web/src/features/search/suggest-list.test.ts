import type { SuggestResult } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import {
  highlightParts,
  keyIntent,
  type ListState,
  moveActive,
  refinesSearch,
  suggestAnnouncement,
  suggestOptions,
} from "./suggest-list";

const answer: SuggestResult = {
  artists: [{ id: "a1", name: "Mara Vance", initial: "M", trackCount: 4, isVerified: true }],
  songs: [
    { id: "s1", title: "Saltwater Letters", artists: [{ id: "a1", name: "Mara Vance" }], coverUrl: "/c1.svg" },
    { id: "s/2", title: "Salt Flats", artists: [{ id: "a2", name: "Nova Reyes" }], coverUrl: "/c2.svg" },
  ],
};

const open = (active: number, count = 3): ListState => ({ open: true, active, count, hasText: true });
const closed = (count = 3, hasText = true): ListState => ({ open: false, active: -1, count, hasText });

describe("suggestOptions", () => {
  it("lists artists first, then songs, each with the page it opens", () => {
    expect(suggestOptions(answer).map((o) => [o.kind, o.href])).toEqual([
      ["artist", "/artists/a1"],
      ["song", "/song/s1"],
      ["song", "/song/s%2F2"],
    ]);
    expect(suggestOptions(undefined)).toEqual([]);
  });
});

describe("moveActive", () => {
  it("goes down and up, wrapping at both ends", () => {
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(0, 3, 1)).toBe(1);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(2, 3, -1)).toBe(1);
  });

  it("has no active option in an empty list, and recovers from one past the end", () => {
    expect(moveActive(-1, 0, 1)).toBe(-1);
    expect(moveActive(1, 0, -1)).toBe(-1);
    expect(moveActive(5, 3, 1)).toBe(0);
  });
});

describe("refinesSearch", () => {
  it("lets an answer stand in while the same search is typed further or back, not for another one", () => {
    expect(refinesSearch("salt", "saltwatr")).toBe(true);
    expect(refinesSearch("Saltwatr", "saltw")).toBe(true);
    expect(refinesSearch("nova rey", "s")).toBe(false);
    expect(refinesSearch("", "s")).toBe(false);
    expect(refinesSearch("s", "")).toBe(false);
  });
});

describe("keyIntent", () => {
  it("moves the active option with the arrows, wrapping", () => {
    expect(keyIntent("ArrowDown", open(-1))).toEqual({ type: "move", active: 0 });
    expect(keyIntent("ArrowDown", open(2))).toEqual({ type: "move", active: 0 });
    expect(keyIntent("ArrowUp", open(0))).toEqual({ type: "move", active: 2 });
    expect(keyIntent("ArrowUp", open(-1))).toEqual({ type: "move", active: 2 });
  });

  it("opens a closed list on an arrow, with the first (down) or last (up) option active", () => {
    expect(keyIntent("ArrowDown", { ...closed(), active: 1 })).toEqual({ type: "move", active: 0 });
    expect(keyIntent("ArrowUp", closed())).toEqual({ type: "move", active: 2 });
    expect(keyIntent("ArrowDown", closed(0))).toEqual({ type: "move", active: -1 });
  });

  it("opens the active option on Enter, else the full results", () => {
    expect(keyIntent("Enter", open(1))).toEqual({ type: "choose", index: 1 });
    expect(keyIntent("Enter", open(-1))).toEqual({ type: "submit" });
    expect(keyIntent("Enter", { ...closed(), active: 1 })).toEqual({ type: "submit" });
    expect(keyIntent("Enter", open(3))).toEqual({ type: "submit" });
  });

  it("closes on the first Escape and clears on the second", () => {
    expect(keyIntent("Escape", open(0))).toEqual({ type: "close" });
    expect(keyIntent("Escape", closed())).toEqual({ type: "clear" });
    expect(keyIntent("Escape", closed(3, false))).toEqual({ type: "default" });
  });

  it("leaves Tab, Home, End and letters to the input", () => {
    for (const key of ["Tab", "Home", "End", "a", " "]) expect(keyIntent(key, open(1))).toEqual({ type: "default" });
  });
});

describe("suggestAnnouncement", () => {
  it("counts the suggestions for the live region", () => {
    expect(suggestAnnouncement(0)).toBe("No suggestions");
    expect(suggestAnnouncement(1)).toBe("1 suggestion");
    expect(suggestAnnouncement(9)).toBe("9 suggestions");
  });
});

/** The highlighted runs of `text`. */
const marked = (text: string, query: string) =>
  highlightParts(text, query)
    .filter((p) => p.match)
    .map((p) => p.text);

describe("highlightParts", () => {
  it("marks each word's start that a typed word begins, the last one as a prefix", () => {
    expect(highlightParts("Saltwater Letters", "saltwater let")).toEqual([
      { text: "Saltwater", match: true },
      { text: " ", match: false },
      { text: "Let", match: true },
      { text: "ters", match: false },
    ]);
  });

  it("marks the shared start of a misspelt word from three letters on", () => {
    expect(marked("Saltwater Letters", "saltwatr let")).toEqual(["Saltwat", "Let"]);
    expect(marked("Midnight Circuit", "midnigt circ")).toEqual(["Midnig", "Circ"]);
    expect(marked("Midnight Circuit", "mx")).toEqual([]);
  });

  it("ignores case and accents, and keeps the text's own letters", () => {
    expect(marked("Café Noir", "CAFE no")).toEqual(["Café", "No"]);
    expect(marked("Beyoncé", "beyonce")).toEqual(["Beyoncé"]);
  });

  it("gives back the text whole when nothing matches or nothing was typed", () => {
    expect(highlightParts("Static Bloom", "zzz")).toEqual([{ text: "Static Bloom", match: false }]);
    expect(highlightParts("Static Bloom", "  ")).toEqual([{ text: "Static Bloom", match: false }]);
    expect(highlightParts("", "a")).toEqual([]);
  });

  it("puts the runs back together into the text", () => {
    const text = "The Lowlight — Static Bloom (feat. Ñandú)";
    expect(
      highlightParts(text, "lowl st ñan")
        .map((p) => p.text)
        .join(""),
    ).toBe(text);
    expect(marked(text, "lowl st ñan")).toEqual(["Lowl", "St", "Ñan"]);
  });
});
